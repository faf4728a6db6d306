import { sql } from 'drizzle-orm';
import type {
  DisputeBand,
  DisputesAnswer,
  NetworkDisputes,
  PaymentPolicy,
} from '../../shared/contracts/payment-risk.js';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import { serviceDayStart, serviceToday } from '../../shared/dates.js';
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

const BRAND_OF = (orderAlias: string) =>
  sql.raw(
    `coalesce((select pc.brand from payment_charges pc where pc.order_id = ${orderAlias}.order_id order by pc.id limit 1), ${orderAlias}.card_brand, 'other')`,
  );

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

/** Every figure by month and network over [from, to) months. */
async function cells(db: DbOrTx, from: string, to: string): Promise<Map<string, Cell>> {
  const start = serviceDayStart(`${from}-01`).toISOString();
  const end = serviceDayStart(`${to}-01`).toISOString();
  const tz = SERVICE_TIME_ZONE;
  const out = new Map<string, Cell>();
  const cell = (m: string, brand: string | null) => {
    const key = `${m}|${networkOf(brand)}`;
    const c = out.get(key) ?? emptyCell();
    out.set(key, c);
    return c;
  };
  const settled = await db.execute<{ m: string; brand: string; n: string; cents: string }>(sql`
    select to_char(o.created_at at time zone ${tz}, 'YYYY-MM') as m, ${BRAND_OF('o')} as brand,
           count(*)::text as n,
           coalesce(sum(round(o.amount * 100)) filter (where o.currency = 'USD'), 0)::bigint::text as cents
    from orders o
    where o.amount > 0 and o.created_at >= ${start}::timestamptz and o.created_at < ${end}::timestamptz
    group by 1, 2`);
  for (const r of settled.rows) {
    const c = cell(r.m, r.brand);
    c.settled += Number(r.n);
    c.cents += Number(r.cents);
  }
  const disputes = await db.execute<{
    m: string;
    brand: string;
    reason: string | null;
    n: string;
    cents: string;
  }>(sql`
    select to_char(d.created_at at time zone ${tz}, 'YYYY-MM') as m, ${BRAND_OF('o')} as brand,
           d.reason, count(*)::text as n,
           coalesce(sum(d.amount) filter (where d.currency = 'USD'), 0)::bigint::text as cents
    from payment_disputes d join orders o on o.order_id = d.order_id
    where d.created_at >= ${start}::timestamptz and d.created_at < ${end}::timestamptz
    group by 1, 2, 3`);
  for (const r of disputes.rows) {
    const c = cell(r.m, r.brand);
    c.disputes += Number(r.n);
    c.disputeCents += Number(r.cents);
    const reason = r.reason ?? 'unknown';
    c.byReason[reason] = (c.byReason[reason] ?? 0) + Number(r.n);
  }
  const warnings = await db.execute<{ m: string; brand: string; n: string }>(sql`
    select to_char(w.created_at at time zone ${tz}, 'YYYY-MM') as m, ${BRAND_OF('o')} as brand, count(*)::text as n
    from payment_fraud_warnings w join orders o on o.order_id = w.order_id
    where w.created_at >= ${start}::timestamptz and w.created_at < ${end}::timestamptz
    group by 1, 2`);
  for (const r of warnings.rows) cell(r.m, r.brand).warnings += Number(r.n);
  const closed = await db.execute<{ m: string; brand: string; status: string; n: string }>(sql`
    select to_char(d.closed_at at time zone ${tz}, 'YYYY-MM') as m, ${BRAND_OF('o')} as brand, d.status,
           count(*)::text as n
    from payment_disputes d join orders o on o.order_id = d.order_id
    where d.closed_at >= ${start}::timestamptz and d.closed_at < ${end}::timestamptz
      and d.status in ('won', 'lost')
    group by 1, 2, 3`);
  for (const r of closed.rows) {
    const c = cell(r.m, r.brand);
    if (r.status === 'won') c.won += Number(r.n);
    else c.lost += Number(r.n);
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
