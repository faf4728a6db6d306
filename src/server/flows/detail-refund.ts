import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { serviceToday } from '../../shared/dates.js';
import type { RefundWhy } from '../../shared/refund-reasons.js';
import type { StaffIdentity } from '../context.js';
import { orders } from '../db/schema.js';
import { paymentRouteOf } from '../payments/payment-route.js';
import { refundAnswer } from '../payments/refund-answer.js';
import { refundOrders } from './refund-orders.js';

/**
 * The detail screen's Move to Completed Refunds for an order paid through an integrated gateway: the
 * refund goes through the provider first ('Refunded it'). Null for any other order (the plain move).
 */
export async function providerRefund(
  app: FastifyInstance,
  staff: StaffIdentity,
  orderId: number,
  why?: RefundWhy,
) {
  const { db, config } = app.ctx;
  const [order] = await db
    .select({
      merchantName: orders.merchantName,
      transactionId: orders.transactionId,
      status: orders.processStatus,
    })
    .from(orders)
    .where(eq(orders.orderId, orderId));
  if (!order || paymentRouteOf(config, order).kind !== 'integrated') return null;
  const answer = refundAnswer(
    await refundOrders(db, config, staff, { orderIds: [orderId], close: true, today: serviceToday(), why }),
  );
  return {
    ...answer,
    data: { order_id: orderId, from: order.status, process_status: 'Refunded' as const },
  };
}
