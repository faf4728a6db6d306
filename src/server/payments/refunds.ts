import { and, desc, eq, sql } from 'drizzle-orm';
import { formatMinor, toMinor } from '../../shared/money.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { orderRemarks, paymentRefunds } from '../db/schema.js';
import { badRequest, conflict, HttpError } from '../http/errors.js';
import { refundReasonProblem } from '../../shared/contracts/payments.js';
import type { RefundWhy } from '../../shared/refund-reasons.js';
import { completeRefunds, lockRefundable } from '../orders/commands.js';
import { recordEvents } from '../orders/events.js';
import { setRefundReason } from '../orders/refund-reason.js';
import type { LockedOrder } from '../orders/repository.js';
import type { PaymentGateway } from './gateway.js';
import { paymentRouteOf } from './payment-route.js';

/**
 * 'Refunded it' with the payment provider first (docs/decisions/302): for an order paid through an
 * integrated gateway the refund is created there, and only when it succeeds does the order move, its
 * refund get recorded and the customer get mailed. A provider error leaves that order in Refunds with
 * the reason; other orders of the request go on. Orders without an integration move as before.
 */

export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent';

export interface RefundOptions {
  /** A partial amount (major units, e.g. "20.50"): one order only, at most what is left of the payment. */
  amount?: string | undefined;
  /** Default: duplicate when a remark on the order says so, otherwise requested_by_customer. */
  reason?: RefundReason | undefined;
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

export interface RefundFailure {
  orderId: number;
  message: string;
  /** True when the provider's answer is unknown (timeout): retrying repeats the same request. */
  retrySafe: boolean;
}

export interface RefundResult {
  /** Every order now in Completed Refunds. */
  refunded: number[];
  /** Those refunded at a provider, with the provider's refund id. */
  throughProvider: { orderId: number; gateway: string; refundId: string; amount: string }[];
  failed: RefundFailure[];
}

const PROVIDER_KEY: Record<string, string> = { Stripe: 'stripe' };

function providerKey(gateway: PaymentGateway): string {
  return PROVIDER_KEY[gateway.name] ?? gateway.name.toLowerCase();
}

/** What is left to refund of an order's payment at a provider (minor units). */
async function refundedSoFar(tx: DbOrTx, orderId: number, provider: string): Promise<number> {
  const [row] = await tx
    .select({ sum: sql<string>`coalesce(sum(${paymentRefunds.amount}), 0)::text` })
    .from(paymentRefunds)
    .where(
      and(
        eq(paymentRefunds.orderId, orderId),
        eq(paymentRefunds.provider, provider),
        eq(paymentRefunds.status, 'succeeded'),
      ),
    );
  return Number(row?.sum ?? 0);
}

async function markedDuplicate(tx: DbOrTx, orderId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: orderRemarks.id })
    .from(orderRemarks)
    .where(and(eq(orderRemarks.orderId, orderId), sql`${orderRemarks.remark} ~* '\\mduplicate\\M'`))
    .limit(1);
  return !!row;
}

export async function refundOrders(
  db: Db,
  config: Config,
  actor: StaffIdentity,
  ids: number[],
  opts: RefundOptions,
): Promise<RefundResult> {
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
      const done = await refundOne(db, actor, order, gateway, opts);
      if ('failure' in done) result.failed.push(done.failure);
      else {
        result.refunded.push(order.orderId);
        result.throughProvider.push(done);
      }
    } catch (err) {
      if (!(err instanceof HttpError) || integrated.length === 1) throw err;
      result.failed.push({ orderId: order.orderId, message: err.message, retrySafe: false });
    }
  }
  return result;
}

