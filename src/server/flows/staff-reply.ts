import { and, eq } from 'drizzle-orm';
import type { MailProvider, OrderStatus } from '../../shared/constants.js';
import { queueTemplateMail } from '../mail/template-mail.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { inboundMessages } from '../db/schema.js';
import { assertCustomerMailAllowed } from '../mail/limits.js';
import { writeMail } from '../mail/outbox.js';
import { lockForMail } from '../orders/documents.js';
import { refuseConflict, refuseNotFound } from '../orders/refusal.js';
import { inTransaction } from '../orders/transaction.js';
import { changeStatus } from './move-status.js';

/**
 * A staff reply: a template mail to the order's address (threaded by the mail composer) and, with
 * `moveTo`, the move in the same transaction (no status notification besides). Null: no such template.
 */
export async function sendStaffReply(
  db: DbOrTx,
  actor: StaffIdentity,
  input: {
    orderId: number;
    /** A template's key, or `body`: the reply as free text (decision 328). */
    templateKey?: string | undefined;
    body?: string | undefined;
    provider: MailProvider;
    moveTo?: OrderStatus | undefined;
    expectedVersion?: number | undefined;
    /** Admin or Manager: take over an order someone else holds (the holder rule). */
    takeOver?: boolean | undefined;
    /** The message answered, and who gets the reply (decision 359). */
    inReplyTo?: number | undefined;
    recipient?: 'customer' | 'sender' | undefined;
    confirmCustomer?: boolean | undefined;
  },
): Promise<{ mailId: number; processStatus: OrderStatus; to: string } | null> {
  return inTransaction(db, async (tx) => {
    // A reply that moves the order is held to the move's own rules besides.
    const order = await lockForMail(tx, actor, input);
    const toEmail = await replyRecipient(tx, order.email, input);
    if (input.body !== undefined) {
      const mailId = await queueTextReply(tx, actor, toEmail, { ...input, body: input.body });
      const moved = input.moveTo
        ? await changeStatus(tx, actor, { orderId: input.orderId, to: input.moveTo, notify: false })
        : null;
      return { mailId, processStatus: moved?.to ?? (order.processStatus as OrderStatus), to: toEmail };
    }
    const mail = await queueTemplateMail(tx, {
      orderId: input.orderId,
      templateKey: input.templateKey ?? '',
      kind: 'macro',
      toEmail,
      provider: input.provider,
      requestedBy: actor.id,
      // A reply is written on purpose: it goes at once, not held for an Undo.
      hold: false,
    });
    if (mail === null) return null;
    if (!mail.queued) {
      throw refuseConflict(
        `The customer got "${mail.templateName}" ${mail.minutes} min ago: not sent again.`,
      );
    }
    const mailId = mail.mail.mailId;
    const moved = input.moveTo
      ? await changeStatus(tx, actor, { orderId: input.orderId, to: input.moveTo, notify: false })
      : null;
    return { mailId, processStatus: moved?.to ?? (order.processStatus as OrderStatus), to: toEmail };
  });
}

/**
 * Who gets a staff reply (decision 359): the order's customer, or the sender of the answered message.
 * Answering a message that came from another address and still mailing the order's customer needs
 * `confirmCustomer` (409 otherwise, nothing written); the answered message must be this order's (404).
 */
async function replyRecipient(
  tx: DbOrTx,
  customer: string,
  input: {
    orderId: number;
    inReplyTo?: number | undefined;
    recipient?: 'customer' | 'sender' | undefined;
    confirmCustomer?: boolean | undefined;
  },
): Promise<string> {
  if (input.inReplyTo === undefined) return customer;
  const [message] = await tx
    .select({ from: inboundMessages.fromEmail })
    .from(inboundMessages)
    .where(and(eq(inboundMessages.id, input.inReplyTo), eq(inboundMessages.orderId, input.orderId)))
    .limit(1);
  if (!message) throw refuseNotFound('The message you answer is not part of this order.');
  const sender = message.from?.trim() || null;
  const other = sender !== null && sender.toLowerCase() !== customer.trim().toLowerCase();
  if (input.recipient === 'sender') return sender ?? customer;
  if (other && !input.confirmCustomer) {
    throw refuseConflict(
      `The message you answer came from ${sender}, not from the order's customer (${customer}): reply to the sender, or confirm to mail ${customer}.`,
    );
  }
  return customer;
}

/**
 * Queues a staff reply written as free text (decision 328): a mail_log row carrying the text, sent at
 * once, under the customer-mail limits, with its order event, in the caller's transaction.
 */
async function queueTextReply(
  tx: DbOrTx,
  actor: StaffIdentity,
  toEmail: string,
  input: { orderId: number; body: string; provider: MailProvider },
): Promise<number> {
  await assertCustomerMailAllowed(tx, input.orderId, actor.id);
  const row = await writeMail(
    tx,
    {
      orderId: input.orderId,
      kind: 'macro',
      toEmail,
      provider: input.provider,
      requestedBy: actor.id,
      bodyText: input.body,
    },
    'macro staff reply (text)',
  );
  return row!.id;
}
