import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder, createOrders } from '../test/factories.js';
import { stripeDispute, stripeEvent, stripeRefundedCharge, stripeSignature } from '../test/stripe-events.js';

/**
 * The dispute ratios' monthly counters (dispute_month_counts, decision 431) agree with a recount from the
 * tables after every kind of change. The recount is the statement the ratios ran before the counters:
 * each order's brand looked up from its first charge, months of the service time zone (New York).
 */

const SECRET = 'whsec_dispute_counts_tests';
let t: TestApp;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ STRIPE_WEBHOOK_SECRET: SECRET });
});
afterAll(() => t.close());

const uid = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36)}`;
const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;

const BRAND = (alias: string) =>
  `coalesce((select pc.brand from payment_charges pc where pc.order_id = ${alias}.order_id order by pc.id limit 1), ${alias}.card_brand, 'other')`;
const MONTH = (column: string) => `to_char(${column} at time zone 'America/New_York', 'YYYY-MM')`;
const FIGURES = `sum(settled)::int as settled, sum(settled_cents)::bigint::text as settled_cents,
  sum(disputes)::int as disputes, sum(dispute_cents)::bigint::text as dispute_cents,
  sum(warnings)::int as warnings, sum(won)::int as won, sum(lost)::int as lost`;
const ANY = `sum(settled) <> 0 or sum(settled_cents) <> 0 or sum(disputes) <> 0 or sum(dispute_cents) <> 0
  or sum(warnings) <> 0 or sum(won) <> 0 or sum(lost) <> 0`;

const RECOUNT = `
  with figures as (
    select ${MONTH('o.created_at')} as m, ${BRAND('o')} as brand, '' as reason, 1 as settled,
           case when o.currency = 'USD' then round(o.amount * 100) else 0 end as settled_cents,
           0 as disputes, 0 as dispute_cents, 0 as warnings, 0 as won, 0 as lost
    from orders o where o.amount > 0
    union all
    select ${MONTH('d.created_at')}, ${BRAND('o')}, coalesce(d.reason, 'unknown'), 0, 0, 1,
           case when d.currency = 'USD' then d.amount else 0 end, 0, 0, 0
    from payment_disputes d join orders o on o.order_id = d.order_id
    union all
    select ${MONTH('d.closed_at')}, ${BRAND('o')}, '', 0, 0, 0, 0, 0,
           (d.status = 'won')::int, (d.status = 'lost')::int
    from payment_disputes d join orders o on o.order_id = d.order_id
    where d.closed_at is not null and d.status in ('won', 'lost')
    union all
    select ${MONTH('w.created_at')}, ${BRAND('o')}, '', 0, 0, 0, 0, 1, 0, 0
    from payment_fraud_warnings w join orders o on o.order_id = w.order_id
  )
  select m, brand, reason, ${FIGURES} from figures group by 1, 2, 3 having ${ANY} order by 1, 2, 3`;

const COUNTERS = `
  select to_char(month, 'YYYY-MM') as m, brand, reason, ${FIGURES}
  from dispute_month_counts group by 1, 2, 3 having ${ANY} order by 1, 2, 3`;

async function agree() {
  const counted = await q(COUNTERS);
  expect(counted).toEqual(await q(RECOUNT));
  return counted;
}

/** The counters of one month and brand, all reasons together. */
async function monthOf(month: string, brand: string) {
  const [row] = await q<{ settled: number; settled_cents: string; disputes: number; warnings: number }>(
    `select ${FIGURES} from dispute_month_counts where month = $1::date and brand = $2`,
    [`${month}-01`, brand],
  );
  return row!;
}

async function post(type: string, object: object, created?: number) {
  const payload = JSON.stringify(
    stripeEvent(type, object, { id: uid('evt'), ...(created ? { created } : {}) }),
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, SECRET) },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function dispute(orderId: number, at: string, reason: string | null, closed?: 'won' | 'lost') {
  const [row] = await q<{ id: string }>(
    `insert into payment_disputes (provider, dispute_id, order_id, amount, currency, reason, status, created_at, closed_at)
     values ('stripe', $1, $2, 5900, 'USD', $3, $4, $5, $6) returning id::text`,
    [uid('dp'), orderId, reason, closed ?? 'needs_response', at, closed ? at : null],
  );
  return row!.id;
}

async function warning(orderId: number, at: string) {
  const [row] = await q<{ id: string }>(
    `insert into payment_fraud_warnings (provider, warning_id, order_id, fraud_type, action, created_at)
     values ('stripe', $1, $2, 'misc', 'recorded', $3) returning id::text`,
    [uid('issfr'), orderId, at],
  );
  return row!.id;
}

async function charge(orderId: number | null, brand: string) {
  const [row] = await q<{ id: string }>(
    `insert into payment_charges (provider, charge_id, order_id, amount, currency, brand, charged_at)
     values ('stripe', $1, $2, 5900, 'USD', $3, now()) returning id::text`,
    [uid('ch'), orderId, brand],
  );
  return row!.id;
}

describe('dispute_month_counts', () => {
  it('orders at the edges of New York months, paid or not, in dollars or not', async () => {
    // 23:30 on 31 March in New York (summer time) is March; 00:30 on 1 April is April.
    await createOrders(t.database, 3, {
      created_at: new Date('2025-04-01T03:30:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    await createOrders(t.database, 2, {
      created_at: new Date('2025-04-01T04:30:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    // 23:30 on 30 November (winter time) is November; 00:30 on 1 December is December.
    await createOrder(t.database, { created_at: new Date('2025-12-01T04:30:00Z'), card_brand: 'mastercard' });
    await createOrder(t.database, { created_at: new Date('2025-12-01T05:30:00Z'), card_brand: 'mastercard' });
    // Not settled (nothing paid), paid in euros (counted, no cents), no brand at all ('other').
    await createOrder(t.database, { created_at: new Date('2025-03-10T12:00:00Z'), amount: 0 });
    await createOrder(t.database, {
      created_at: new Date('2025-03-10T12:00:00Z'),
      amount: 40,
      currency: 'EUR',
    });
    await createOrder(t.database, { created_at: new Date('2025-03-10T12:00:00Z'), amount: 12.345 });
    await agree();
    expect(await monthOf('2025-03', 'visa')).toMatchObject({ settled: 3, settled_cents: '17700' });
    expect(await monthOf('2025-04', 'visa')).toMatchObject({ settled: 2, settled_cents: '11800' });
    expect(await monthOf('2025-11', 'mastercard')).toMatchObject({ settled: 1 });
    expect(await monthOf('2025-12', 'mastercard')).toMatchObject({ settled: 1 });
    // 40 EUR: settled, no cents; 12.345 USD: 1235 cents (rounded per order, as the ratios always did).
    expect(await monthOf('2025-03', 'other')).toMatchObject({ settled: 2, settled_cents: '1235' });
  });

  it('updates of the amount, currency, creation and brand; disputes and warnings follow the brand', async () => {
    const [a, b, c] = await createOrders(t.database, 3, {
      created_at: new Date('2025-05-15T12:00:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    await dispute(a!.orderId, '2025-05-20T12:00:00Z', 'fraudulent');
    await dispute(a!.orderId, '2025-06-01T03:00:00Z', null, 'lost'); // 23:00 on 31 May: May's, closed in May
    await warning(a!.orderId, '2025-05-21T12:00:00Z');
    await agree();
    await q('update orders set amount = 0 where order_id = $1', [b!.orderId]);
    await agree();
    await q('update orders set amount = 30 where order_id = $1', [b!.orderId]);
    await agree();
    await q(`update orders set currency = 'EUR' where order_id = $1`, [c!.orderId]);
    await agree();
    await q(`update orders set created_at = '2025-06-01T04:00:00Z' where order_id = $1`, [c!.orderId]);
    await agree();
    // The intake's brand changes and the order has no charge: its disputes and warning move with it.
    await q(`update orders set card_brand = 'mastercard' where order_id = $1`, [a!.orderId]);
    const moved = await agree();
    expect(moved.filter((r) => r.m === '2025-05' && r.brand === 'visa' && r.disputes !== 0)).toEqual([]);
    // Several orders in one statement, and updates of columns the counters do not read.
    await q(`update orders set card_brand = 'amex', amount = amount + 1 where order_id = any($1)`, [
      [a!.orderId, b!.orderId, c!.orderId],
    ]);
    await agree();
    await q(`update orders set process_status = 'Completed', city = 'Oranjestad' where order_id = any($1)`, [
      [a!.orderId, b!.orderId],
    ]);
    await agree();
  });

  it('charges: the first charge (by id) names the brand; later ones, changes and deletions move it', async () => {
    const order = await createOrder(t.database, {
      created_at: new Date('2025-07-10T12:00:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    await dispute(order.orderId, '2025-07-11T12:00:00Z', 'general', 'won');
    await warning(order.orderId, '2025-07-12T12:00:00Z');
    await agree();
    const first = await charge(order.orderId, 'amex');
    await agree();
    expect(await monthOf('2025-07', 'amex')).toMatchObject({ settled: 1, disputes: 1, warnings: 1 });
    const second = await charge(order.orderId, 'mastercard');
    await agree();
    await q(`update payment_charges set brand = 'other' where id = $1`, [first]);
    await agree();
    await q('delete from payment_charges where id = $1', [first]);
    await agree();
    expect(await monthOf('2025-07', 'mastercard')).toMatchObject({ settled: 1, disputes: 1 });
    // A charge recorded before its order was known, then matched to it.
    const loose = await charge(null, 'visa');
    await agree();
    await q('update payment_charges set order_id = $2 where id = $1', [loose, order.orderId]);
    await agree();
    await q('update payment_charges set order_id = null where id = $1', [second]);
    await agree();
    await q('delete from payment_charges where order_id = $1', [order.orderId]);
    await agree();
    expect(await monthOf('2025-07', 'visa')).toMatchObject({ settled: 1, disputes: 1, warnings: 1 });
    await q('delete from payment_charges where id = $1', [second]);
    await agree();
  });

  it('disputes and warnings: opened, changed, won or lost, deleted, at month edges', async () => {
    const [a, b] = await createOrders(t.database, 2, {
      created_at: new Date('2025-08-10T12:00:00Z'),
      card_brand: 'mastercard',
      amount: 59,
    });
    const d1 = await dispute(a!.orderId, '2025-09-01T03:59:59Z', null); // still August in New York
    await agree();
    expect(await monthOf('2025-08', 'mastercard')).toMatchObject({ disputes: 1 });
    await q(`update payment_disputes set reason = 'duplicate', amount = 2000 where id = $1`, [d1]);
    await agree();
    await q(`update payment_disputes set status = 'won', closed_at = '2025-10-01T04:00:00Z' where id = $1`, [
      d1,
    ]);
    await agree();
    await q(`update payment_disputes set status = 'lost', closed_at = '2025-10-01T03:00:00Z' where id = $1`, [
      d1,
    ]);
    await agree();
    await q(
      `update payment_disputes set currency = 'EUR', created_at = '2025-09-02T00:00:00Z' where id = $1`,
      [d1],
    );
    await agree();
    const d2 = await dispute(b!.orderId, '2025-08-31T12:00:00Z', 'fraudulent', 'won');
    await agree();
    await q('delete from payment_disputes where id = $1', [d2]);
    await agree();
    const w = await warning(b!.orderId, '2025-09-01T04:00:00Z'); // September in New York
    await agree();
    expect(await monthOf('2025-09', 'mastercard')).toMatchObject({ warnings: 1 });
    await q(
      `update payment_fraud_warnings set created_at = '2025-08-20T00:00:00Z', action = 'kept' where id = $1`,
      [w],
    );
    await agree();
    await q('delete from payment_fraud_warnings where id = $1', [w]);
    await agree();
  });

  it("the provider's events: a charge, a dispute opened, won and lost, a refund; deleted orders", async () => {
    const paid = async () => {
      const ch = uid('ch');
      const order = await createOrder(t.database, {
        transaction_id: ch,
        merchant_name: 'Stripe',
        process_status: 'Completed',
        card_brand: 'visa',
        amount: 59,
      });
      return { order, ch };
    };
    const now = Math.floor(Date.now() / 1000);
    const one = await paid();
    await post('charge.succeeded', {
      id: one.ch,
      object: 'charge',
      amount: 5900,
      currency: 'usd',
      payment_intent: null,
      created: now,
      outcome: { risk_level: 'normal', type: 'authorized' },
      payment_method_details: { type: 'card', card: { brand: 'amex' } },
    });
    await agree();
    for (const [i, status] of (['won', 'lost'] as const).entries()) {
      const { ch } = i === 0 ? one : await paid();
      const id = uid('dp');
      await post('charge.dispute.created', stripeDispute(ch, { id, created: now }), now);
      await agree();
      await post(
        'charge.dispute.updated',
        stripeDispute(ch, { id, created: now }, { status: 'under_review' }),
        now + 1,
      );
      await agree();
      await post('charge.dispute.closed', stripeDispute(ch, { id, created: now }, { status }), now + 2);
      await agree();
    }
    const refunded = await paid();
    await post('charge.refunded', stripeRefundedCharge(refunded.ch));
    await agree();
    // Orders without disputes deleted (their events first).
    const gone = await createOrders(t.database, 2, { card_brand: 'visa', amount: 59 });
    const ids = gone.map((o) => o.orderId);
    await q('delete from order_events where order_id = any($1)', [ids]);
    await q('delete from orders where order_id = any($1)', [ids]);
    await agree();
    // The counters rebuilt from the tables are the counters kept.
    const kept = await q(COUNTERS);
    await q('select dispute_month_counts_rebuild()');
    expect(await q(COUNTERS)).toEqual(kept);
  });
});
