import { sql } from 'drizzle-orm';
import type {
  DisputeBand,
  DisputesAnswer,
  NetworkDisputes,
  PaymentPolicy,
} from '../../shared/contracts/payment-risk.js';
import { serviceToday } from '../../shared/dates.js';
import type { DbOrTx } from '../db/client.js';
import { readPaymentPolicy } from './policy.js';
import { NETWORKS, type Network, networkOf } from './stripe-risk.js';

/**
 * The ratios the card networks watch (docs/product.md, "Dispute ratios", decision 373), per network and
 * month of the service time zone (America/New_York: a month starts at its midnight there): Visa-style (disputes + early fraud warnings of the month) / settled charges of the month,
 * Mastercard-style disputes of the month / settled charges of the previous month, each in percent with
 * a band by the payment policy's thresholds. A settled charge is a paid order (amount above 0) made in
 * the month; its network is the charge's card brand from the provider's events, else the intake's.
 */

/** Stripe's fee per dispute, in cents (the estimate until payouts are synced). */
export const DISPUTE_FEE_CENTS = 1500;

/** 'YYYY-MM' plus n months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return d.toISOString().slice(0, 7);
}

/** The month (YYYY-MM) of that moment in the service time zone. */
export const currentMonth = (now = new Date()) => serviceToday(now).slice(0, 7);

export function bandOf(
  ratio: number | null,
  policy: Pick<PaymentPolicy, 'disputeWatchPercent' | 'disputeExcessivePercent'>,
): DisputeBand {
  if (ratio === null) return 'ok';
  if (ratio >= policy.disputeExcessivePercent) return 'excessive';
  if (ratio >= policy.disputeWatchPercent) return 'watch';
  return 'ok';
}

const RANK: Record<DisputeBand, number> = { ok: 0, watch: 1, excessive: 2 };
export const worst = (bands: DisputeBand[]): DisputeBand =>
  bands.reduce<DisputeBand>((a, b) => (RANK[b] > RANK[a] ? b : a), 'ok');

const ratio = (num: number, den: number) =>
  den > 0 ? Math.round((num / den) * 100 * 10_000) / 10_000 : null;

interface Cell {
  settled: number;
  cents: number;
  disputes: number;
  disputeCents: number;
  byReason: Record<string, number>;
  warnings: number;
  won: number;
  lost: number;
}
const emptyCell = (): Cell => ({
  settled: 0,
  cents: 0,
  disputes: 0,
  disputeCents: 0,
  byReason: {},
  warnings: 0,
  won: 0,
  lost: 0,
});

/**
 * Every figure by month and network over [from, to) months, from the monthly counters
 * (dispute_month_counts, drizzle/0104): per service-time month and brand as stored, kept by the triggers
 * of the orders, charges, disputes and warnings in the transaction of each change. A disputes figure
 * is kept per reason; every other figure under the reason ''.
 */
async function cells(db: DbOrTx, from: string, to: string): Promise<Map<string, Cell>> {
  const out = new Map<string, Cell>();
  const { rows } = await db.execute<{
    m: string;
    brand: string;
    reason: string;
    settled: number;
    cents: string;
    disputes: number;
    dispute_cents: string;
    warnings: number;
    won: number;
    lost: number;
  }>(sql`
    select to_char(month, 'YYYY-MM') as m, brand, reason, settled, settled_cents::text as cents, disputes,
           dispute_cents::text as dispute_cents, warnings, won, lost
    from dispute_month_counts
    where month >= ${`${from}-01`}::date and month < ${`${to}-01`}::date`);
  for (const r of rows) {
    const key = `${r.m}|${networkOf(r.brand)}`;
    const c = out.get(key) ?? emptyCell();
    out.set(key, c);
    c.settled += Number(r.settled);
    c.cents += Number(r.cents);
    const disputes = Number(r.disputes);
    c.disputes += disputes;
    c.disputeCents += Number(r.dispute_cents);
    if (disputes !== 0) c.byReason[r.reason] = (c.byReason[r.reason] ?? 0) + disputes;
    c.warnings += Number(r.warnings);
    c.won += Number(r.won);
    c.lost += Number(r.lost);
  }
  return out;
}

