import { eq } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import type { RefundWhy } from '../../shared/refund-reasons.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db } from '../db/client.js';
import { orders } from '../db/schema.js';
import { setRefundReason } from '../orders/refund-reason.js';
import type { ChangeStatusInput } from '../orders/status.js';
import { paymentRouteOf } from '../payments/payment-route.js';
import type { RefundResult } from '../payments/refund-result.js';
import { changeStatus } from './move-status.js';
import { refundOrders, refundWhyOf } from './refund-orders.js';

/** A move of the detail screen: the move's options and, to Completed Refunds, its reason. */
export type DetailMoveInput = Omit<ChangeStatusInput, 'notify' | 'governmentReference'> & {
  reasonCode?: RefundWhy['code'] | undefined;
  reasonText?: string | undefined;
};

/** How the move went: through the payment provider's refund, or as a plain status move. */
export type DetailMove =
  | { through: 'provider'; from: OrderStatus; refund: RefundResult }
  | { through: 'status'; moved: Awaited<ReturnType<typeof changeStatus>> };

/**
 * The detail screen's status move, one flow: the order rules first, then for Move to Completed Refunds
 * of an order paid through an integrated gateway the refund at the provider ('Refunded it': the
 * provider, then the status and the refund mail; docs/decisions/302), for any other move the status
 * with its customer mail (flows/status-mail.ts) and, to Completed Refunds, the refund reason — recorded
 * after the move, since its event would otherwise outdate expectedVersion.
 */
export async function moveOrderStatus(
  ctx: { db: Db; config: Config },
  staff: StaffIdentity,
  input: DetailMoveInput,
): Promise<DetailMove> {
  const { db, config } = ctx;
  const { reasonCode, reasonText, ...move } = input;
  const why = move.to === 'Refunded' ? refundWhyOf({ reasonCode, reasonText }) : undefined;
  if (move.to === 'Refunded') {
    const [order] = await db
      .select({
        merchantName: orders.merchantName,
        transactionId: orders.transactionId,
        status: orders.processStatus,
      })
      .from(orders)
      .where(eq(orders.orderId, move.orderId));
    if (order && paymentRouteOf(config, order).kind === 'integrated') {
      const refund = await refundOrders(db, config, staff, {
        orderIds: [move.orderId],
        close: true,
        today: serviceToday(),
        why,
      });
      return { through: 'provider', from: order.status, refund };
    }
  }
  const moved = await db.transaction(async (tx) => {
    const done = await changeStatus(tx, staff, move);
    if (why) await setRefundReason(tx, staff.id, [move.orderId], why);
    return done;
  });
  return { through: 'status', moved };
}
