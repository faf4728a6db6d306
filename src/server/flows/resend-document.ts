import type { MailProvider } from '../../shared/constants.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { type ResendRefusal, resendRefusal } from '../mail/resend-limits.js';
import { queueMail } from '../mail/outbox.js';
import { assertCardMayLeave } from '../orders/card-gate.js';
import { lockForResend } from '../orders/documents.js';
import { inTransaction } from '../orders/transaction.js';

/**
 * The approval mail with the current document again. Refused (409) without a document or for a Deleted
 * order; over the resend limits it answers the refusal (nothing written) for the caller to answer 429.
 */
export async function resendDocument(
  db: DbOrTx,
  actor: StaffIdentity,
  input: {
    orderId: number;
    email: string;
    provider: MailProvider;
    expectedVersion?: number | undefined;
    confirmOtherAddress?: boolean | undefined;
  },
): Promise<{ mailId: number; documentId: number } | { refused: ResendRefusal }> {
  return inTransaction(db, async (tx) => {
    const { orderId } = input;
    const doc = await lockForResend(tx, actor, input);
    const refusal = await resendRefusal(tx, orderId, actor.id);
    if (refusal) return { refused: refusal };
    await assertCardMayLeave(tx, [orderId]);
    const mailId = await queueMail(tx, {
      orderId,
      kind: 'resend',
      toEmail: input.email,
      provider: input.provider,
      documentId: doc.id,
      requestedBy: actor.id,
    });
    return { mailId, documentId: doc.id };
  });
}
