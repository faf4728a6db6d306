import type { MailProvider } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { queueMail } from '../mail/outbox.js';
import { inTransaction, lockOne } from '../orders/transaction.js';
import { moveAsSystem } from './move-status.js';

/**
 * "Upload, mail and complete" by the system user "Government mail": the approval mail with the card to
 * the order's address and the move to Completed (the shared rules decide; no Completed notification
 * besides the approval mail). Answers whether it completed the order.
 */
export async function sendGovernmentCard(
  db: DbOrTx,
  orderId: number,
  documentId: number,
  provider: MailProvider,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, orderId);
    const moved = await moveAsSystem(tx, orderId, 'Completed', { notify: false });
    if (!moved.moved) return false;
    await queueMail(tx, {
      orderId,
      kind: 'approval',
      toEmail: order.email,
      provider,
      documentId,
      requestedBy: null,
    });
    return true;
  });
}
