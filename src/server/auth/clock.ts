/** The server's clock lives beside the folders (clock.ts), a floor module every area may read. */
export { now, setClockForTests } from '../clock.js';
