import { and, desc, eq, inArray, like, sql } from 'drizzle-orm';
import { refundedSoFar } from '../payments/refunded-so-far.js';
import { toMinor, formatMinor } from '../../shared/money.js';
import { recordAudit } from '../audit/audit.js';
import { now } from '../clock.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { orders, paymentFraudWarnings, paymentRefunds } from '../db/schema.js';
import { conflict, notFound } from '../http/errors.js';
import { moveAsSystem } from './move-status.js';
import { addSystemRemark } from '../orders/remarks.js';
import { recordEvents } from '../orders/events.js';
import { type CheckSettings, setOrderFlag } from '../orders/order-checks.js';
import { setRefundReason } from '../orders/refund-reason.js';
import { paymentRouteOf } from '../payments/payment-route.js';
import { PROVIDER, warningToReview } from '../payments/stripe-risk.js';

/**
 * Refunding on an early fraud warning (docs/product.md, "Fraud warnings and risk", decision 372): the
 * whole payment goes back through the provider (reason fraudulent, one idempotency key per warning, so a
 * retry or a replay never refunds twice), then the order moves to Completed Refunds as the system user
 * (or the Manager who chose "Refund now") with the refund mail. A refusal leaves the order for review.
 */

export interface WarningRefund {
  orderId: number;
  refunded: boolean;
  refundId: string | null;
  message: string;
}

const KEY_PREFIX = 'edcard-efw-';

type Warning = typeof paymentFraudWarnings.$inferSelect;

async function warningOf(db: DbOrTx, warningRowId: number): Promise<Warning> {
  const [w] = await db.select().from(paymentFraudWarnings).where(eq(paymentFraudWarnings.id, warningRowId));
  if (!w) throw notFound('Fraud warning not found');
  return w;
}

/** The open (not yet refunded or kept) warning of an order, newest first; 404 when there is none. */
async function openWarningOf(db: DbOrTx, orderId: number) {
  const [w] = await db
    .select()
    .from(paymentFraudWarnings)
    .where(
      and(
        eq(paymentFraudWarnings.orderId, orderId),
        inArray(paymentFraudWarnings.action, ['review', 'refund_failed', 'refunding']),
      ),
    )
    .orderBy(desc(paymentFraudWarnings.id))
    .limit(1);
  if (!w) throw notFound('This order has no fraud warning waiting for a decision.');
  return w;
}

/**
 * Refunds the order of a warning in full at its provider. `actor` null is the system user (the webhook);
 * a Manager's "Refund now" passes themself. Never throws for a provider's refusal: it is reported.
 */
export async function refundOnFraudWarning(
  db: Db,
  config: Config,
  settings: CheckSettings,
  warningRowId: number,
  actor: StaffIdentity | null = null,
): Promise<WarningRefund> {
  const warning = await warningOf(db, warningRowId);
  const orderId = warning.orderId;
  const [order] = await db.select().from(orders).where(eq(orders.orderId, orderId));
  if (!order) throw notFound('Order not found');
  const route = paymentRouteOf(config, order);
  const actorId = actor?.id ?? null;
  if (route.kind !== 'integrated') {
    await db.transaction((tx) =>
      warningToReview(tx, warning.id, orderId, `Early fraud warning: ${route.reason}`, settings),
    );
    return { orderId, refunded: false, refundId: null, message: route.reason };
  }
  const gateway = route.gateway;
  // Into Refunds with the reason, and the refund attempt recorded, before the provider is called.
  const attempt = await db.transaction((tx) => startWarningRefund(tx, warning, actorId));
  const answer = await gateway.refund({
    orderId,
    paymentRef: order.transactionId ?? '',
    amount: attempt.amount,
    reason: 'fraudulent',
    reasonCode: 'fraud_warning',
    idempotencyKey: attempt.key,
  });
  const amountText = formatMinor(attempt.amount, attempt.currency);
  if (!answer.ok) {
    const unknown = answer.kind === 'unreachable';
    await db.transaction(async (tx) => {
      await tx
        .update(paymentRefunds)
        .set({ status: unknown ? 'unknown' : 'failed', error: answer.message, updatedAt: sql`now()` })
        .where(eq(paymentRefunds.id, attempt.id));
      await warningToReview(
        tx,
        warning.id,
        orderId,
        `Early fraud warning: the refund of ${amountText} at ${gateway.name} did not go through (${answer.message}). The order stays in Refunds.`,
        settings,
      );
      await tx
        .update(paymentFraudWarnings)
        .set({ action: 'refund_failed', note: answer.message })
        .where(eq(paymentFraudWarnings.id, warning.id));
    });
    return { orderId, refunded: false, refundId: null, message: answer.message };
  }
  const { refundId } = answer.value;
  const refund = { attemptId: attempt.id, refundId, amountText, gatewayName: gateway.name };
  await db.transaction((tx) => recordWarningRefund(tx, settings, warning, actor, refund));
  return { orderId, refunded: true, refundId, message: `Refunded ${amountText} at ${gateway.name}.` };
}

