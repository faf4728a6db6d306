import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { cancelHeldMails } from '../mail/limits.js';
import { recordEvents } from '../orders/events.js';
import { refuseConflict } from '../orders/refusal.js';
import { inTransaction, lockOne } from '../orders/transaction.js';

/**
 * Cancels the customer mails of an order that the actor caused and that still wait for delivery (a
 * macro's mail in its hold window). 409 when there is none (it has gone already, or was never held).
 */
export async function cancelPendingMail(db: DbOrTx, actor: StaffIdentity, orderId: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    await lockOne(tx, orderId);
    const cancelled = await cancelHeldMails(tx, orderId, actor.id);
    if (!cancelled.length)
      throw refuseConflict('There is no pending mail of yours for this order: it may have gone already.');
    await recordEvents(
      tx,
      cancelled.map((m) => ({
        orderId,
        actorId: actor.id,
        action: 'mail' as const,
        toValue: `${m.kind} mail ${m.id} cancelled`,
      })),
    );
    return cancelled.length;
  });
}
