import { completionMailSuppressed } from '../../shared/order-rules.js';
import type { StaffIdentity } from '../context.js';
import type { Db } from '../db/client.js';
import { conflict } from '../http/errors.js';
import { cardGate, cardGateError } from '../orders/card-gate.js';
import { queueApprovalMail } from './attach-document.js';
import { changeStatus } from './move-status.js';
import { latestDocument, lockOrders } from '../orders/repository.js';
import { CHARGEBACK_NOT_COMPLETED_BY_UPLOAD } from './card-check.js';

export const NO_ARRIVED_CARD =
  'No card from the government is waiting to be sent on this order (it was sent already or none arrived).';

/**
 * One click sends the card the government mailed (docs/product.md, "Submitting to the government";
 * decision 387): the approval mail with the order's current card to the order's own address and the move
 * to Completed, as "Upload, mail and complete" does, in one transaction. The move's rules (role, holder,
 * version) answer first; then the order must carry card_arrived_unsent, and the card gate must be clear.
 */
export async function sendArrivedCard(
  db: Db,
  actor: StaffIdentity,
  input: { orderId: number; expectedVersion?: number | undefined },
): Promise<{ mailId: number; documentId: number }> {
  return db.transaction(async (tx) => {
    const [order] = await lockOrders(tx, [input.orderId], 'Order not found');
    if (completionMailSuppressed(order!.processStatus, 'Completed')) {
      throw conflict(CHARGEBACK_NOT_COMPLETED_BY_UPLOAD);
    }
    const waiting = (order!.checkFlags ?? []).includes('card_arrived_unsent');
    // The move first: its refusals (403 role or holder, then 409 version) come before ours.
    await changeStatus(tx, actor, {
      orderId: input.orderId,
      to: 'Completed',
      expectedVersion: input.expectedVersion,
      notify: false,
      confirmRecent: true,
    });
    if (!waiting) throw conflict(NO_ARRIVED_CARD);
    const doc = await latestDocument(tx, input.orderId);
    if (!doc) throw conflict(NO_ARRIVED_CARD);
    const refusal = cardGateError(await cardGate(tx, input.orderId));
    if (refusal) throw refusal;
    const mail = await queueApprovalMail(tx, actor, {
      orderId: input.orderId,
      documentId: doc.id,
      email: order!.email,
      provider: 'AWS',
    });
    return { mailId: mail.id, documentId: doc.id };
  });
}
