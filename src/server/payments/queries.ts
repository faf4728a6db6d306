import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { OrderPayment, PaymentInsights } from '../../shared/contracts/payments.js';
import { serviceDayStart } from '../../shared/dates.js';
import { formatMinor, toMinor } from '../../shared/money.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { orders, paymentDisputes, paymentRefunds, staffUsers } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { paymentRouteOf } from './payment-route.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const TAKES_EVIDENCE = new Set(['needs_response', 'warning_needs_response']);

type DisputeRow = typeof paymentDisputes.$inferSelect;

/** A dispute as the screens show it (the Payment section, the order detail's `dispute`). */
function disputeView(d: DisputeRow, by: string | null): OrderPayment['disputes'][number] {
  return {
    dispute_id: d.disputeId,
    status: d.status,
    reason: d.reason,
    amount: formatMinor(d.amount, d.currency),
    due_by: iso(d.dueBy),
    evidence_saved_at: iso(d.evidenceSavedAt),
    evidence_submitted_at: iso(d.evidenceSubmittedAt),
    evidence_by: d.evidenceSavedAt ? by : null,
    closed_at: iso(d.closedAt),
    created_at: d.createdAt.toISOString(),
    takes_evidence: !d.closedAt && TAKES_EVIDENCE.has(d.status),
  };
}

/** The order's latest dispute, an open one before closed ones; null when it has none. */
export async function latestDispute(
  db: DbOrTx,
  orderId: number,
): Promise<OrderPayment['disputes'][number] | null> {
  const evidenceBy = alias(staffUsers, 'evidence_by');
  const [row] = await db
    .select({ d: paymentDisputes, by: evidenceBy.name })
    .from(paymentDisputes)
    .leftJoin(evidenceBy, eq(evidenceBy.id, paymentDisputes.evidenceBy))
    .where(eq(paymentDisputes.orderId, orderId))
    .orderBy(
      sql`${paymentDisputes.closedAt} is null desc`,
      desc(paymentDisputes.createdAt),
      desc(paymentDisputes.id),
    )
    .limit(1);
  return row ? disputeView(row.d, row.by ?? null) : null;
}

/** The order's Payment section: its gateway, whether money moves through it, its disputes and refunds. */
export async function orderPayment(db: DbOrTx, config: Config, orderId: number): Promise<OrderPayment> {
  const [order] = await db
    .select({
      merchantName: orders.merchantName,
      transactionId: orders.transactionId,
      amount: orders.amount,
      currency: orders.currency,
    })
    .from(orders)
    .where(eq(orders.orderId, orderId));
  if (!order) throw notFound('Order not found');
  const route = paymentRouteOf(config, order);
  const evidenceBy = alias(staffUsers, 'evidence_by');
  const [disputes, refunds] = await Promise.all([
    db
      .select({ d: paymentDisputes, by: evidenceBy.name })
      .from(paymentDisputes)
      .leftJoin(evidenceBy, eq(evidenceBy.id, paymentDisputes.evidenceBy))
      .where(eq(paymentDisputes.orderId, orderId))
      .orderBy(asc(paymentDisputes.createdAt), asc(paymentDisputes.id)),
    db
      .select({ r: paymentRefunds, by: staffUsers.name })
      .from(paymentRefunds)
      .leftJoin(staffUsers, eq(staffUsers.id, paymentRefunds.requestedBy))
      .where(eq(paymentRefunds.orderId, orderId))
      .orderBy(asc(paymentRefunds.createdAt), asc(paymentRefunds.id)),
  ]);
  const currency = order.currency.toUpperCase();
  const paid = toMinor(order.amount, currency) ?? 0;
  const succeeded = refunds.filter(({ r }) => r.status === 'succeeded');
  const refunded = succeeded.reduce((sum, { r }) => sum + r.amount, 0);
  const pending = refunds.find(({ r }) => r.status === 'pending' || r.status === 'unknown')?.r ?? null;
  return {
    refunded_so_far: formatMinor(refunded, currency),
    remaining: formatMinor(Math.max(paid - refunded - (pending?.amount ?? 0), 0), currency),
    pending_refund: pending ? formatMinor(pending.amount, pending.currency) : null,
    gateway: route.kind === 'integrated' ? route.gateway.name : route.gateway,
    integrated: route.kind === 'integrated',
    manual_reason: route.kind === 'manual' ? route.reason : null,
    disputes: disputes.map(({ d, by }) => disputeView(d, by ?? null)),
    refunds: refunds.map(({ r, by }) => ({
      refund_id: r.refundId,
      amount: formatMinor(r.amount, r.currency),
      status: r.status,
      source: r.source,
      reason: r.reason,
      error: r.error,
      requested_by: by ?? null,
      created_at: r.createdAt.toISOString(),
    })),
  };
}

