import { and, eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { OrderStatus } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { orders, paymentCharges, paymentFraudWarnings } from '../db/schema.js';
import { publishNotice } from '../live/notices.js';
import { addSystemRemark } from '../orders/remarks.js';
import { recordEvents } from '../orders/events.js';
import { type CheckSettings, setOrderFlag } from '../orders/order-checks.js';
import { RISKY_LEVELS } from '../../shared/contracts/payment-risk.js';
import { readPaymentPolicy } from './policy.js';
import { now } from '../clock.js';

/**
 * Acting on payment risk from Stripe's events (docs/product.md, "Fraud warnings and risk", decision 372):
 * an early fraud warning refunds an order not yet submitted (after the event's transaction, by the flow
 * flows/fraud-warning.ts) or puts a submitted one in risk review; a risky payment holds the order.
 */

export const PROVIDER = 'stripe';

/** Not yet submitted and not closed: a fraud warning refunds these (while the policy says so). */
export const REFUNDABLE_ON_WARNING: readonly OrderStatus[] = [
  'New',
  'Awaiting',
  'Customer Called',
  'Contact Customer',
  'Refunds',
];
/** Already submitted or done: a fraud warning asks a Manager (refund now, or keep with a reason). */
const REVIEW_ON_WARNING: readonly OrderStatus[] = ['AwaitingGovt', 'Completed'];

export const MANAGER_ROLES = ['Admin', 'Manager'] as const;

/** A provider's code (`made_with_stolen_card`) as words for a remark. */
const codeInWords = (s: string) => s.replaceAll('_', ' ');

export interface RiskOutcome {
  outcome: string;
  orderId: number | null;
  /** A warning to refund at the provider after this transaction commits (its row id). */
  refundWarning?: number;
}

/** Puts a fraud-warned order in risk review: the blocking check, a remark, a live notice to managers. */
export async function warningToReview(
  tx: DbOrTx,
  warningRowId: number,
  orderId: number,
  why: string,
  settings: CheckSettings,
): Promise<void> {
  await tx
    .update(paymentFraudWarnings)
    .set({ action: 'review' })
    .where(eq(paymentFraudWarnings.id, warningRowId));
  await setOrderFlag(tx, orderId, 'fraud_warning', true, settings, now());
  await addSystemRemark(tx, orderId, `${why} Refund now, or keep the payment with a reason (Risk review).`);
  await publishNotice(tx, MANAGER_ROLES, {
    kind: 'fraud_warning',
    text: `Order ${orderId}: early fraud warning — refund now or keep it (Risk review).`,
    orderId,
  });
}

export async function applyFraudWarning(
  tx: DbOrTx,
  warning: Stripe.Radar.EarlyFraudWarning,
  orderId: number,
  settings: CheckSettings,
): Promise<RiskOutcome> {
  const chargeId = typeof warning.charge === 'string' ? warning.charge : (warning.charge?.id ?? null);
  // One row per warning: a second event about the same warning changes nothing (and refunds nothing).
  const [row] = await tx
    .insert(paymentFraudWarnings)
    .values({
      provider: PROVIDER,
      warningId: warning.id,
      orderId,
      chargeId,
      fraudType: warning.fraud_type,
      action: 'recorded',
    })
    .onConflictDoNothing()
    .returning({ id: paymentFraudWarnings.id });
  if (!row) return { outcome: 'early fraud warning already handled', orderId };
  await recordEvents(tx, [
    { orderId, action: 'payment', toValue: `early fraud warning ${warning.id} ${warning.fraud_type}` },
  ]);
  const [order] = await tx
    .select({ status: orders.processStatus })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .for('update');
  const status = order!.status as OrderStatus;
  const issuer = `card issuer reports ${codeInWords(warning.fraud_type)}`;
  if (REFUNDABLE_ON_WARNING.includes(status)) {
    const policy = await readPaymentPolicy(tx);
    if (policy.autoRefundFraudWarnings) {
      await tx
        .update(paymentFraudWarnings)
        .set({ action: 'refunding' })
        .where(eq(paymentFraudWarnings.id, row.id));
      return { outcome: 'early fraud warning: refunding the order', orderId, refundWarning: row.id };
    }
    await warningToReview(
      tx,
      row.id,
      orderId,
      `Early fraud warning (${issuer}); automatic refunds are off.`,
      settings,
    );
    return { outcome: 'early fraud warning: order in risk review', orderId };
  }
  if (REVIEW_ON_WARNING.includes(status)) {
    await warningToReview(
      tx,
      row.id,
      orderId,
      `Early fraud warning (${issuer}) on a submitted order.`,
      settings,
    );
    return { outcome: 'early fraud warning: order in risk review', orderId };
  }
  await addSystemRemark(
    tx,
    orderId,
    `Early fraud warning (${issuer}); the order is in ${status}: nothing to do.`,
  );
  return { outcome: 'early fraud warning recorded', orderId };
}

/**
 * A succeeded charge (charge.succeeded, or payment_intent.succeeded with its latest charge): its card
 * network is kept for the dispute ratios, and a risky one holds the order (the check risk_hold).
 */
export async function applyChargeSucceeded(
  tx: DbOrTx,
  charge: {
    id: string;
    paymentIntentId: string | null;
    amount: number;
    currency: string;
    created: number | null;
    brand: string | null;
    riskLevel: string | null;
  },
  orderId: number | null,
  settings: CheckSettings,
): Promise<RiskOutcome> {
  await tx
    .insert(paymentCharges)
    .values({
      provider: PROVIDER,
      chargeId: charge.id,
      paymentIntentId: charge.paymentIntentId,
      orderId,
      amount: charge.amount,
      currency: charge.currency.toUpperCase(),
      brand: networkOf(charge.brand),
      riskLevel: charge.riskLevel,
      chargedAt: charge.created ? new Date(charge.created * 1000) : sql`now()`,
    })
    .onConflictDoUpdate({
      target: [paymentCharges.provider, paymentCharges.chargeId],
      set: {
        orderId: sql`coalesce(excluded.order_id, ${paymentCharges.orderId})`,
        brand: sql`excluded.brand`,
        riskLevel: sql`coalesce(excluded.risk_level, ${paymentCharges.riskLevel})`,
      },
    });
  if (orderId === null) return { outcome: 'charge recorded: no order has this transaction id', orderId };
  if (!charge.riskLevel || !RISKY_LEVELS.includes(charge.riskLevel)) {
    return { outcome: 'charge recorded', orderId };
  }
  const held = await holdForRisk(tx, orderId, charge.riskLevel, settings);
  return { outcome: held ? `risk ${charge.riskLevel}: order on risk hold` : 'charge recorded', orderId };
}

/** Holds the order for a Manager's review (once: a hold already raised or cleared is not raised again). */
export async function holdForRisk(
  tx: DbOrTx,
  orderId: number,
  level: string,
  settings: CheckSettings,
): Promise<boolean> {
  const [already] = await tx
    .select({ flags: orders.checkFlags })
    .from(orders)
    .where(and(eq(orders.orderId, orderId), sql`'risk_hold' = any(${orders.checkFlags})`));
  if (already) return false;
  await setOrderFlag(tx, orderId, 'risk_hold', true, settings, now());
  await recordEvents(tx, [{ orderId, action: 'risk', toValue: `risk hold: ${level}` }]);
  await addSystemRemark(
    tx,
    orderId,
    `Payment risk ${level}: the order is on a risk hold. A Manager reviews it and clears the hold with a reason before it is submitted.`,
  );
  return true;
}

/** The card networks the ratios are kept for; any other brand counts as 'other'. */
export const NETWORKS = ['visa', 'mastercard', 'amex', 'other'] as const;
export type Network = (typeof NETWORKS)[number];

export function networkOf(brand: string | null | undefined): Network {
  const b = (brand ?? '').toLowerCase().replace(/[^a-z]/g, '');
  if (b === 'visa') return 'visa';
  if (b === 'mastercard' || b === 'mc') return 'mastercard';
  if (b === 'amex' || b === 'americanexpress') return 'amex';
  return 'other';
}
