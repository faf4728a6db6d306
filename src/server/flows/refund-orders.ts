import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { formatMinor, toMinor } from '../../shared/money.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { orderRemarks, orders, paymentRefunds } from '../db/schema.js';
import { badRequest, conflict, httpErrorOf } from '../http/errors.js';
import { refundReasonProblem } from '../../shared/contracts/payments.js';
import type { RefundWhy } from '../../shared/refund-reasons.js';
import { completeRefunds } from './move-status.js';
import { lockRefundable } from '../orders/delete-restore.js';
import { addSystemRemark } from '../orders/remarks.js';
import { recordEvents } from '../orders/events.js';
import { setRefundReason } from '../orders/refund-reason.js';
import type { LockedOrder } from '../orders/repository.js';
import type { GatewayResult, PaymentGateway } from '../payments/gateway.js';
import { paymentRouteOf } from '../payments/payment-route.js';
import type { ProviderRefund, RefundFailure, RefundResult } from '../payments/refund-result.js';
import { type RefundStatus, refundedSoFar } from '../payments/refunded-so-far.js';

/**
 * 'Refunded it' with the payment provider first (docs/decisions/302, 354): for an order paid through an
 * integrated gateway the refund is created there, and only when it succeeds is the refund recorded,
 * and — when nothing is left to refund, or the person chose "refund and close" — the order moved to
 * Completed Refunds and the customer mailed. A provider error leaves that order in Refunds with the
 * reason; other orders of the request go on. Orders without an integration move as before.
 *
 * A refund is never made twice: an attempt whose outcome is unknown (timeout, the provider's 409 "in
 * progress", a 5xx) stays pending under its idempotency key until the provider answers — a later click
 * reads it back and asks again with the same key; one order has one attempt in flight at a time (a lease
 * on the attempt's row taken under the order's row lock); succeeded and pending refunds together never
 * exceed what was paid.
 */

export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent';

/** Everything a refund request says: the one entry point's options (h41/h42 add to them). */
export interface RefundOptions {
  orderIds: number[];
  /** A partial amount (major units, e.g. "20.50"): one order only, at most what is left of the payment. */
  amount?: string | undefined;
  /** Default: duplicate when a remark on the order says so, otherwise requested_by_customer. */
  reason?: RefundReason | undefined;
  /**
   * "Refund and close": the order goes to Completed Refunds after a partial refund too. Without it a
   * partial refund keeps the order in Refunds (what is left can be refunded later).
   */
  close?: boolean | undefined;
  /** The product's reason code (docs/product.md, "Refund reasons"), recorded on the orders first. */
  why?: RefundWhy | undefined;
  today: string;
}

/** The reason a staff screen sent, checked: 400 for 'other' without a text or a text without 'other'. */
export function refundWhyOf(body: {
  reasonCode?: RefundWhy['code'] | undefined;
  reasonText?: string | undefined;
}): RefundWhy | undefined {
  const problem = refundReasonProblem(body);
  if (problem) throw badRequest(problem);
  return body.reasonCode ? { code: body.reasonCode, text: body.reasonText } : undefined;
}

const PROVIDER_KEY: Record<string, string> = { Stripe: 'stripe' };

function providerKey(gateway: PaymentGateway): string {
  return PROVIDER_KEY[gateway.name] ?? gateway.name.toLowerCase();
}

/** Refunds that count against the payment: succeeded, and pending ones whose outcome is not known yet. */
const COUNTED: readonly RefundStatus[] = ['succeeded', 'pending', 'unknown'];

async function markedDuplicate(tx: DbOrTx, orderId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: orderRemarks.id })
    .from(orderRemarks)
    .where(and(eq(orderRemarks.orderId, orderId), sql`${orderRemarks.remark} ~* '\\mduplicate\\M'`))
    .limit(1);
  return !!row;
}

