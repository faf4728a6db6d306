// Worker entry when the server runs from its TypeScript sources (tsx, vitest): compile them on the fly.
// The built server (dist/) starts worker.js directly.
import { register } from 'tsx/esm/api';

register();
const { default: runPdfTask } = await import('./worker.ts');
export default runPdfTask;