function figures(network: string, now: Cell, previous: Cell, policy: PaymentPolicy): NetworkDisputes {
  const visaRatio = ratio(now.disputes + now.warnings, now.settled);
  const mastercardRatio = ratio(now.disputes, previous.settled);
  return {
    network,
    settledCount: now.settled,
    settledCents: now.cents,
    previousSettledCount: previous.settled,
    disputeCount: now.disputes,
    disputeCents: now.disputeCents,
    disputesByReason: now.byReason,
    fraudWarnings: now.warnings,
    won: now.won,
    lost: now.lost,
    feeCents: now.disputes * DISPUTE_FEE_CENTS,
    visaRatio,
    visaBand: bandOf(visaRatio, policy),
    mastercardRatio,
    mastercardBand: bandOf(mastercardRatio, policy),
  };
}

function sum(cellsOf: Cell[]): Cell {
  const total = emptyCell();
  for (const c of cellsOf) {
    total.settled += c.settled;
    total.cents += c.cents;
    total.disputes += c.disputes;
    total.disputeCents += c.disputeCents;
    total.warnings += c.warnings;
    total.won += c.won;
    total.lost += c.lost;
    for (const [k, v] of Object.entries(c.byReason)) total.byReason[k] = (total.byReason[k] ?? 0) + v;
  }
  return total;
}

/**
 * The month's band and its figures in all, read from that month and the one before only (what the
 * band needs): the check after each dispute or warning does not recount a year of orders.
 */
export async function disputeBand(
  db: DbOrTx,
  month: string,
): Promise<Pick<DisputesAnswer, 'band' | 'total'>> {
  const policy = await readPaymentPolicy(db);
  const prev = addMonths(month, -1);
  const two = await cells(db, prev, addMonths(month, 1));
  const get = (m: string, n: Network) => two.get(`${m}|${n}`) ?? emptyCell();
  const networks = NETWORKS.map((n) => figures(n, get(month, n), get(prev, n), policy));
  const total = figures(
    'all',
    sum(NETWORKS.map((n) => get(month, n))),
    sum(NETWORKS.map((n) => get(prev, n))),
    policy,
  );
  return { band: worst(networks.flatMap((f) => [f.visaBand, f.mastercardBand])), total };
}

/** The month's figures per network and in all, with the 12 months up to it (all networks). */
export async function disputeRatios(db: DbOrTx, month: string): Promise<DisputesAnswer> {
  const policy = await readPaymentPolicy(db);
  const first = addMonths(month, -12);
  const all = await cells(db, first, addMonths(month, 1));
  const get = (m: string, n: Network) => all.get(`${m}|${n}`) ?? emptyCell();
  const prev = addMonths(month, -1);
  const networks = NETWORKS.map((n) => figures(n, get(month, n), get(prev, n), policy));
  const total = figures(
    'all',
    sum(NETWORKS.map((n) => get(month, n))),
    sum(NETWORKS.map((n) => get(prev, n))),
    policy,
  );
  const bandOfMonth = (list: NetworkDisputes[]) => worst(list.flatMap((f) => [f.visaBand, f.mastercardBand]));
  const history = Array.from({ length: 12 }, (_, i) => {
    const m = addMonths(month, i - 11);
    const p = addMonths(m, -1);
    const perNetwork = NETWORKS.map((n) => figures(n, get(m, n), get(p, n), policy));
    const t = figures(
      'all',
      sum(NETWORKS.map((n) => get(m, n))),
      sum(NETWORKS.map((n) => get(p, n))),
      policy,
    );
    return {
      month: m,
      visaRatio: t.visaRatio,
      mastercardRatio: t.mastercardRatio,
      band: bandOfMonth(perNetwork),
    };
  });
  return {
    month,
    watchPercent: policy.disputeWatchPercent,
    excessivePercent: policy.disputeExcessivePercent,
    networks,
    total,
    band: bandOfMonth(networks),
    history,
  };
}
