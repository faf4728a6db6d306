import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { paymentRefunds } from '../db/schema.js';

export type RefundStatus = (typeof paymentRefunds.$inferSelect)['status'];

/**
 * The one "refunded so far" of an order's payment: the sum (minor units; 0 when none is recorded) of its
 * refunds with the given statuses, at one provider when `provider` is given, else at any.
 */
export async function refundedSoFar(
  db: DbOrTx,
  orderId: number,
  statuses: readonly RefundStatus[],
  provider?: string,
): Promise<number> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${paymentRefunds.amount}), 0)::text` })
    .from(paymentRefunds)
    .where(
      and(
        eq(paymentRefunds.orderId, orderId),
        provider === undefined ? undefined : eq(paymentRefunds.provider, provider),
        inArray(paymentRefunds.status, [...statuses]),
      ),
    );
  return Number(row?.sum ?? 0);
}
