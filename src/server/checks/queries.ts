import { eq } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { type CheckSettings, checksAnswer } from '../orders/order-checks.js';

/** The settings the order checks run with, from the configuration. */
export const checkSettingsOf = (config: Config): CheckSettings => ({
  minPassportValidityDays: config.PASSPORT_MIN_VALIDITY_DAYS,
});

/** The checks and possible duplicates of one order at `now`; 404 when it does not exist. */
export async function orderChecks(db: DbOrTx, orderId: number, settings: CheckSettings, now: Date) {
  const [order] = await db.select().from(orders).where(eq(orders.orderId, orderId));
  if (!order) throw notFound('Order not found');
  return checksAnswer(db, order, settings, now);
}
