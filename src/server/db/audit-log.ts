import type { AuditAction } from '../../shared/contracts/audit.js';
import type { DbOrTx } from './client.js';
import { auditLog } from './schema.js';

/**
 * What the audit log records for a staff-access write (who, what, when, from what, to what). The names
 * and their screen labels live in one table, AUDIT_ACTIONS (src/shared/contracts/audit.ts): add a line
 * there to record a new action. Written here, beside the tables, so every floor (the order domain
 * included) records in the transaction of its write without reaching up to the audit screens.
 */
export interface AuditEntry {
  action: AuditAction;
  actorId?: number | null;
  /** For logins the e-mail as typed (lower-cased), so failures of unknown accounts are counted too. */
  actorEmail?: string | null;
  target?: string | null;
  from?: unknown;
  to?: unknown;
  ip?: string | null;
}

/** Appends one audit row; call it inside the transaction of the write it describes. */
export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    action: entry.action,
    actorId: entry.actorId ?? null,
    actorEmail: entry.actorEmail?.slice(0, 254) ?? null,
    target: entry.target ?? null,
    fromValue: entry.from ?? null,
    toValue: entry.to ?? null,
    ip: entry.ip ?? null,
  });
}
