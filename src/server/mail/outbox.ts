import type { MailProvider } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { KIND_TEMPLATE_KEYS } from '../communication/builtin-templates.js';
import { customerLanguageOf, orderSnapshotFor, resolveTemplate } from '../communication/templates.js';
import { mailLog } from '../db/schema.js';
import { recordEvents } from '../orders/events.js';
import { assertCustomerMailAllowed } from './limits.js';

export interface QueueMailInput {
  orderId: number;
  /** A kind with a built-in template (template mails go through communication/notifications.ts). */
  kind: keyof typeof KIND_TEMPLATE_KEYS;
  toEmail: string;
  provider: MailProvider;
  documentId?: number | null;
  isReminder?: boolean;
  /** The staff member who asked for it; null for the system (reminders). */
  requestedBy: number | null;
}

/**
 * The durable outbox (mail_log): call inside the transaction of the order change, so the mail exists
 * exactly when the change does. The delivery worker picks up 'queued' rows. The row records the
 * template version of its kind, in the customer's language, that the mail is built from.
 */
export async function queueMail(tx: DbOrTx, input: QueueMailInput): Promise<number> {
  if (input.requestedBy !== null) await assertCustomerMailAllowed(tx, input.orderId, input.requestedBy);
  const snapshot = await orderSnapshotFor(tx, input.orderId);
  const template = await resolveTemplate(
    tx,
    KIND_TEMPLATE_KEYS[input.kind],
    await customerLanguageOf(tx, input.orderId),
  );
  const [row] = await tx
    .insert(mailLog)
    .values({
      orderId: input.orderId,
      kind: input.kind,
      toEmail: input.toEmail,
      provider: input.provider,
      documentId: input.documentId ?? null,
      isReminder: input.isReminder ?? false,
      status: 'queued',
      requestedBy: input.requestedBy,
      templateId: template?.id ?? null,
      templateVersion: template?.version ?? null,
      // The values as they are now, never as they are at delivery (decision 294).
      templateValues: snapshot as unknown as Record<string, unknown> | null,
    })
    .returning({ id: mailLog.id });
  await recordEvents(tx, [
    {
      orderId: input.orderId,
      actorId: input.requestedBy,
      action: 'mail',
      toValue: `${input.kind} via ${input.provider} to ${input.toEmail}`,
    },
  ]);
  return row!.id;
}
