/**
 * The audit row writer, recordAudit, lives beside the tables (db/audit-log.ts) so that the order domain
 * records in its own transaction without reaching up; the areas above import it from here or there.
 */
export { recordAudit } from '../db/audit-log.js';
