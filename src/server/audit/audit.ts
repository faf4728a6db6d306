import { and, count, eq, gt, min, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { auditLog } from '../db/schema.js';

/** What the audit log records for a staff-access write (who, what, when, from what, to what). */
export type AuditAction =
  | 'login.success'
  | 'login.failure'
  | 'login.throttled'
  | 'password.change'
  | 'team.add'
  | 'team.update'
  | 'team.delete'
  | 'gateway.activate';

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

/**
 * Failed sign-ins of one e-mail inside the window, counted only after the last success (a good login
 * clears the slate). Both filters ride the created_at index, so the scan is the window only.
 */
export async function recentLoginFailures(
  db: DbOrTx,
  email: string,
  windowMinutes: number,
): Promise<{ failures: number; oldest: Date | null }> {
  const since = sql`now() - make_interval(mins => ${windowMinutes})`;
  const lastSuccess = sql`(select max(${auditLog.createdAt}) from ${auditLog}
    where ${auditLog.action} = 'login.success' and ${auditLog.actorEmail} = ${email} and ${auditLog.createdAt} > ${since})`;
  const [row] = await db
    .select({ failures: count(), oldest: min(auditLog.createdAt) })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'login.failure'),
        eq(auditLog.actorEmail, email),
        gt(auditLog.createdAt, since),
        sql`${auditLog.createdAt} > coalesce(${lastSuccess}, '-infinity'::timestamptz)`,
      ),
    );
  return { failures: Number(row?.failures ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}