/**
 * Before the provider is called: the order goes into Refunds with the reason, and the refund attempt is
 * recorded (or the attempt whose outcome is unknown is taken up again with its key).
 */
async function startWarningRefund(
  tx: DbOrTx,
  warning: Warning,
  actorId: number | null,
): Promise<{ id: number; key: string; amount: number; currency: string }> {
  const orderId = warning.orderId;
  const key = `${KEY_PREFIX}${warning.warningId}`;
  const [current] = await tx.select().from(orders).where(eq(orders.orderId, orderId)).for('update');
  if (current!.processStatus === 'Refunded') throw conflict('The order is already in Completed Refunds.');
  if (current!.processStatus !== 'Refunds') {
    const moved = await moveAsSystem(tx, orderId, 'Refunds', { notify: false });
    if (!moved.moved) throw conflict(moved.refusal ?? 'The order cannot be refunded now.');
  }
  await setRefundReason(tx, actorId, [orderId], { code: 'fraud_warning' });
  const currency = current!.currency.toUpperCase();
  // The warning's attempts: an unknown outcome is asked again with its key; a refusal gets a new one.
  const tries = await tx
    .select()
    .from(paymentRefunds)
    .where(and(eq(paymentRefunds.provider, PROVIDER), like(paymentRefunds.idempotencyKey, `${key}%`)))
    .orderBy(desc(paymentRefunds.id));
  const latest = tries[0];
  if (latest?.status === 'succeeded') throw conflict('This payment was already refunded on its warning.');
  if (latest && (latest.status === 'unknown' || latest.status === 'pending')) {
    await tx
      .update(paymentRefunds)
      .set({ status: 'pending', updatedAt: sql`now()` })
      .where(eq(paymentRefunds.id, latest.id));
    return { id: latest.id, key: latest.idempotencyKey, amount: latest.amount, currency };
  }
  const attemptKey = tries.length ? `${key}-${tries.length + 1}` : key;
  const done = await refundedSoFar(tx, orderId, ['succeeded']);
  const amount = (toMinor(current!.amount, currency) ?? 0) - done;
  if (amount <= 0) throw conflict('Nothing is left to refund of this payment.');
  const [last] = await tx
    .select({ attempt: sql<number>`coalesce(max(${paymentRefunds.attempt}), 0)::int` })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.orderId, orderId));
  const [row] = await tx
    .insert(paymentRefunds)
    .values({
      orderId,
      provider: PROVIDER,
      source: 'product',
      attempt: (last?.attempt ?? 0) + 1,
      idempotencyKey: attemptKey,
      amount,
      currency,
      reason: 'fraudulent',
      reasonCode: 'fraud_warning',
      status: 'pending',
      requestedBy: actorId,
    })
    .returning({ id: paymentRefunds.id });
  await tx
    .update(paymentFraudWarnings)
    .set({ action: 'refunding' })
    .where(eq(paymentFraudWarnings.id, warning.id));
  return { id: row!.id, key: attemptKey, amount, currency };
}

