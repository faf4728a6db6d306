import dayjs from 'dayjs';
import type {
  FinanceAnswer,
  FinanceFigure,
  FinanceOrdersAnswer,
  FinanceOrdersQuery,
  FinanceQuery,
  FinanceRow,
} from '../../shared/contracts/finance.js';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import { serviceDayStart } from '../../shared/dates.js';
import { STORED_REFUND_REASONS } from '../../shared/refund-reasons.js';
import type { SqlRunner } from '../db/client.js';

/**
 * The finance report (docs/product.md, "Finance report", decision 374): per service-time-zone day or month,
 * the synced balance transactions in USD by kind, and the government fees of the orders submitted in the
 * period. Every provider figure is a sum of stored transactions, so providerNet equals the sum of their
 * net to the cent. The SQL is exported as text so the benchmark can run exactly the same statements.
 * $1, $2: [from, to) instants; $3: 'day' | 'month'; $4: the time zone.
 */
const KIND = `case
    when t.type in ('charge', 'payment') then 'charge'
    when t.type in ('refund', 'payment_refund', 'payment_failure_refund') then 'refund'
    when t.reporting_category = 'dispute_reversal' then 'won'
    when t.reporting_category = 'dispute' or t.type = 'dispute' then 'dispute'
    else 'other' end`;

export const FINANCE_TRANSACTIONS_SQL = `
  select to_char(date_trunc($3, t.occurred_at at time zone $4), 'YYYY-MM-DD') as period,
         ${KIND} as kind,
         coalesce(o.refund_reason, case when t.order_id is null then 'unmatched' else 'unspecified' end) as reason,
         count(*)::int as n,
         sum(t.amount)::bigint as amount,
         sum(t.fee)::bigint as fee,
         sum(t.net)::bigint as net
  from payout_transactions t
  left join orders o on o.order_id = t.order_id
  where t.occurred_at >= $1 and t.occurred_at < $2 and t.currency = 'USD'
  group by 1, 2, 3`;

export const FINANCE_SUBMITTED_SQL = `
  select to_char(date_trunc($3, o.submitted_at at time zone $4), 'YYYY-MM-DD') as period, count(*)::int as n
  from orders o
  where o.submitted_at >= $1 and o.submitted_at < $2
  group by 1`;

export const FINANCE_OTHER_CURRENCIES_SQL = `
  select t.currency, count(*)::int as n, sum(t.amount)::bigint as amount, sum(t.fee)::bigint as fee,
         sum(t.net)::bigint as net
  from payout_transactions t
  where t.occurred_at >= $1 and t.occurred_at < $2 and t.currency <> 'USD'
  group by 1 order by 1`;

export const FINANCE_UNMATCHED_SQL = `
  select count(*)::int as n from payout_transactions t
  where t.occurred_at >= $1 and t.occurred_at < $2 and t.order_id is null`;

const emptyRow = (period: string): FinanceRow => ({
  period,
  paidOrders: 0,
  gross: 0,
  providerFees: 0,
  submittedOrders: 0,
  governmentFees: 0,
  refunds: 0,
  refundsByReason: {},
  disputes: { count: 0, amount: 0, fees: 0, wonBack: 0 },
  other: 0,
  providerNet: 0,
  net: 0,
  netPerOrder: null,
});

interface TxGroup {
  period: string;
  kind: 'charge' | 'refund' | 'won' | 'dispute' | 'other';
  reason: string;
  n: number;
  amount: string | number;
  fee: string | number;
  net: string | number;
}

function add(row: FinanceRow, g: TxGroup): void {
  const amount = Number(g.amount);
  const fee = Number(g.fee);
  row.providerFees += fee;
  row.providerNet += Number(g.net);
  if (g.kind === 'charge') {
    row.paidOrders += g.n;
    row.gross += amount;
  } else if (g.kind === 'refund') {
    row.refunds -= amount;
    row.refundsByReason[g.reason] = (row.refundsByReason[g.reason] ?? 0) - amount;
  } else if (g.kind === 'dispute') {
    row.disputes.count += g.n;
    row.disputes.amount -= amount;
    row.disputes.fees += fee;
  } else if (g.kind === 'won') {
    row.disputes.wonBack += amount;
    row.disputes.fees += fee;
  } else {
    row.other += amount;
  }
}

