import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  NOTIFIABLE_STATUSES,
  type NotifiableStatus,
  type StatusNotification,
} from '../../shared/contracts/communication.js';
import { statusName } from '../../shared/order-rules.js';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { mailTemplates, statusNotifications } from '../db/schema.js';
import { badRequest } from '../http/errors.js';

/** Every status that can notify, with its setting (off when never set). */
export async function notificationSettings(db: DbOrTx): Promise<StatusNotification[]> {
  const rows = await db.select().from(statusNotifications);
  const byStatus = new Map(rows.map((r) => [r.status, r]));
  return NOTIFIABLE_STATUSES.map((status) => {
    const r = byStatus.get(status);
    return { status, enabled: r?.enabled ?? false, templateKey: r?.templateKey ?? null };
  });
}

/** Purposes a template sent on a status change or by a macro may have (no attachment needed). */
export const SENDABLE_PURPOSES = ['customer', 'refund'];

/** Refuses (400) a key with no English template, or one of a built-in mail that needs an attachment. */
export async function assertSendableKey(db: DbOrTx, key: string, field: string): Promise<void> {
  const rows = await db
    .select({ language: mailTemplates.language, purpose: mailTemplates.purpose })
    .from(mailTemplates)
    .where(and(eq(mailTemplates.key, key), isNull(mailTemplates.deletedAt)));
  if (!rows.some((r) => r.language === 'en')) {
    throw badRequest(`${field}: there is no English template ${key}`);
  }
  if (!rows.every((r) => SENDABLE_PURPOSES.includes(r.purpose))) {
    throw badRequest(`${field}: the template ${key} belongs to a built-in mail with an attachment`);
  }
}

export async function saveNotificationSettings(
  db: DbOrTx,
  actor: StaffIdentity,
  settings: { status: NotifiableStatus; enabled: boolean; templateKey: string | null }[],
): Promise<StatusNotification[]> {
  const seen = new Set<string>();
  for (const s of settings) {
    if (seen.has(s.status)) throw badRequest(`settings: ${statusName(s.status)} is listed twice`);
    seen.add(s.status);
    if (s.enabled && !s.templateKey) {
      throw badRequest(`settings: ${statusName(s.status)} mails the customer but names no template`);
    }
  }
  return db.transaction(async (tx) => {
    for (const s of settings) {
      if (s.templateKey) await assertSendableKey(tx, s.templateKey, `settings (${statusName(s.status)})`);
    }
    const before = await notificationSettings(tx);
    const changed = settings.filter((s) => {
      const b = before.find((x) => x.status === s.status);
      return !b || b.enabled !== s.enabled || b.templateKey !== s.templateKey;
    });
    for (const s of changed) {
      await tx
        .insert(statusNotifications)
        .values({ status: s.status, enabled: s.enabled, templateKey: s.templateKey, updatedBy: actor.id })
        .onConflictDoUpdate({
          target: statusNotifications.status,
          set: { enabled: s.enabled, templateKey: s.templateKey, updatedBy: actor.id, updatedAt: sql`now()` },
        });
    }
    if (changed.length) {
      const statuses = changed.map((s) => s.status);
      await recordAudit(tx, {
        action: 'notifications.update',
        actorId: actor.id,
        target: statuses.map(statusName).join(', '),
        from: before.filter((b) => statuses.includes(b.status)),
        to: changed,
      });
    }
    return notificationSettings(tx);
  });
}