/**
 * After the provider refunded: the attempt succeeded, the warning is handled, and the order moves to
 * Completed Refunds with a remark (and an audit row when a Manager chose it).
 */
async function recordWarningRefund(
  tx: DbOrTx,
  settings: CheckSettings,
  warning: Warning,
  actor: StaffIdentity | null,
  refund: { attemptId: number; refundId: string; amountText: string; gatewayName: string },
): Promise<void> {
  const { attemptId, refundId, amountText, gatewayName } = refund;
  const orderId = warning.orderId;
  const actorId = actor?.id ?? null;
  await tx
    .update(paymentRefunds)
    .set({ status: 'succeeded', refundId, error: null, updatedAt: sql`now()` })
    .where(eq(paymentRefunds.id, attemptId));
  await recordEvents(tx, [
    { orderId, actorId, action: 'payment', toValue: `refund ${refundId} ${amountText}` },
  ]);
  await tx
    .update(paymentFraudWarnings)
    .set({ action: 'refunded', handledBy: actorId, handledAt: sql`now()` })
    .where(eq(paymentFraudWarnings.id, warning.id));
  const moved = await moveAsSystem(tx, orderId, 'Refunded');
  await setOrderFlag(tx, orderId, 'fraud_warning', false, settings, now());
  await addSystemRemark(
    tx,
    orderId,
    `Refunded ${amountText} at ${gatewayName} (${refundId}) on an early fraud warning${actor ? ` by ${actor.name}` : ''}, before a dispute.${moved.moved ? '' : ` The order was not moved: ${moved.refusal}`}`,
  );
  if (actor) {
    await recordAudit(tx, {
      action: 'order.fraud-warning-refund',
      actorId: actor.id,
      target: `order ${orderId}`,
      to: { refundId, amount: amountText, warning: warning.warningId },
    });
  }
}

/** "Refund now" on the detail of an order in risk review (a Manager). */
export async function refundNowOnWarning(
  db: Db,
  config: Config,
  settings: CheckSettings,
  actor: StaffIdentity,
  orderId: number,
): Promise<WarningRefund> {
  const warning = await openWarningOf(db, orderId);
  return refundOnFraudWarning(db, config, settings, warning.id, actor);
}

/** "Keep (reason)": the payment stays; the check goes, the reason is audited and remarked. */
export async function keepOnWarning(
  db: Db,
  settings: CheckSettings,
  actor: StaffIdentity,
  orderId: number,
  reason: string,
  ip: string | null,
): Promise<{ orderId: number; processStatus: string }> {
  return db.transaction(async (tx) => {
    const warning = await openWarningOf(tx, orderId);
    await tx
      .update(paymentFraudWarnings)
      .set({ action: 'kept', note: reason, handledBy: actor.id, handledAt: sql`now()` })
      .where(eq(paymentFraudWarnings.id, warning.id));
    await setOrderFlag(tx, orderId, 'fraud_warning', false, settings, now());
    await recordEvents(tx, [
      { orderId, actorId: actor.id, action: 'risk', toValue: `fraud warning kept: ${reason}` },
    ]);
    await addSystemRemark(tx, orderId, `Fraud warning reviewed by ${actor.name}: payment kept (${reason}).`);
    await recordAudit(tx, {
      action: 'order.fraud-warning-keep',
      actorId: actor.id,
      target: `order ${orderId}`,
      to: { warning: warning.warningId, reason },
      ip,
    });
    const [order] = await tx
      .select({ status: orders.processStatus })
      .from(orders)
      .where(eq(orders.orderId, orderId));
    return { orderId, processStatus: order?.status ?? '' };
  });
}