function finish(row: FinanceRow, govFeeCents: number): FinanceRow {
  row.governmentFees = row.submittedOrders * govFeeCents;
  row.net = row.providerNet - row.governmentFees;
  row.netPerOrder = row.paidOrders ? Math.round(row.net / row.paidOrders) : null;
  return row;
}

/** The periods of the range, first to last ('YYYY-MM-DD' of the day or of the month's first day). */
function periodsOf(q: FinanceQuery): string[] {
  const out: string[] = [];
  const unit = q.group;
  let d = dayjs(q.from).startOf(unit);
  const last = dayjs(q.to);
  while (!d.isAfter(last)) {
    out.push(d.format('YYYY-MM-DD'));
    d = d.add(1, unit);
  }
  return out;
}

export async function financeReport(
  sql: SqlRunner,
  q: FinanceQuery,
  govFeeCents: number,
): Promise<FinanceAnswer> {
  const from = serviceDayStart(q.from);
  const until = serviceDayStart(dayjs(q.to).add(1, 'day').format('YYYY-MM-DD'));
  const params = [from, until, q.group, SERVICE_TIME_ZONE];
  const [groups, submitted, others, unmatched] = await Promise.all([
    sql.query<TxGroup>(FINANCE_TRANSACTIONS_SQL, params),
    sql.query<{ period: string; n: number }>(FINANCE_SUBMITTED_SQL, params),
    sql.query<{ currency: string; n: number; amount: string; fee: string; net: string }>(
      FINANCE_OTHER_CURRENCIES_SQL,
      [from, until],
    ),
    sql.query<{ n: number }>(FINANCE_UNMATCHED_SQL, [from, until]),
  ]);
  const rows = new Map(periodsOf(q).map((p) => [p, emptyRow(p)] as const));
  const rowOf = (p: string) => {
    const found = rows.get(p);
    if (found) return found;
    const r = emptyRow(p);
    rows.set(p, r);
    return r;
  };
  const totals = emptyRow('total');
  for (const g of groups.rows) {
    add(rowOf(g.period), g);
    add(totals, g);
  }
  for (const s of submitted.rows) {
    rowOf(s.period).submittedOrders += s.n;
    totals.submittedOrders += s.n;
  }
  const periods = [...rows.values()]
    .sort((a, b) => a.period.localeCompare(b.period))
    .map((r) => finish(r, govFeeCents));
  return {
    currency: 'USD',
    group: q.group,
    from: q.from,
    to: q.to,
    govFeeCents,
    periods,
    totals: finish(totals, govFeeCents),
    otherCurrencies: others.rows.map((r) => ({
      currency: r.currency,
      transactions: r.n,
      amount: Number(r.amount),
      fees: Number(r.fee),
      net: Number(r.net),
    })),
    unmatched: unmatched.rows[0]?.n ?? 0,
  };
}

/**
 * What each figure of the report sums per transaction (`value`) and which transactions it takes
 * (`where`, over the columns of financeItemsSql's `tx`); `gov` adds each order submitted in the range
 * with the government fee times the sign. Constant text only: the figure is a checked enum.
 */
const FIGURE_SQL: Record<FinanceFigure, { value: string; where: string; gov?: 1 | -1 }> = {
  gross: { value: 'amount', where: "kind = 'charge'" },
  providerFees: { value: 'fee', where: 'fee <> 0' },
  governmentFees: { value: '0', where: 'false', gov: 1 },
  refunds: { value: '-amount', where: "kind = 'refund'" },
  disputes: { value: '-amount', where: "kind = 'dispute'" },
  disputeFees: { value: 'fee', where: "kind in ('dispute', 'won') and fee <> 0" },
  wonBack: { value: 'amount', where: "kind = 'won'" },
  other: { value: 'amount', where: "kind = 'other'" },
  net: { value: 'net', where: 'true', gov: -1 },
};

/**
 * The entries behind one figure, summed per order (order_id null: the unmatched transactions).
 * $1, $2: [from, to) instants; $3: a refund reason or null. The government fee (whole cents from the
 * configuration) is written into the text.
 */