/**
 * Disputes and provider refunds of a period (service days, both included): disputes opened in it, and
 * won or lost in it (by their closing time); refunds by their creation time.
 */
export async function paymentInsights(db: DbOrTx, from: string, to: string): Promise<PaymentInsights> {
  const start = serviceDayStart(from);
  const end = serviceDayStart(nextDay(to));
  const inPeriod = (column: typeof paymentDisputes.createdAt | typeof paymentDisputes.closedAt) =>
    and(gte(column, start), lt(column, end));
  const [opened, closed, refunds] = await Promise.all([
    db
      .select({
        currency: paymentDisputes.currency,
        n: sql<number>`count(*)::int`,
        amount: sql<string>`sum(${paymentDisputes.amount})::text`,
      })
      .from(paymentDisputes)
      .where(inPeriod(paymentDisputes.createdAt))
      .groupBy(paymentDisputes.currency),
    db
      .select({
        currency: paymentDisputes.currency,
        won: sql<number>`(count(*) filter (where ${paymentDisputes.status} = 'won'))::int`,
        lost: sql<number>`(count(*) filter (where ${paymentDisputes.status} = 'lost'))::int`,
        lostAmount: sql<string>`coalesce(sum(${paymentDisputes.amount}) filter (where ${paymentDisputes.status} = 'lost'), 0)::text`,
      })
      .from(paymentDisputes)
      .where(inPeriod(paymentDisputes.closedAt))
      .groupBy(paymentDisputes.currency),
    db
      .select({
        currency: paymentRefunds.currency,
        product: sql<number>`(count(*) filter (where ${paymentRefunds.source} = 'product' and ${paymentRefunds.status} = 'succeeded'))::int`,
        outside: sql<number>`(count(*) filter (where ${paymentRefunds.source} = 'outside'))::int`,
        failed: sql<number>`(count(*) filter (where ${paymentRefunds.status} in ('failed', 'unknown')))::int`,
        amount: sql<string>`coalesce(sum(${paymentRefunds.amount}) filter (where ${paymentRefunds.status} = 'succeeded'), 0)::text`,
      })
      .from(paymentRefunds)
      .where(and(gte(paymentRefunds.createdAt, start), lt(paymentRefunds.createdAt, end)))
      .groupBy(paymentRefunds.currency),
  ]);
  const currencies = [...new Set([...opened, ...closed].map((r) => r.currency))].sort();
  const sum = <T>(rows: T[], pick: (r: T) => number) => rows.reduce((s, r) => s + pick(r), 0);
  return {
    disputes: {
      opened: sum(opened, (r) => r.n),
      won: sum(closed, (r) => r.won),
      lost: sum(closed, (r) => r.lost),
      amounts: currencies.map((currency) => ({
        currency,
        disputed: formatMinor(Number(opened.find((r) => r.currency === currency)?.amount ?? 0), currency),
        lost: formatMinor(Number(closed.find((r) => r.currency === currency)?.lostAmount ?? 0), currency),
      })),
    },
    refunds: {
      throughProvider: sum(refunds, (r) => r.product),
      outside: sum(refunds, (r) => r.outside),
      failed: sum(refunds, (r) => r.failed),
      amounts: refunds
        .filter((r) => Number(r.amount) > 0)
        .map((r) => ({ currency: r.currency, refunded: formatMinor(Number(r.amount), r.currency) })),
    },
  };
}

function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