/** The one entry point of a refund: 'Refunded it' (bulk and detail) and every flow that refunds. */
export async function refundOrders(
  db: Db,
  config: Config,
  actor: StaffIdentity,
  opts: RefundOptions,
): Promise<RefundResult> {
  const ids = opts.orderIds;
  if (opts.amount !== undefined && new Set(ids).size !== 1) {
    throw badRequest('amount: a partial amount is for one order at a time');
  }
  // The rules for every order first: one refusal refuses the whole request and nothing changes.
  const locked = await lockRefundable(db, actor, ids, opts.today);
  if (opts.why) await db.transaction((tx) => setRefundReason(tx, actor.id, ids, opts.why!));
  const manual: number[] = [];
  const integrated: { order: LockedOrder; gateway: PaymentGateway }[] = [];
  for (const order of locked) {
    const route = paymentRouteOf(config, order);
    if (route.kind === 'integrated') integrated.push({ order, gateway: route.gateway });
    else manual.push(order.orderId);
  }
  if (opts.amount !== undefined && !integrated.length) {
    throw badRequest('amount: a partial amount needs a payment gateway with an integration');
  }
  const result: RefundResult = { refunded: [], throughProvider: [], failed: [] };
  if (manual.length) result.refunded.push(...(await completeRefunds(db, actor, manual, opts.today)));
  for (const { order, gateway } of integrated) {
    try {
      const done = await refundOne(db, config, actor, order.orderId, gateway, opts);
      if ('failure' in done) result.failed.push(done.failure);
      else {
        if (done.closed) result.refunded.push(order.orderId);
        result.throughProvider.push(done);
      }
    } catch (err) {
      const refused = httpErrorOf(err);
      if (!refused || integrated.length === 1) throw err;
      result.failed.push({ orderId: order.orderId, message: refused.message, retrySafe: false });
    }
  }
  return result;
}

interface Attempt {
  id: number;
  key: string;
  amount: number;
  currency: string;
  reason: RefundReason;
  /** The product's reason code, sent to the provider as metadata. */
  reasonCode: string;
  /** The payment the attempt refunds (the order's transaction id when the attempt began). */
  paymentRef: string;
  /** True when an earlier attempt with this key may have reached the provider: read it back first. */
  retry: boolean;
  /** What was paid (minor units). */
  paid: number;
}

/** How long an attempt holds its order's refund: the provider's timeout and a margin for the rest. */
const leaseMs = (config: Config) => config.STRIPE_TIMEOUT_MS + 30_000;

/**
 * Under the order's row lock: the attempt to make now — the pending one again (same key, same amount)
 * or a new one — with its lease taken; 409 while another request holds the lease.
 */
