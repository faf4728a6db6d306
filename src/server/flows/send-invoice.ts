import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { queueMail } from '../mail/outbox.js';
import { inTransaction, lockOne } from '../orders/transaction.js';

/**
 * Send Invoice: the invoice mail to the order's own e-mail address, queued with its event. Unknown
 * orders answer 404 with `notFoundMessage`.
 */
export async function sendInvoice(
  db: DbOrTx,
  actor: StaffIdentity,
  input: { orderId: number; notFoundMessage: string },
): Promise<{ mailId: number; email: string }> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, input.orderId, input.notFoundMessage);
    const mailId = await queueMail(tx, {
      orderId: order.orderId,
      kind: 'invoice',
      toEmail: order.email,
      provider: 'AWS',
      requestedBy: actor.id,
    });
    return { mailId, email: order.email };
  });
}
