import { eq } from 'drizzle-orm';
import type { CustomerLanguage } from '../../shared/languages.js';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { recordEvents } from './events.js';
import { refusalOf } from './refusal.js';
import { lockOrders } from './repository.js';
import { applySubmissionWindow } from './submission-window.js';
import { inTransaction } from './transaction.js';

/** A new order from the application site, and the customer's language kept on it. */

/**
 * A paid order from the application site, in New with its 'created' event. Idempotent on the client
 * reference: the same order sent again answers the id of the first.
 */
export async function createOrder(db: DbOrTx, values: typeof orders.$inferInsert): Promise<number> {
  return inTransaction(db, async (tx) => {
    const [created] = await tx
      .insert(orders)
      .values({ ...values, processStatus: 'New' })
      .onConflictDoNothing({ target: orders.clientReference })
      .returning({ orderId: orders.orderId });
    if (created) {
      await recordEvents(tx, [{ orderId: created.orderId, action: 'created', toValue: 'New' }]);
      await applySubmissionWindow(tx, [created.orderId]);
      return created.orderId;
    }
    const [existing] = await tx
      .select({ orderId: orders.orderId })
      .from(orders)
      .where(eq(orders.clientReference, values.clientReference ?? ''));
    return existing!.orderId;
  });
}

/**
 * Keeps the customer's language on the order (docs/decisions/210): a choice (`?lang=` or the picker)
 * replaces the stored language; a browser's language only fills an empty one. A change is one
 * transaction with its order event; no change writes nothing. Unknown and deleted orders are left alone.
 */
export async function rememberOrderLanguage(
  db: DbOrTx,
  orderId: number,
  language: CustomerLanguage,
  chosen: boolean,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [row] = await lockOrders(tx, [orderId]).catch((err: unknown) => {
      if (refusalOf(err, 'not_found')) return [];
      throw err;
    });
    if (!row || row.processStatus === 'Deleted' || row.language === language) return false;
    if (row.language !== null && !chosen) return false;
    await tx.update(orders).set({ language }).where(eq(orders.orderId, orderId));
    await recordEvents(tx, [{ orderId, action: 'language', fromValue: row.language, toValue: language }]);
    return true;
  });
}