async function beginAttempt(
  db: Db,
  config: Config,
  actor: StaffIdentity,
  orderId: number,
  provider: string,
  gatewayName: string,
  opts: RefundOptions,
): Promise<Attempt> {
  return db.transaction(async (tx) => {
    const [current] = await lockRefundable(tx, actor, [orderId], opts.today);
    const currency = current!.currency.toUpperCase();
    const paid = toMinor(current!.amount, currency) ?? 0;
    const [open] = await tx
      .select()
      .from(paymentRefunds)
      .where(
        and(
          eq(paymentRefunds.orderId, orderId),
          eq(paymentRefunds.provider, provider),
          eq(paymentRefunds.source, 'product'),
          inArray(paymentRefunds.status, ['pending', 'unknown']),
        ),
      )
      .orderBy(desc(paymentRefunds.attempt))
      .limit(1);
    const lease = sql`now() + make_interval(secs => ${leaseMs(config) / 1000})`;
    if (open) {
      if (open.inFlightUntil && open.inFlightUntil.getTime() > Date.now()) {
        throw conflict(
          `Order ${orderId}: a refund of ${formatMinor(open.amount, open.currency)} through ${gatewayName} is already under way; wait for ${gatewayName}'s answer (it is never made twice).`,
          { refundInProgress: { orderId, amount: formatMinor(open.amount, open.currency) } },
        );
      }
      await tx
        .update(paymentRefunds)
        .set({ status: 'pending', inFlightUntil: lease, updatedAt: sql`now()` })
        .where(eq(paymentRefunds.id, open.id));
      return {
        id: open.id,
        key: open.idempotencyKey,
        amount: open.amount,
        currency: open.currency,
        reason: open.reason as RefundReason,
        paymentRef: open.paymentRef ?? current!.transactionId ?? '',
        retry: true,
        paid,
        reasonCode: open.reasonCode ?? 'unspecified',
      };
    }
    const reason: RefundReason =
      opts.reason ?? ((await markedDuplicate(tx, orderId)) ? 'duplicate' : 'requested_by_customer');
    const left = paid - (await refundedSoFar(tx, orderId, COUNTED, provider));
    if (left <= 0) throw conflict(`Order ${orderId}: nothing is left to refund of this payment.`);
    let amount = left;
    if (opts.amount !== undefined) {
      const asked = toMinor(opts.amount, currency);
      if (asked === null || asked <= 0) throw badRequest('amount: must be a positive amount of money');
      if (asked > left) throw badRequest(`amount: at most ${formatMinor(left, currency)} can be refunded`);
      amount = asked;
    }
    const [last] = await tx
      .select({ attempt: paymentRefunds.attempt })
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.orderId, orderId), eq(paymentRefunds.provider, provider)))
      .orderBy(desc(paymentRefunds.attempt))
      .limit(1);
    const n = Math.max(last?.attempt ?? 0, 0) + 1;
    const key = `edcard-refund-${orderId}-${n}`;
    const paymentRef = current!.transactionId ?? '';
    const [row] = await tx
      .insert(paymentRefunds)
      .values({
        orderId,
        provider,
        source: 'product',
        attempt: n,
        idempotencyKey: key,
        amount,
        currency,
        reason,
        reasonCode: current!.refundReason ?? 'unspecified',
        reasonText: current!.refundReasonText,
        status: 'pending',
        paymentRef,
        inFlightUntil: lease,
        requestedBy: actor.id,
      })
      .returning({ id: paymentRefunds.id });
    return {
      id: row!.id,
      key,
      amount,
      currency,
      reason,
      reasonCode: current!.refundReason ?? 'unspecified',
      paymentRef,
      retry: false,
      paid,
    };
  });
}

/**
 * Whether the provider's record of the payment belongs to the order: its metadata names the order,
 * or (without an order in its metadata) its amount and currency are the order's and its customer's
 * e-mail is the order's. Null when it does; otherwise why not.
 */
async function notTheOrdersPayment(
  gateway: PaymentGateway,
  order: { orderId: number; email: string },
  attempt: Attempt,
): Promise<{ message: string; unknown: boolean } | null> {
  const record = await gateway.paymentRecord(attempt.paymentRef);
  if (!record.ok) {
    return {
      message: `${gateway.name} could not confirm that payment ${attempt.paymentRef} is this order's: ${record.message}`,
      unknown: record.kind === 'unreachable',
    };
  }
  const p = record.value;
  if (p.orderId !== null && p.orderId !== '') {
    if (p.orderId === String(order.orderId)) return null;
    return {
      message: `payment ${attempt.paymentRef} at ${gateway.name} belongs to another order: nothing was refunded.`,
      unknown: false,
    };
  }
  const sameMoney = p.amount === attempt.paid && p.currency.toUpperCase() === attempt.currency;
  const sameCustomer = !!p.email && p.email.trim().toLowerCase() === order.email.trim().toLowerCase();
  if (sameMoney && sameCustomer) return null;
  return {
    message: `payment ${attempt.paymentRef} at ${gateway.name} is not this order's (its amount or customer differ): nothing was refunded.`,
    unknown: false,
  };
}

