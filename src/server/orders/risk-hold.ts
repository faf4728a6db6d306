import { and, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { refuseConflict } from './refusal.js';

export const RISK_HOLD_MESSAGE =
  "This order's payment is on a risk hold: a Manager reviews it (and clears the hold with a reason) before it is submitted.";

/**
 * Refuses (409) while any of the orders carries the risk hold
 * (docs/product.md, "Fraud warnings and risk"): a move to Awaiting Govt, the submission routes and the job API call it in their transaction,
 * after the rules (a forbidden move answers 403 first).
 */
export async function assertNoRiskHold(tx: DbOrTx, orderIds: number | readonly number[]): Promise<void> {
  const ids = typeof orderIds === 'number' ? [orderIds] : [...orderIds];
  if (!ids.length) return;
  const held = await tx
    .select({ orderId: orders.orderId })
    .from(orders)
    .where(and(inArray(orders.orderId, ids), sql`'risk_hold' = any(${orders.checkFlags})`));
  if (!held.length) return;
  throw refuseConflict(
    ids.length === 1
      ? RISK_HOLD_MESSAGE
      : `${RISK_HOLD_MESSAGE} On hold: ${held.map((h) => h.orderId).join(', ')}.`,
    { orders: held.map((h) => ({ orderId: h.orderId, message: RISK_HOLD_MESSAGE })) },
  );
}
