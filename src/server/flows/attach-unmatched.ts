import { eq } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import type { Db } from '../db/client.js';
import { inboundMessages } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { inTransaction } from '../orders/transaction.js';
import { customerAnswered } from '../orders/customer-answers.js';
import { lockOrders } from '../orders/repository.js';
import { isErased } from '../inbound/match.js';

/**
 * Staff attach an unmatched message to an order: the same effects as a matched answer, in one
 * transaction. A message already attached (by someone else a moment ago) answers 409.
 */
export async function attachUnmatched(
  db: Db,
  staffId: number,
  inboundId: number,
  orderId: number,
): Promise<{ orderId: number; processStatus: OrderStatus }> {
  return inTransaction(db, async (tx) => {
    const [msg] = await tx
      .select({
        id: inboundMessages.id,
        disposition: inboundMessages.disposition,
        fromEmail: inboundMessages.fromEmail,
      })
      .from(inboundMessages)
      .where(eq(inboundMessages.id, inboundId))
      .for('update');
    if (!msg) throw new HttpError(404, 'Message not found');
    if (msg.disposition !== 'unmatched')
      throw new HttpError(409, 'This message is already attached to an order.');
    const [order] = await lockOrders(tx, [orderId], 'Order not found');
    if (order!.processStatus === 'Deleted')
      throw new HttpError(409, 'The order is deleted: no message can be attached to it.');
    if (await isErased(tx, orderId))
      throw new HttpError(
        409,
        'The personal data of this order was erased: no message can be attached to it.',
      );
    await tx
      .update(inboundMessages)
      .set({ orderId, disposition: 'attached', matchedBy: 'staff', attachedBy: staffId, readAt: null })
      .where(eq(inboundMessages.id, inboundId));
    const moved = await customerAnswered(tx, orderId, `mail from ${msg.fromEmail ?? 'unknown'}`, null);
    return { orderId, processStatus: moved.to };
  });
}
