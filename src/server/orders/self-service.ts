import { and, eq, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { recordEvents } from './events.js';
import { lockOrders, type OrderRow } from './repository.js';
import { assertVersion } from './rules.js';
import { versionBump } from './version.js';

/**
 * The order side of the customers' self-service (docs/product.md, "Customers help themselves"): the
 * "Customer edited" flag, the order locked with the version the customer saw, and a cancellation whose
 * provider refund failed put back where it was. Each in the caller's transaction.
 */

/**
 * The "Customer edited" flag: set by the customer's correction (in its own write, correctOrder's
 * `customerEdited`), cleared when staff open the order.
 */
export async function clearCustomerEdited(db: DbOrTx, orderId: number): Promise<void> {
  await db
    .update(orders)
    .set({ customerEditedAt: null })
    .where(and(eq(orders.orderId, orderId), sql`${orders.customerEditedAt} is not null`));
}

/** The order locked; `check` runs first (403/409 before a stale version), then the version. */
export async function lockForCustomer(
  tx: DbOrTx,
  orderId: number,
  expectedVersion: number,
  check: (order: OrderRow) => Promise<void>,
): Promise<OrderRow> {
  const [order] = await lockOrders(tx, [orderId], 'Order not found');
  await check(order!);
  await assertVersion(tx, order!, expectedVersion);
  return order!;
}

/**
 * A customer's cancellation whose provider refund failed: the order back from Refunds to the status it
 * had, with its event (by the customer). Nothing when it has moved on meanwhile.
 */
export async function undoCustomerCancel(tx: DbOrTx, orderId: number, to: OrderStatus): Promise<void> {
  const [now] = await lockOrders(tx, [orderId]);
  if (now!.processStatus !== 'Refunds') return;
  await tx
    .update(orders)
    .set({ processStatus: to, updatedAt: sql`now()`, ...versionBump })
    .where(and(eq(orders.orderId, orderId), eq(orders.processStatus, 'Refunds')));
  await recordEvents(tx, [
    { orderId, actorKind: 'customer', action: 'status', fromValue: 'Refunds', toValue: to },
  ]);
}