async function refundOne(
  db: Db,
  actor: StaffIdentity,
  order: LockedOrder,
  gateway: PaymentGateway,
  opts: RefundOptions,
): Promise<RefundResult['throughProvider'][number] | { failure: RefundFailure }> {
  const provider = providerKey(gateway);
  const orderId = order.orderId;
  // One attempt: a new idempotency key, or the last one again when its outcome is unknown.
  const attempt = await db.transaction(async (tx) => {
    const [current] = await lockRefundable(tx, actor, [orderId], opts.today);
    const currency = current!.currency.toUpperCase();
    const [last] = await tx
      .select()
      .from(paymentRefunds)
      .where(
        and(
          eq(paymentRefunds.orderId, orderId),
          eq(paymentRefunds.provider, provider),
          eq(paymentRefunds.source, 'product'),
        ),
      )
      .orderBy(desc(paymentRefunds.attempt))
      .limit(1);
    const reason: RefundReason =
      opts.reason ?? ((await markedDuplicate(tx, orderId)) ? 'duplicate' : 'requested_by_customer');
    if (last && (last.status === 'unknown' || last.status === 'pending')) {
      await tx
        .update(paymentRefunds)
        .set({ status: 'pending', updatedAt: sql`now()` })
        .where(eq(paymentRefunds.id, last.id));
      return {
        id: last.id,
        key: last.idempotencyKey,
        amount: last.amount,
        currency,
        reason: last.reason as RefundReason,
        reasonCode: last.reasonCode ?? 'unspecified',
      };
    }
    const paid = toMinor(current!.amount, currency) ?? 0;
    const left = paid - (await refundedSoFar(tx, orderId, provider));
    if (left <= 0) throw conflict(`Order ${orderId}: nothing is left to refund of this payment.`);
    let amount = left;
    if (opts.amount !== undefined) {
      const asked = toMinor(opts.amount, currency);
      if (asked === null || asked <= 0) throw badRequest('amount: must be a positive amount of money');
      if (asked > left) throw badRequest(`amount: at most ${formatMinor(left, currency)} can be refunded`);
      amount = asked;
    }
    const n = (last?.attempt ?? 0) + 1;
    const key = `edcard-refund-${orderId}-${n}`;
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
        requestedBy: actor.id,
      })
      .returning({ id: paymentRefunds.id });
    return { id: row!.id, key, amount, currency, reason, reasonCode: current!.refundReason ?? 'unspecified' };
  });

  const answer = await gateway.refund({
    orderId,
    paymentRef: order.transactionId ?? '',
    amount: attempt.amount,
    reason: attempt.reason,
    reasonCode: attempt.reasonCode,
    idempotencyKey: attempt.key,
  });
  const amountText = formatMinor(attempt.amount, attempt.currency);
  if (!answer.ok) {
    const unknown = answer.kind === 'unreachable';
    await db
      .update(paymentRefunds)
      .set({ status: unknown ? 'unknown' : 'failed', error: answer.message, updatedAt: sql`now()` })
      .where(eq(paymentRefunds.id, attempt.id));
    const message = unknown
      ? `Order ${orderId}: ${answer.message} The order was not changed; try again (the same request is repeated, so the payment is refunded at most once).`
      : `Order ${orderId}: ${answer.message}. The order stays in Refunds.`;
    return { failure: { orderId, message, retrySafe: unknown } };
  }
  const { refundId } = answer.value;
  const record = async (tx: DbOrTx) => {
    await tx
      .update(paymentRefunds)
      .set({ status: 'succeeded', refundId, error: null, updatedAt: sql`now()` })
      .where(eq(paymentRefunds.id, attempt.id));
    await recordEvents(tx, [
      { orderId, actorId: actor.id, action: 'payment', toValue: `refund ${refundId} ${amountText}` },
    ]);
  };
  try {
    await db.transaction(async (tx) => {
      await record(tx);
      await completeRefunds(tx, actor, [orderId], opts.today);
    });
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    // The money went back: keep that on record even though the order changed meanwhile.
    await db.transaction(record);
    return {
      failure: {
        orderId,
        message: `Order ${orderId}: refunded ${amountText} at ${gateway.name} (${refundId}), but the order was not moved: ${err.message}`,
        retrySafe: false,
      },
    };
  }
  return { orderId, gateway: gateway.name, refundId, amount: amountText };
}
