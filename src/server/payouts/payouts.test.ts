import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/app.js';
import { syncPayouts } from '../flows/payout-sync.js';
import { createOrders } from '../test/factories.js';
import { stripeTestApp } from '../test/stripe-app.js';

/**
 * The payout sync against the local Stripe double (payouts and balance transactions, paginated) and the
 * finance report computed from what it stored (docs/product.md, "Finance report").
 */

const stripeApp = stripeTestApp({ STRIPE_SECRET_KEY: 'sk_test_payouts', GOV_FEE_CENTS: '2000' });
const AT = Math.floor(new Date('2025-03-10T15:00:00Z').getTime() / 1000);
let seq = 0;
const id = (prefix: string) => `${prefix}_${(++seq).toString().padStart(6, '0')}`;

type Txn = Record<string, unknown> & {
  amount: number;
  fee: number;
  net: number;
  currency: string;
  type: string;
};
const txn = (
  type: string,
  amount: number,
  fee: number,
  source: Record<string, unknown> | string | null,
  extra: Record<string, unknown> = {},
): Txn => ({
  id: id('txn'),
  object: 'balance_transaction',
  amount,
  fee,
  net: amount - fee,
  currency: 'usd',
  type,
  reporting_category: type === 'charge' ? 'charge' : type === 'refund' ? 'refund' : 'other_adjustment',
  created: AT,
  available_on: AT + 86400 * 2,
  status: 'available',
  source,
  ...extra,
});
const payout = (pid: string, amount: number, currency = 'usd') => ({
  id: pid,
  object: 'payout',
  amount,
  currency,
  status: 'paid',
  arrival_date: AT + 86400 * 3,
  created: AT + 86400,
});

