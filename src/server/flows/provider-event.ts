import { and, eq, inArray, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { formatStaffDateTime } from '../../shared/dates.js';
import { formatMinor } from '../../shared/money.js';
import type { Db, DbOrTx } from '../db/client.js';
import { orders, paymentDisputes, paymentRefunds, paymentWebhookEvents } from '../db/schema.js';
import { moveAsSystem } from './move-status.js';
import { refundedSoFar } from '../payments/refunded-so-far.js';
import { addSystemRemark } from '../orders/remarks.js';
import { recordEvents } from '../orders/events.js';
import type { CheckSettings } from '../orders/order-checks.js';
import {
  applyChargeSucceeded,
  applyFraudWarning,
  PROVIDER,
  type RiskOutcome,
} from '../payments/stripe-risk.js';

/**
 * Stripe's events applied to our orders (docs/product.md, "Connecting Stripe"). Each event is applied
 * once: its id is recorded in the transaction that applies it, and a replay finds it there. An event for
 * a payment we do not know is recorded too and answered 2xx, so Stripe stops sending it.
 */

export { PROVIDER };

export interface AppliedEvent {
  duplicate: boolean;
  outcome: string;
  orderId: number | null;
  /** A fraud warning to refund at the provider now that the event is recorded (flows/fraud-warning.ts). */
  refundWarning?: number | undefined;
}

type Outcome = RiskOutcome;

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  typeof v === 'string' ? v : (v?.id ?? null);

/** The order whose transaction id is the event's charge or payment intent (the oldest when several). */
async function findOrder(tx: DbOrTx, refs: (string | null)[]): Promise<number | null> {
  const known = refs.filter((r): r is string => !!r);
  if (!known.length) return null;
  const [row] = await tx
    .select({ orderId: orders.orderId })
    .from(orders)
    .where(inArray(orders.transactionId, known))
    .orderBy(orders.orderId)
    .limit(1);
  return row?.orderId ?? null;
}

/** A provider's code (`needs_response`) as words for a remark. */
const codeInWords = (status: string) => status.replaceAll('_', ' ');

/** `settings`: the order checks' settings, for the flag an early fraud warning raises. */
export async function applyStripeEvent(
  db: Db,
  event: Stripe.Event,
  settings: CheckSettings,
): Promise<AppliedEvent> {
  const object = event.data.object as { id?: string };
  return db.transaction(async (tx) => {
    const [recorded] = await tx
      .insert(paymentWebhookEvents)
      .values({
        provider: PROVIDER,
        eventId: event.id,
        type: event.type,
        objectId: object.id ?? null,
        outcome: 'received',
      })
      .onConflictDoNothing()
      .returning({ id: paymentWebhookEvents.id });
    if (!recorded) return { duplicate: true, outcome: 'already applied', orderId: null };
    const { outcome, orderId, refundWarning } = await apply(tx, event, settings);
    await tx
      .update(paymentWebhookEvents)
      .set({ outcome, orderId })
      .where(eq(paymentWebhookEvents.id, recorded.id));
    return { duplicate: false, outcome, orderId, refundWarning };
  });
}

async function apply(tx: DbOrTx, event: Stripe.Event, settings: CheckSettings): Promise<Outcome> {
  switch (event.type) {
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
      return applyDispute(tx, event.data.object, event.type, new Date(event.created * 1000));
    case 'charge.refunded':
      return applyRefunded(tx, event.data.object, event.id);
    case 'radar.early_fraud_warning.created':
      return applyWarning(tx, event.data.object, settings);
    case 'charge.succeeded':
    case 'payment_intent.succeeded':
      return applyCharge(tx, event.data.object, settings);
    default:
      return { outcome: 'ignored: not an event the product handles', orderId: null };
  }
}

const UNKNOWN_PAYMENT: Outcome = {
  outcome: 'unknown payment: no order has this transaction id',
  orderId: null,
};

/** Where a dispute status stands in its life: an older or lower one never overwrites a later one. */
function disputeRank(status: string): number {
  if (['won', 'lost', 'warning_closed'].includes(status)) return 3;
  if (['under_review', 'warning_under_review'].includes(status)) return 2;
  return 1;
}

/** Statuses a provider event never moves an order out of: leaving Deleted is for Admin and Manager. */
async function statusOf(tx: DbOrTx, orderId: number): Promise<string | null> {
  const [row] = await tx
    .select({ status: orders.processStatus })
    .from(orders)
    .where(eq(orders.orderId, orderId));
  return row?.status ?? null;
}

async function applyDispute(
  tx: DbOrTx,
  dispute: Stripe.Dispute,
  type: 'charge.dispute.created' | 'charge.dispute.updated' | 'charge.dispute.closed',
  eventAt: Date,
): Promise<Outcome> {
  const chargeId = idOf(dispute.charge);
  const intentId = idOf(dispute.payment_intent);
  const orderId = await findOrder(tx, [chargeId, intentId]);
  if (orderId === null) return UNKNOWN_PAYMENT;
  const dueBy = dispute.evidence_details?.due_by ? new Date(dispute.evidence_details.due_by * 1000) : null;
  const amount = formatMinor(dispute.amount, dispute.currency);
  const closed =
    type === 'charge.dispute.closed' || ['won', 'lost', 'warning_closed'].includes(dispute.status);
  const [before] = await tx
    .select()
    .from(paymentDisputes)
    .where(and(eq(paymentDisputes.provider, PROVIDER), eq(paymentDisputes.disputeId, dispute.id)))
    .for('update');
  const values = {
    status: dispute.status,
    reason: dispute.reason,
    amount: dispute.amount,
    currency: dispute.currency.toUpperCase(),
    dueBy,
    lastEventAt: eventAt,
    updatedAt: sql`now()`,
  };
  if (!before) {
    await tx.insert(paymentDisputes).values({
      provider: PROVIDER,
      disputeId: dispute.id,
      orderId,
      chargeId,
      paymentIntentId: intentId,
      ...values,
      closedAt: closed ? sql`now()` : null,
    });
    // A Deleted or Completed Refunds order is not reopened by the provider (decision 356), nor is
    // any order by a dispute the bank already decided for us.
    const status = await statusOf(tx, orderId);
    const keep =
      status === 'Deleted'
        ? 'leaving Deleted is for an Admin or Manager'
        : status === 'Refunded'
          ? 'the order is in Completed Refunds'
          : dispute.status === 'won' || dispute.status === 'warning_closed'
            ? 'the dispute is already closed in our favour'
            : null;
    const move = keep
      ? { moved: false, from: status, refusal: keep }
      : await moveAsSystem(tx, orderId, 'ChargeBack');
    const due = dueBy && !closed ? `; evidence due by ${formatStaffDateTime(dueBy)}` : '';
    const where = move.from === 'Refunded' ? 'Completed Refunds' : move.from;
    const moved = move.moved ? '' : ` The order stays in ${where}: ${move.refusal?.replace(/\.$/, '')}.`;
    await addSystemRemark(
      tx,
      orderId,
      `Chargeback opened at Stripe: reason ${codeInWords(dispute.reason)}, ${amount}${due}.${moved}`,
    );
    await recordEvents(tx, [
      { orderId, action: 'payment', fromValue: null, toValue: `dispute ${dispute.id} ${dispute.status}` },
    ]);
    if (closed) await closedRemark(tx, orderId, dispute.status, amount);
    return { outcome: `dispute opened${move.moved ? ', order moved to ChargeBack' : ''}`, orderId };
  }
  // Events apply in the provider's order: an older event, a lower status, or anything after the
  // dispute closed changes nothing (the event itself is recorded by the caller).
  const wasClosed = !!before.closedAt || disputeRank(before.status) === 3;
  if (wasClosed) return { outcome: 'dispute already closed: event not applied', orderId };
  const older = !!before.lastEventAt && eventAt.getTime() < before.lastEventAt.getTime();
  if (older || disputeRank(dispute.status) < disputeRank(before.status)) {
    return { outcome: 'older dispute event: not applied', orderId };
  }
  const changed = before.status !== dispute.status || before.dueBy?.getTime() !== dueBy?.getTime();
  await tx
    .update(paymentDisputes)
    .set({ ...values, ...(closed ? { closedAt: sql`coalesce(${paymentDisputes.closedAt}, now())` } : {}) })
    .where(eq(paymentDisputes.id, before.id));
  if (!changed && before.amount === dispute.amount) return { outcome: 'dispute unchanged', orderId };
  await recordEvents(tx, [
    {
      orderId,
      action: 'payment',
      fromValue: `dispute ${dispute.id} ${before.status}`,
      toValue: `dispute ${dispute.id} ${dispute.status}`,
    },
  ]);
  if (closed && before.status !== dispute.status) {
    await closedRemark(tx, orderId, dispute.status, amount);
  } else {
    const waiting = ['needs_response', 'warning_needs_response'].includes(dispute.status);
    const due = dueBy && waiting ? ` (evidence due by ${formatStaffDateTime(dueBy)})` : '';
    await addSystemRemark(tx, orderId, `Stripe dispute status: ${codeInWords(dispute.status)}${due}.`);
  }
  return { outcome: `dispute ${dispute.status}`, orderId };
}

async function closedRemark(tx: DbOrTx, orderId: number, status: string, amount: string) {
  const text =
    status === 'won'
      ? `Dispute won: the bank decided for us and the payment of ${amount} stays with us.`
      : status === 'lost'
        ? `Dispute lost: the bank took back ${amount}.`
        : `Stripe closed the dispute: ${codeInWords(status)}.`;
  await addSystemRemark(tx, orderId, text);
}

/**
 * A refund made at Stripe (ours, confirmed, or one made outside the product). A full refund moves the
 * order as 'Refunded it' would (through Refunds, mailing once); what we refunded ourselves is not
 * counted or mailed again.
 */
async function applyRefunded(tx: DbOrTx, charge: Stripe.Charge, eventId: string): Promise<Outcome> {
  const orderId = await findOrder(tx, [charge.id, idOf(charge.payment_intent)]);
  if (orderId === null) return UNKNOWN_PAYMENT;
  // Our own attempts whose answer was lost are settled by the provider's word (decision 354).
  const settled = await settlePending(tx, orderId, charge);
  // A refund of ours in flight counts too: its own answer records it.
  const known = await refundedSoFar(tx, orderId, ['succeeded', 'pending'], PROVIDER);
  const newAmount = charge.amount_refunded - known;
  if (newAmount <= 0 && settled.length) {
    const currency = charge.currency.toUpperCase();
    const [order] = await tx
      .select({ status: orders.processStatus })
      .from(orders)
      .where(eq(orders.orderId, orderId));
    const done =
      charge.refunded && order?.status === 'Refunds' ? await moveAsSystem(tx, orderId, 'Refunded') : null;
    const text = settled.map((r) => `${r.refundId} ${formatMinor(r.amount, currency)}`).join(', ');
    await addSystemRemark(
      tx,
      orderId,
      `Stripe confirmed the pending refund ${text}.${done?.moved ? ' The order is now in Completed Refunds.' : ''}`,
    );
    return { outcome: 'pending refund confirmed', orderId };
  }
  if (newAmount <= 0) return { outcome: 'refund already recorded', orderId };
  const currency = charge.currency.toUpperCase();
  const latest = charge.refunds?.data?.[0]?.id ?? null;
  await tx.insert(paymentRefunds).values({
    orderId,
    provider: PROVIDER,
    source: 'outside',
    attempt: 0,
    idempotencyKey: `outside-${eventId}`,
    amount: newAmount,
    currency,
    reason: null,
    status: 'succeeded',
    refundId: latest,
  });
  await recordEvents(tx, [
    {
      orderId,
      action: 'payment',
      toValue: `refund ${latest ?? ''} ${formatMinor(newAmount, currency)}`.trim(),
    },
  ]);
  const amount = formatMinor(newAmount, currency);
  if (!charge.refunded) {
    await addSystemRemark(
      tx,
      orderId,
      `Partly refunded at Stripe outside the product: ${amount} (${formatMinor(charge.amount_refunded, currency)} of ${formatMinor(charge.amount, currency)} in all).`,
    );
    return { outcome: 'partial refund recorded', orderId };
  }
  const [order] = await tx
    .select({ status: orders.processStatus })
    .from(orders)
    .where(eq(orders.orderId, orderId));
  let note = '';
  if (order?.status === 'Deleted') {
    // Recorded, not reopened (decision 356): no move and no customer mail for a Deleted order.
    note = ' The order stays in Deleted: leaving Deleted is for an Admin or Manager.';
  } else if (order?.status !== 'Refunded') {
    // As 'Refunded it' from the Refunds queue: one refund mail, none for the way through Refunds.
    const through =
      order?.status === 'Refunds'
        ? { moved: true, refusal: null }
        : await moveAsSystem(tx, orderId, 'Refunds', { notify: false });
    const done = through.moved ? await moveAsSystem(tx, orderId, 'Refunded') : through;
    note = done.moved
      ? ' The order is now in Completed Refunds.'
      : ` The order was not moved: ${done.refusal}`;
  }
  await addSystemRemark(tx, orderId, `Refunded at Stripe outside the product: ${amount}.${note}`);
  return { outcome: 'refund recorded', orderId };
}

/** Marks our pending attempts succeeded whose key a refund of the charge carries (metadata edcard_key). */
async function settlePending(
  tx: DbOrTx,
  orderId: number,
  charge: Stripe.Charge,
): Promise<{ refundId: string; amount: number }[]> {
  const settled: { refundId: string; amount: number }[] = [];
  for (const r of charge.refunds?.data ?? []) {
    const key = r.metadata?.edcard_key;
    if (typeof key !== 'string' || !key || (r.status && r.status !== 'succeeded' && r.status !== 'pending'))
      continue;
    const rows = await tx
      .update(paymentRefunds)
      .set({ status: 'succeeded', refundId: r.id, error: null, inFlightUntil: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(paymentRefunds.orderId, orderId),
          eq(paymentRefunds.provider, PROVIDER),
          eq(paymentRefunds.idempotencyKey, key),
          inArray(paymentRefunds.status, ['pending', 'unknown']),
        ),
      )
      .returning({ amount: paymentRefunds.amount });
    for (const row of rows) {
      settled.push({ refundId: r.id, amount: row.amount });
      await recordEvents(tx, [
        { orderId, action: 'payment', toValue: `refund ${r.id} ${formatMinor(row.amount, charge.currency)}` },
      ]);
    }
  }
  return settled;
}

async function applyWarning(
  tx: DbOrTx,
  warning: Stripe.Radar.EarlyFraudWarning,
  settings: CheckSettings,
): Promise<Outcome> {
  const orderId = await findOrder(tx, [idOf(warning.charge), idOf(warning.payment_intent)]);
  if (orderId === null) return UNKNOWN_PAYMENT;
  return applyFraudWarning(tx, warning, orderId, settings);
}

/** charge.succeeded, payment_intent.succeeded: the card network, and a hold when the risk is high. */
async function applyCharge(
  tx: DbOrTx,
  object: Stripe.Charge | Stripe.PaymentIntent,
  settings: CheckSettings,
): Promise<Outcome> {
  const charge: Stripe.Charge | null =
    object.object === 'payment_intent'
      ? typeof object.latest_charge === 'object'
        ? object.latest_charge
        : null
      : (object as Stripe.Charge);
  const intentId =
    object.object === 'payment_intent' ? object.id : idOf((object as Stripe.Charge).payment_intent);
  const chargeId = charge?.id ?? (object.object === 'payment_intent' ? idOf(object.latest_charge) : null);
  const orderId = await findOrder(tx, [chargeId, intentId]);
  if (!chargeId) return { outcome: 'payment recorded: no charge to read', orderId };
  return applyChargeSucceeded(
    tx,
    {
      id: chargeId,
      paymentIntentId: intentId,
      amount: charge?.amount ?? object.amount,
      currency: charge?.currency ?? object.currency,
      created: charge?.created ?? object.created ?? null,
      brand: charge?.payment_method_details?.card?.brand ?? null,
      riskLevel: charge?.outcome?.risk_level ?? null,
    },
    orderId,
    settings,
  );
}