export function financeItemsSql(figure: FinanceFigure, govFeeCents: number): string {
  const f = FIGURE_SQL[figure];
  if (!Number.isSafeInteger(govFeeCents)) throw new Error('GOV_FEE_CENTS must be whole cents');
  const gov = f.gov
    ? `union all
      select o.order_id, 1, ${f.gov * govFeeCents}::bigint from orders o
      where o.submitted_at >= $1 and o.submitted_at < $2`
    : '';
  return `
  with tx as (
    select t.order_id, ${KIND} as kind, t.amount, t.fee, t.net,
           coalesce(o.refund_reason, case when t.order_id is null then 'unmatched' else 'unspecified' end) as reason
    from payout_transactions t
    left join orders o on o.order_id = t.order_id
    where t.occurred_at >= $1 and t.occurred_at < $2 and t.currency = 'USD'
  ), items as (
    select order_id, 1 as n, (${f.value})::bigint as amount from tx
    where (${f.where}) and ($3::text is null or reason = $3::text)
    ${gov}
  )
  select order_id, sum(n)::int as n, sum(amount)::bigint as amount from items group by order_id`;
}

/** The orders behind one figure of the report for [from, to] (days of the service time zone). */
export async function financeOrders(
  sql: SqlRunner,
  q: FinanceOrdersQuery,
  govFeeCents: number,
): Promise<FinanceOrdersAnswer> {
  const from = serviceDayStart(q.from);
  const until = serviceDayStart(dayjs(q.to).add(1, 'day').format('YYYY-MM-DD'));
  const params = [from, until, q.reason ?? null];
  const per = financeItemsSql(q.figure, govFeeCents);
  const [listed, sums] = await Promise.all([
    sql.query<{ order_id: number; n: number; amount: string; name: string; status: string }>(
      `select p.order_id, p.n, p.amount, trim(o.first_name || ' ' || o.last_name) as name,
              o.process_status as status
       from (${per}) p join orders o on o.order_id = p.order_id
       order by abs(p.amount) desc, p.order_id
       limit $4`,
      [...params, q.limit],
    ),
    sql.query<{ matched: boolean; orders: number; n: number; amount: string }>(
      `select p.order_id is not null as matched, count(*)::int as orders, coalesce(sum(p.n), 0)::int as n,
              coalesce(sum(p.amount), 0)::bigint as amount
       from (${per}) p group by 1`,
      params,
    ),
  ]);
  const matched = sums.rows.find((r) => r.matched);
  const unmatched = sums.rows.find((r) => !r.matched);
  const orderTotal = Number(matched?.amount ?? 0);
  const unmatchedAmount = Number(unmatched?.amount ?? 0);
  return {
    figure: q.figure,
    reason: q.reason ?? null,
    from: q.from,
    to: q.to,
    orders: listed.rows.map((r) => ({
      orderId: Number(r.order_id),
      name: r.name,
      status: r.status,
      entries: r.n,
      amount: Number(r.amount),
    })),
    orderCount: matched?.orders ?? 0,
    orderTotal,
    unmatched: { entries: unmatched?.n ?? 0, amount: unmatchedAmount },
    figureTotal: orderTotal + unmatchedAmount,
  };
}

const REASON_COLUMNS = [...STORED_REFUND_REASONS, 'unmatched'] as const;

/** The report as CSV (one line per period and a total line); amounts in cents. */
export function financeCsv(answer: FinanceAnswer): string {
  const head = [
    'period',
    'paid_orders',
    'gross_cents',
    'provider_fees_cents',
    'submitted_orders',
    'government_fees_cents',
    'refunds_cents',
    ...REASON_COLUMNS.map((r) => `refunds_${r}_cents`),
    'disputes',
    'disputes_cents',
    'dispute_fees_cents',
    'disputes_won_back_cents',
    'other_cents',
    'provider_net_cents',
    'net_cents',
    'net_per_order_cents',
  ];
  const line = (r: FinanceRow) =>
    [
      r.period,
      r.paidOrders,
      r.gross,
      r.providerFees,
      r.submittedOrders,
      r.governmentFees,
      r.refunds,
      ...REASON_COLUMNS.map((k) => r.refundsByReason[k] ?? 0),
      r.disputes.count,
      r.disputes.amount,
      r.disputes.fees,
      r.disputes.wonBack,
      r.other,
      r.providerNet,
      r.net,
      r.netPerOrder ?? '',
    ].join(',');
  return `${[head.join(','), ...answer.periods.map(line), line(answer.totals)].join('\r\n')}\r\n`;
}