async function refundOne(
  db: Db,
  config: Config,
  actor: StaffIdentity,
  orderId: number,
  gateway: PaymentGateway,
  opts: RefundOptions,
): Promise<ProviderRefund | { failure: RefundFailure }> {
  const provider = providerKey(gateway);
  const attempt = await beginAttempt(db, config, actor, orderId, provider, gateway.name, opts);
  const amountText = formatMinor(attempt.amount, attempt.currency);
  const settle = (set: Partial<typeof paymentRefunds.$inferInsert>) =>
    db
      .update(paymentRefunds)
      .set({ ...set, inFlightUntil: null, updatedAt: sql`now()` })
      .where(eq(paymentRefunds.id, attempt.id));

  let answer: GatewayResult<{ refundId: string; status: string } | null>;
  if (attempt.retry) {
    // The earlier request may have been carried out: read it back before asking again (same key).
    answer = await gateway.findRefund({ paymentRef: attempt.paymentRef, idempotencyKey: attempt.key });
  } else {
    const [order] = await db.select({ email: orders.email }).from(orders).where(eq(orders.orderId, orderId));
    const foreign = await notTheOrdersPayment(gateway, { orderId, email: order?.email ?? '' }, attempt);
    if (foreign) {
      await settle({ status: 'failed', error: foreign.message });
      return {
        failure: {
          orderId,
          message: `Order ${orderId}: ${foreign.message}${foreign.unknown ? ' Nothing was refunded; try again.' : ''}`,
          retrySafe: foreign.unknown,
        },
      };
    }
    answer = { ok: true, value: null };
  }
  if (answer.ok && answer.value === null) {
    answer = await gateway.refund({
      orderId,
      paymentRef: attempt.paymentRef,
      amount: attempt.amount,
      reason: attempt.reason,
      reasonCode: attempt.reasonCode,
      idempotencyKey: attempt.key,
    });
  }
  if (!answer.ok) {
    const unknown = answer.kind === 'unreachable';
    // An unknown outcome stays pending under its key: only the same request may ask again.
    await settle({ status: unknown ? 'pending' : 'failed', error: answer.message });
    const message = unknown
      ? `Order ${orderId}: ${answer.message} The refund of ${amountText} stays pending and the order was not changed; try again later (the same request is repeated, so the payment is refunded at most once).`
      : `Order ${orderId}: ${answer.message}. The order stays in Refunds.`;
    return { failure: { orderId, message, retrySafe: unknown } };
  }
  const refundId = answer.value!.refundId;
  let closed = false;
  let so = { refunded: 0, remaining: 0 };
  let notMoved: string | null = null;
  const record = async (tx: DbOrTx) => {
    await tx
      .update(paymentRefunds)
      .set({ status: 'succeeded', refundId, error: null, inFlightUntil: null, updatedAt: sql`now()` })
      .where(eq(paymentRefunds.id, attempt.id));
    await recordEvents(tx, [
      { orderId, actorId: actor.id, action: 'payment', toValue: `refund ${refundId} ${amountText}` },
    ]);
    const refunded = await refundedSoFar(tx, orderId, ['succeeded'], provider);
    so = { refunded, remaining: Math.max(attempt.paid - refunded, 0) };
  };
  try {
    await db.transaction(async (tx) => {
      await record(tx);
      if (so.remaining <= 0 || opts.close) {
        await completeRefunds(tx, actor, [orderId], opts.today);
        closed = true;
      } else {
        await addSystemRemark(
          tx,
          orderId,
          `Refunded ${amountText} through ${gateway.name} (${refundId}): ${formatMinor(so.refunded, attempt.currency)} of ${formatMinor(attempt.paid, attempt.currency)} refunded so far, ${formatMinor(so.remaining, attempt.currency)} left. The order stays in Refunds.`,
        );
      }
    });
  } catch (err) {
    const refused = httpErrorOf(err);
    if (!refused) throw err;
    // The money went back: keep that on record even though the order changed meanwhile.
    await db.transaction(record);
    notMoved = refused.message;
  }
  if (notMoved !== null) {
    return {
      failure: {
        orderId,
        message: `Order ${orderId}: refunded ${amountText} at ${gateway.name} (${refundId}), but the order was not moved: ${notMoved}`,
        retrySafe: false,
      },
    };
  }
  return {
    orderId,
    gateway: gateway.name,
    refundId,
    amount: amountText,
    refundedSoFar: formatMinor(so.refunded, attempt.currency),
    remaining: formatMinor(so.remaining, attempt.currency),
    closed,
  };
}