const q = async <T>(t: TestApp, text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;

/** The fixture: a payout of 250 transactions (charges, refunds, disputes and their fees, a reversal, unmatched charges) and a small one. */
async function fixture(t: TestApp) {
  const orders = await createOrders(t.database, 200, {
    created_at: new Date('2025-03-09T15:00:00Z'),
    amount: 59,
  });
  const charges: string[] = [];
  for (const [i, o] of orders.entries()) {
    // Ten orders name their payment intent; the rest their charge.
    const charge = id('ch');
    charges.push(charge);
    const ref = i < 10 ? id('pi') : charge;
    const reason = i >= 150 && i < 170 ? 'customer_request' : i >= 170 && i < 180 ? 'duplicate' : null;
    await q(
      t,
      `update orders set transaction_id = $2, refund_reason = $3,
         submitted_at = case when $4 then '2025-03-12T15:00:00Z'::timestamptz else null end where order_id = $1`,
      [o.orderId, ref, reason, i < 50],
    );
    if (i < 10) (orders[i] as { transactionId: string | null }).transactionId = ref;
  }
  const big: Txn[] = [];
  for (const [i, o] of orders.entries()) {
    const source =
      i < 10
        ? { id: charges[i], object: 'charge', payment_intent: o.transactionId }
        : { id: charges[i], object: 'charge', payment_intent: null };
    big.push(txn('charge', 5900, 201, source));
  }
  for (let i = 150; i < 180; i++) {
    big.push(txn('refund', -5900, 0, { id: id('re'), object: 'refund', charge: charges[i] }));
  }
  for (let i = 180; i < 190; i++) {
    big.push(
      txn(
        'adjustment',
        -5900,
        1500,
        { id: id('dp'), object: 'dispute', charge: charges[i] },
        {
          reporting_category: 'dispute',
        },
      ),
    );
  }
  for (let i = 180; i < 184; i++) {
    big.push(
      txn(
        'adjustment',
        5900,
        -1500,
        { id: id('dp'), object: 'dispute', charge: charges[i] },
        {
          reporting_category: 'dispute_reversal',
        },
      ),
    );
  }
  for (let i = 0; i < 5; i++) big.push(txn('charge', 3000, 117, { id: id('ch'), object: 'charge' }));
  const bigNet = big.reduce((s, x) => s + x.net, 0);
  big.push(txn('payout', -bigNet, 0, 'po_big', { reporting_category: 'payout' }));
  const small: Txn[] = [
    txn('charge', 4000, 150, { id: id('ch'), object: 'charge' }, { currency: 'eur' }),
    txn('charge', 4000, 150, { id: id('ch'), object: 'charge' }, { currency: 'eur' }),
    txn('charge', 4000, 150, { id: id('ch'), object: 'charge' }, { currency: 'eur' }),
    txn('adjustment', -100, 0, null),
    txn('adjustment', -100, 0, null),
  ];
  stripeApp.stripe.payouts.push(payout('po_big', bigNet), payout('po_small', 0));
  stripeApp.stripe.balanceTransactions.set('po_big', big);
  stripeApp.stripe.balanceTransactions.set('po_small', small);
  return { orders, big, small };
}

const sync = (t: TestApp, role: Parameters<TestApp['as']>[0] = 'Admin') =>
  t.as(role, { method: 'POST', url: '/api/admin/payouts/sync' });

describe('payout sync and the finance report', () => {
  let fx: Awaited<ReturnType<typeof fixture>>;

  it('POST /api/admin/payouts/sync stores every transaction of a 250-transaction payout, page by page', async () => {
    const { t } = stripeApp;
    fx = await fixture(t);
    expect(fx.big).toHaveLength(250);
    const res = await sync(t);
    expect(res.statusCode, res.body).toBe(200);
    // 249 of the big payout (its own payout transaction is no income) and 5 of the small one.
    expect(res.json().data).toEqual({
      payouts: 2,
      transactions: 254,
      stored: 254,
      matched: 244,
      complete: true,
    });
    const pages = stripeApp.stripe.requests.filter(
      (r) => r.path === '/v1/balance_transactions' && r.form.payout === 'po_big',
    );
    expect(pages.map((r) => r.form.starting_after ?? null)).toEqual([null, fx.big[99]!.id, fx.big[199]!.id]);
    expect(pages.every((r) => r.form.limit === '100')).toBe(true);
    const [counts] = await q<{ n: number; fee: number; net: number }>(
      t,
      `select count(*)::int as n, sum(fee)::int as fee, sum(net)::int as net from payout_transactions where payout_id = 'po_big'`,
    );
    expect(counts).toEqual({
      n: 249,
      fee: 49_785,
      net: fx.big.slice(0, 249).reduce((sum, x) => sum + x.net, 0),
    });
  });

  it('is idempotent: the same payouts synced again store nothing new, even when read again from the provider', async () => {
    const { t } = stripeApp;
    const again = await sync(t);
    expect(again.json().data).toMatchObject({ payouts: 2, stored: 0, complete: true });
    await q(t, `update provider_payouts set synced_at = null`);
    const reread = await sync(t);
    expect(reread.json().data).toMatchObject({ transactions: 254, stored: 0, complete: true });
    const [n] = await q<{ n: number }>(t, `select count(*)::int as n from payout_transactions`);
    expect(n!.n).toBe(254);
  });

  it('matches each transaction to its order by charge or payment intent; the rest are listed as unmatched', async () => {
    const { t } = stripeApp;
    const [byIntent] = await q<{ order_id: string }>(
      t,
      `select order_id from payout_transactions where type = 'charge' and source_id = $1`,
      [(fx.big[0]!.source as { id: string }).id],
    );
    expect(Number(byIntent!.order_id)).toBe(fx.orders[0]!.orderId);
    const [refund] = await q<{ order_id: string }>(
      t,
      `select order_id from payout_transactions where transaction_id = $1`,
      [fx.big[200]!.id],
    );
    expect(Number(refund!.order_id)).toBe(fx.orders[150]!.orderId);
    const res = await t.as('Admin', { method: 'GET', url: '/api/admin/payouts/unmatched' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as { transactionId: string; currency: string }[];
    expect(rows).toHaveLength(10);
    const expected = [...fx.big.slice(244, 249), ...fx.small].map((x) => x.id).sort();
    expect(rows.map((r) => r.transactionId).sort()).toEqual(expected);
    const limited = await t.as('Admin', { method: 'GET', url: '/api/admin/payouts/unmatched?limit=3' });
    expect(limited.json().data).toHaveLength(3);
  });

  it('GET /api/admin/reports/finance: totals equal the synced transactions to the cent, figures by hand', async () => {
    const { t } = stripeApp;
    const res = await t.as('Manager', {
      method: 'GET',
      url: '/api/admin/reports/finance?from=2025-03-01&to=2025-03-31&group=month',
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const usd = [...fx.big.slice(0, 249), ...fx.small.slice(3)];
    const synced = usd.reduce((s, x) => s + x.net, 0);
    expect(data.totals.providerNet).toBe(synced);
    expect(data.totals).toEqual({
      period: 'total',
      paidOrders: 205,
      gross: 1_195_000,
      providerFees: 49_785,
      submittedOrders: 50,
      governmentFees: 100_000,
      refunds: 177_000,
      refundsByReason: { customer_request: 118_000, duplicate: 59_000 },
      disputes: { count: 10, amount: 59_000, fees: 9_000, wonBack: 23_600 },
      other: -200,
      providerNet: 932_615,
      net: 832_615,
      netPerOrder: 4062,
    });
    expect(data.periods).toHaveLength(1);
    expect(data.periods[0]).toEqual({ ...data.totals, period: '2025-03-01' });
    expect(data.otherCurrencies).toEqual([
      { currency: 'EUR', transactions: 3, amount: 12_000, fees: 450, net: 11_550 },
    ]);
    expect(data.unmatched).toBe(10);

    const days = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/reports/finance?from=2025-03-09&to=2025-03-12&group=day',
    });
    const periods = days.json().data.periods as {
      period: string;
      providerNet: number;
      governmentFees: number;
    }[];
    expect(periods.map((p) => p.period)).toEqual(['2025-03-09', '2025-03-10', '2025-03-11', '2025-03-12']);
    expect(periods[1]!.providerNet).toBe(synced);
    expect(periods[3]!.governmentFees).toBe(100_000);
    expect(periods.reduce((s, p) => s + p.providerNet, 0)).toBe(days.json().data.totals.providerNet);
  });

  it('GET /api/admin/reports/finance/export: the same figures as CSV', async () => {
    const { t } = stripeApp;
    const res = await t.as('Manager', {
      method: 'GET',
      url: '/api/admin/reports/finance/export?from=2025-03-01&to=2025-03-31&group=month',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    const head = lines[0]!.split(',');
    const total = Object.fromEntries(lines[2]!.split(',').map((v, i) => [head[i], v]));
    expect(total).toMatchObject({
      period: 'total',
      gross_cents: '1195000',
      provider_fees_cents: '49785',
      government_fees_cents: '100000',
      refunds_customer_request_cents: '118000',
      provider_net_cents: '932615',
      net_cents: '832615',
    });
  });

  it('GET /api/admin/reports/finance/orders: every figure lists the orders behind it, summing to the figure', async () => {
    const { t } = stripeApp;
    const range = 'from=2025-03-01&to=2025-03-31';
    const report = (
      await t.as('Manager', { method: 'GET', url: `/api/admin/reports/finance?${range}` })
    ).json().data.totals;
    const figures: Record<string, number> = {
      gross: report.gross,
      providerFees: report.providerFees,
      governmentFees: report.governmentFees,
      refunds: report.refunds,
      disputes: report.disputes.amount,
      disputeFees: report.disputes.fees,
      wonBack: report.disputes.wonBack,
      other: report.other,
      net: report.net,
    };
    const behind = async (query: string) => {
      const res = await t.as('Manager', { method: 'GET', url: `/api/admin/reports/finance/orders?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data;
    };
    for (const [figure, value] of Object.entries(figures)) {
      const data = await behind(`${range}&figure=${figure}&limit=1000`);
      expect(data.figureTotal, figure).toBe(value);
      const listed = data.orders.reduce((s: number, o: { amount: number }) => s + o.amount, 0);
      expect(listed, figure).toBe(data.orderTotal);
      expect(data.orderTotal + data.unmatched.amount, figure).toBe(value);
    }
    // By hand: 200 matched charges and 5 unmatched ones; 50 submissions at $20; 20 refunds for the
    // customer's request; 10 disputes on orders 180-189, 4 of them won back.
    const gross = await behind(`${range}&figure=gross`);
    expect(gross).toMatchObject({
      orderCount: 200,
      orderTotal: 1_180_000,
      unmatched: { entries: 5, amount: 15_000 },
    });
    expect(gross.orders[0]).toMatchObject({ entries: 1, amount: 5900, status: expect.any(String) });
    const gov = await behind(`${range}&figure=governmentFees`);
    expect(gov).toMatchObject({ orderCount: 50, orderTotal: 100_000, unmatched: { entries: 0, amount: 0 } });
    expect(new Set(gov.orders.map((o: { orderId: number }) => o.orderId))).toEqual(
      new Set(fx.orders.slice(0, 50).map((o) => o.orderId)),
    );
    const requested = await behind(`${range}&figure=refunds&reason=customer_request`);
    expect(requested).toMatchObject({ orderCount: 20, figureTotal: report.refundsByReason.customer_request });
    expect(new Set(requested.orders.map((o: { orderId: number }) => o.orderId))).toEqual(
      new Set(fx.orders.slice(150, 170).map((o) => o.orderId)),
    );
    const disputes = await behind(`${range}&figure=disputes`);
    expect(disputes).toMatchObject({ orderCount: 10, orderTotal: 59_000 });
    const won = await behind(`${range}&figure=wonBack`);
    expect(won.orders.map((o: { orderId: number }) => o.orderId).sort()).toEqual(
      fx.orders
        .slice(180, 184)
        .map((o) => o.orderId)
        .sort(),
    );
    // A day with nothing behind it, and the limit.
    expect(await behind('from=2025-03-01&to=2025-03-01&figure=gross')).toMatchObject({
      orders: [],
      orderCount: 0,
      figureTotal: 0,
    });
    const two = await behind(`${range}&figure=net&limit=2`);
    expect(two.orders).toHaveLength(2);
    expect(two.orderCount).toBe(200);
  });

  it('GET /api/admin/reports/finance/orders: a whole valid query with one hostile field answers 400; roles', async () => {
    const { t } = stripeApp;
    const before = await q<{ n: number; s: string }>(
      t,
      `select count(*)::int as n, sum(net)::text as s from payout_transactions`,
    );
    const valid = {
      from: '2025-03-01',
      to: '2025-03-31',
      figure: 'refunds',
      reason: 'duplicate',
      limit: '10',
    };
    const url = (v: Record<string, string>) =>
      `/api/admin/reports/finance/orders?${new URLSearchParams(v).toString()}`;
    const ok = await t.as('Admin', { method: 'GET', url: url(valid) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ orderCount: 10, figureTotal: 59_000 });
    const hostile: Record<string, string>[] = [
      { ...valid, figure: "gross'; drop table orders; --" },
      { ...valid, figure: 'amount' },
      { ...valid, reason: 'x'.repeat(5000) },
      { ...valid, reason: 'unspecified\u0000' },
      { ...valid, figure: 'gross' },
      { ...valid, limit: '0' },
      { ...valid, limit: '1001' },
      { ...valid, limit: '1e9' },
      { ...valid, from: '2025-02-30' },
      { ...valid, to: '2025-02-01' },
      { ...valid, to: '2035-03-01' },
      { ...valid, extra: '1' },
    ];
    for (const v of hostile) {
      const res = await t.as('Admin', { method: 'GET', url: url(v) });
      expect(res.statusCode, JSON.stringify(v).slice(0, 120)).toBe(400);
      expect(res.json().message ?? res.body).toBeTruthy();
    }
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await t.as(role, { method: 'GET', url: url(valid) })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: url(valid) })).statusCode).toBe(401);
    const after = await q<{ n: number; s: string }>(
      t,
      `select count(*)::int as n, sum(net)::text as s from payout_transactions`,
    );
    expect(after).toEqual(before);
  });

  it('roles: Team is refused every route; Manager reads the report but neither syncs nor lists', async () => {
    const { t } = stripeApp;
    const report = '/api/admin/reports/finance?from=2025-03-01&to=2025-03-31';
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await sync(t, role)).statusCode).toBe(403);
      expect((await t.as(role, { method: 'GET', url: '/api/admin/payouts/unmatched' })).statusCode).toBe(403);
      expect((await t.as(role, { method: 'GET', url: report })).statusCode).toBe(403);
      expect(
        (await t.as(role, { method: 'GET', url: report.replace('finance?', 'finance/export?') })).statusCode,
      ).toBe(403);
    }
    expect((await sync(t, 'Manager')).statusCode).toBe(403);
    expect((await t.as('Manager', { method: 'GET', url: '/api/admin/payouts/unmatched' })).statusCode).toBe(
      403,
    );
    const anonymous = await t.app.inject({ method: 'GET', url: report });
    expect(anonymous.statusCode).toBe(401);
  });

  it('hostile query values answer 400 and change nothing', async () => {
    const { t } = stripeApp;
    const before = await q<{ n: number }>(t, `select count(*)::int as n from payout_transactions`);
    const bad = [
      'from=2025-03-01%00&to=2025-03-31',
      'from=2025-03-01&to=2025-02-01',
      'from=2025-03-01&to=2035-03-01',
      'from=2025-13-01&to=2025-12-31',
      'from=2025-03-01&to=2025-03-31&group=week',
      'from=2025-03-01&to=2025-03-31&group=day%27%3B%20drop%20table%20orders',
      'from=2025-03-01&to=2025-03-31&extra=1',
      `from=${'9'.repeat(5000)}&to=2025-03-31`,
      'to=2025-03-31',
    ];
    for (const query of bad) {
      const res = await t.as('Admin', { method: 'GET', url: `/api/admin/reports/finance?${query}` });
      expect(res.statusCode, query).toBe(400);
    }
    for (const limit of ['0', '-1', '501', '1e9', 'x', '1%00']) {
      const res = await t.as('Admin', { method: 'GET', url: `/api/admin/payouts/unmatched?limit=${limit}` });
      expect(res.statusCode, limit).toBe(400);
    }
    const after = await q<{ n: number }>(t, `select count(*)::int as n from payout_transactions`);
    expect(after).toEqual(before);
  });

  it('a run stops at its bound with complete: false and the next run carries on, storing each transaction once', async () => {
    const { t } = stripeApp;
    const april = Math.floor(new Date('2025-04-10T15:00:00Z').getTime() / 1000);
    const rows = Array.from({ length: 150 }, () =>
      txn('charge', 1000, 59, { id: id('ch'), object: 'charge' }, { created: april }),
    );
    stripeApp.stripe.payouts.unshift(payout('po_new', 150 * 941));
    stripeApp.stripe.balanceTransactions.set('po_new', rows);
    const first = await syncPayouts(t.app.ctx, { maxPages: 2, maxMs: 60_000 });
    expect(first).toMatchObject({ stored: 100, complete: false });
    const rest = await sync(t);
    expect(rest.json().data).toMatchObject({ stored: 50, complete: true });
    const [n] = await q<{ n: number; net: number }>(
      t,
      `select count(*)::int as n, sum(net)::int as net from payout_transactions where payout_id = 'po_new'`,
    );
    expect(n).toEqual({ n: 150, net: 150 * 941 });
  });
});
