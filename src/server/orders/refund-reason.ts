import { inArray, sql } from 'drizzle-orm';
import type { RefundWhy } from '../../shared/refund-reasons.js';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { recordEvents } from './events.js';
import { versionBump } from './version.js';

/**
 * Records why the orders are (being) refunded (docs/product.md, "Refund reasons"), with an event on
 * each whose reason changes, in the caller's transaction. A move to Completed Refunds without a reason
 * keeps the one recorded before (the duplicate decision's) or records 'unspecified'.
 */
export async function setRefundReason(
  tx: DbOrTx,
  actorId: number | null,
  orderIds: readonly number[],
  why: RefundWhy,
): Promise<void> {
  if (!orderIds.length) return;
  const text = why.code === 'other' ? (why.text ?? null) : null;
  const changed = await tx
    .update(orders)
    .set({ refundReason: why.code, refundReasonText: text, ...versionBump })
    .where(
      sql`${inArray(orders.orderId, [...orderIds])} and (${orders.refundReason} is distinct from ${why.code} or ${orders.refundReasonText} is distinct from ${text})`,
    )
    .returning({ orderId: orders.orderId });
  await recordEvents(
    tx,
    changed.map((o) => ({
      orderId: o.orderId,
      actorId,
      action: 'refund_reason' as const,
      toValue: text ? `${why.code}: ${text}` : why.code,
    })),
  );
}
