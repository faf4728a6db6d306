import { eq } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db } from '../db/client.js';
import { paymentDisputes, paymentRefunds } from '../db/schema.js';
import { badRequest, conflict, forbidden } from '../http/errors.js';
import { type SaveTransactionInput, saveTransaction } from '../orders/remarks.js';
import { lockOrders } from '../orders/repository.js';
import { paysThroughIntegration } from '../payments/payment-route.js';

/**
 * Enter Transaction Details (decision 355): the payment reference of an order paid through an
 * integrated provider is set by the intake or the provider's events only. Staff may not set or change
 * one (403: the order's or the new reference is a provider payment); an Admin may, with a reason,
 * audited, and never while the order has a refund or a dispute at a provider (409). Other orders keep
 * the plain save.
 */
export async function saveTransactionDetails(
  db: Db,
  config: Config,
  actor: StaffIdentity,
  input: SaveTransactionInput & { reason?: string | undefined },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [order] = await lockOrders(tx, [input.orderId], 'Order not found');
    const before = paysThroughIntegration(config, order!);
    const after = paysThroughIntegration(config, input);
    const same =
      (order!.transactionId ?? '').trim() === input.transactionId.trim() &&
      (order!.merchantName ?? '').trim().toLowerCase() === input.merchantName.trim().toLowerCase();
    if ((before || after) && !same) {
      if (actor.type !== 'Admin') {
        throw forbidden(
          'The payment reference of an order paid through an integrated provider is set by the intake or the provider only; an Admin can correct it with a reason.',
        );
      }
      const reason = input.reason?.trim();
      if (!reason) throw badRequest('reason: say why the payment reference of a provider payment changes');
      const [refund] = await tx
        .select({ id: paymentRefunds.id })
        .from(paymentRefunds)
        .where(eq(paymentRefunds.orderId, input.orderId))
        .limit(1);
      const [dispute] = await tx
        .select({ id: paymentDisputes.id })
        .from(paymentDisputes)
        .where(eq(paymentDisputes.orderId, input.orderId))
        .limit(1);
      if (refund || dispute) {
        throw conflict(
          `The order has ${refund ? 'a refund' : 'a dispute'} at the payment provider: its payment reference cannot change.`,
        );
      }
      await recordAudit(tx, {
        action: 'order.payment-reference',
        actorId: actor.id,
        actorEmail: actor.email,
        target: `order ${input.orderId}`,
        from: `${order!.transactionId ?? ''} / ${order!.merchantName ?? ''}`,
        to: `${input.transactionId} / ${input.merchantName} (reason: ${reason})`,
      });
    }
    await saveTransaction(tx, actor, input);
  });
}
