import { MAIL_HOLD_SECONDS, type MailProvider } from '../../shared/constants.js';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { KIND_TEMPLATE_KEYS } from '../communication/builtin-templates.js';
import { customerLanguageOf, orderSnapshotFor, resolveTemplate } from '../communication/templates.js';
import { mailLog } from '../db/schema.js';
import { recordEvents } from '../orders/events.js';
import { assertCustomerMailAllowed } from './limits.js';

export interface QueueMailInput {
  orderId: number;
  /** A kind with a built-in template (template mails go through mail/template-mail.ts). */
  kind: keyof typeof KIND_TEMPLATE_KEYS;
  toEmail: string;
  provider: MailProvider;
  documentId?: number | null;
  isReminder?: boolean;
  /** The staff member who asked for it; null for the system (reminders). */
  requestedBy: number | null;
  /** Held for the undo window (MAIL_HOLD_SECONDS) before delivery picks it up. */
  hold?: boolean;
}

/**
 * The durable outbox (mail_log): call inside the transaction of the order change, so the mail exists
 * exactly when the change does. The delivery worker picks up 'queued' rows. The row records the
 * template version of its kind, in the customer's language, that the mail is built from.
 */
export async function queueMail(tx: DbOrTx, input: QueueMailInput): Promise<number> {
  return (await queueMailHeld(tx, input)).id;
}

/** queueMail, answering when a held mail leaves (null: not held). */
export async function queueMailHeld(
  tx: DbOrTx,
  input: QueueMailInput,
): Promise<{ id: number; holdUntil: Date | null }> {
  if (input.requestedBy !== null) await assertCustomerMailAllowed(tx, input.orderId, input.requestedBy);
  const snapshot = await orderSnapshotFor(tx, input.orderId);
  const template = await resolveTemplate(
    tx,
    KIND_TEMPLATE_KEYS[input.kind],
    await customerLanguageOf(tx, input.orderId),
  );
  const written = await writeMail(
    tx,
    {
      orderId: input.orderId,
      kind: input.kind,
      toEmail: input.toEmail,
      provider: input.provider,
      documentId: input.documentId ?? null,
      isReminder: input.isReminder ?? false,
      requestedBy: input.requestedBy,
      holdUntil: input.hold ? sql`now() + make_interval(secs => ${MAIL_HOLD_SECONDS})` : null,
      templateId: template?.id ?? null,
      templateVersion: template?.version ?? null,
      // The values as they are now, never as they are at delivery (decision 294).
      templateValues: snapshot as unknown as Record<string, unknown> | null,
    },
    input.kind,
  );
  if (!written) throw new Error(`mail_log refused a ${input.kind} mail for order ${input.orderId}`);
  return written;
}

/** Where a committed customer mail is announced; the delivery queue of every instance listens (queue.ts). */
export const MAIL_CHANNEL = 'mail_queued';

/** A customer mail as its writer fills it; the outbox sets status and times. */
export type NewMail = Omit<
  typeof mailLog.$inferInsert,
  'id' | 'status' | 'attempts' | 'createdAt' | 'updatedAt' | 'holdUntil'
> & {
  provider: MailProvider;
  requestedBy: number | null;
  /** The end of the undo window, usually computed by the database. */
  holdUntil?: Date | SQL | null;
};

/**
 * The one writer of customer mail (decision 338): the outbox row (mail_log, status 'queued') and its
 * order event, in the caller's transaction, announced with NOTIFY, which PostgreSQL delivers only when
 * that transaction commits, so delivery starts at once instead of at the queue's next poll. `what` names
 * the mail in the event ("<what> via <provider> to <address>"). Null when a unique index kept the row out
 * (a document's second reminder): nothing is written then.
 */
export async function writeMail(
  tx: DbOrTx,
  mail: NewMail,
  what: string,
): Promise<{ id: number; holdUntil: Date | null } | null> {
  const [row] = await tx
    .insert(mailLog)
    .values({ ...mail, status: 'queued' })
    .onConflictDoNothing()
    .returning({ id: mailLog.id, holdUntil: mailLog.holdUntil });
  if (!row) return null;
  await recordEvents(tx, [
    {
      orderId: mail.orderId,
      actorId: mail.requestedBy,
      action: 'mail',
      toValue: `${what} via ${mail.provider} to ${mail.toEmail}`,
    },
  ]);
  await tx.execute(sql`select pg_notify(${MAIL_CHANNEL}, '')`);
  return row;
}
