import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClockForTests } from '../auth/clock.js';
import { currentMonth } from './dispute-ratios.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder, createOrders } from '../test/factories.js';
import { stripeDispute, stripeEvent, stripeSignature } from '../test/stripe-events.js';

/** The ratios the card networks watch (docs/product.md, "Dispute ratios"), for a fixture month by hand. */

const SECRET = 'whsec_dispute_ratio_tests';
let t: TestApp;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ STRIPE_WEBHOOK_SECRET: SECRET, MANAGER_ALERT_EMAIL: 'alerts@example.com' });
});
afterAll(() => t.close());
afterEach(() => setClockForTests(null));

const uid = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36)}`;
const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;
const get = (url: string, role: Parameters<TestApp['as']>[0] = 'Manager') =>
  t.as(role, { method: 'GET', url });

async function dispute(orderId: number, at: string, reason: string, closed?: 'won' | 'lost') {
  await q(
    `insert into payment_disputes (provider, dispute_id, order_id, amount, currency, reason, status, created_at, closed_at)
     values ('stripe', $1, $2, 5900, 'USD', $3, $4, $5, $6)`,
    [uid('dp'), orderId, reason, closed ?? 'needs_response', at, closed ? at : null],
  );
}

describe('GET /api/admin/insights/disputes', () => {
  it('a fixture month, computed by hand, per network and in all', async () => {
    // February: 200 Visa and 100 Mastercard charges (the Mastercard-style denominator).
    await createOrders(t.database, 200, {
      created_at: new Date('2025-02-10T12:00:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    await createOrders(t.database, 100, {
      created_at: new Date('2025-02-11T12:00:00Z'),
      card_brand: 'mastercard',
      amount: 59,
    });
    // March: 100 Visa, 50 Mastercard, 10 Amex (the brand from Stripe's charge event, not the intake).
    const visa = await createOrders(t.database, 100, {
      created_at: new Date('2025-03-05T12:00:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    const mc = await createOrders(t.database, 50, {
      created_at: new Date('2025-03-06T12:00:00Z'),
      card_brand: 'mastercard',
      amount: 59,
    });
    const amex = await createOrders(t.database, 10, {
      created_at: new Date('2025-03-07T12:00:00Z'),
      amount: 59,
    });
    for (const o of amex) {
      await q(
        `insert into payment_charges (provider, charge_id, order_id, amount, currency, brand, charged_at)
         values ('stripe', $1, $2, 5900, 'USD', 'amex', '2025-03-07T12:00:00Z')`,
        [uid('ch'), o.orderId],
      );
    }
    await dispute(visa[0]!.orderId, '2025-03-20T12:00:00Z', 'fraudulent', 'won');
    await dispute(mc[0]!.orderId, '2025-03-21T12:00:00Z', 'product_not_received');
    await q(
      `insert into payment_fraud_warnings (provider, warning_id, order_id, fraud_type, action, created_at)
       values ('stripe', $1, $2, 'misc', 'recorded', '2025-03-22T12:00:00Z')`,
      [uid('issfr'), visa[1]!.orderId],
    );

    const res = await get('/api/admin/insights/disputes?month=2025-03');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const by = Object.fromEntries(data.networks.map((n: { network: string }) => [n.network, n]));
    // Visa: (1 dispute + 1 warning) / 100 = 2 % (excessive); 1 / 200 of February = 0.5 % (watch).
    expect(by.visa).toMatchObject({
      settledCount: 100,
      settledCents: 590_000,
      previousSettledCount: 200,
      disputeCount: 1,
      disputeCents: 5900,
      disputesByReason: { fraudulent: 1 },
      fraudWarnings: 1,
      won: 1,
      lost: 0,
      feeCents: 1500,
      visaRatio: 2,
      visaBand: 'excessive',
      mastercardRatio: 0.5,
      mastercardBand: 'watch',
    });
    // Mastercard: 1 / 50 = 2 %; 1 / 100 = 1 %.
    expect(by.mastercard).toMatchObject({ visaRatio: 2, mastercardRatio: 1, mastercardBand: 'excessive' });
    // Amex: 10 charges, nothing against them; no February charges: no Mastercard-style ratio.
    expect(by.amex).toMatchObject({ settledCount: 10, visaRatio: 0, visaBand: 'ok', mastercardRatio: null });
    expect(by.other).toMatchObject({ settledCount: 0, visaRatio: null });
    // All: 3 / 160 = 1.875 %; 2 / 300 = 0.6667 %.
    expect(data.total).toMatchObject({ settledCount: 160, visaRatio: 1.875, mastercardRatio: 0.6667 });
    expect(data.band).toBe('excessive');
    expect(data.history).toHaveLength(12);
    expect(data.history.at(-1)).toEqual({
      month: '2025-03',
      visaRatio: 1.875,
      mastercardRatio: 0.6667,
      band: 'excessive',
    });
    expect(data.history[0].month).toBe('2024-04');

    // The thresholds are the policy's: at 1 % and 2.5 % Visa's 2 % is only watch.
    const set = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/payment-policy',
      payload: { disputeWatchPercent: 1, disputeExcessivePercent: 2.5 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const again = (await get('/api/admin/insights/disputes?month=2025-03')).json().data;
    expect(again.networks[0]).toMatchObject({ network: 'visa', visaBand: 'watch', mastercardBand: 'ok' });
    await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/payment-policy',
      payload: { disputeWatchPercent: 0.5, disputeExcessivePercent: 0.75 },
    });
  });

  it('Admin and Manager only; hostile months are refused', async () => {
    expect((await get('/api/admin/insights/disputes', 'Admin')).statusCode).toBe(200);
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await get('/api/admin/insights/disputes', role)).statusCode).toBe(403);
    }
    for (const month of ['2025-13', '2025-3', '1999-01', '2025-03%00', 'x'.repeat(500)]) {
      expect((await get(`/api/admin/insights/disputes?month=${month}`)).statusCode, month).toBe(400);
    }
    expect((await get('/api/admin/insights/disputes?month=2025-03&other=1')).statusCode).toBe(400);
  });

  it('a band change of the current month notifies the managers once (mail to MANAGER_ALERT_EMAIL)', async () => {
    const orders = await createOrders(t.database, 10, {
      card_brand: 'visa',
      amount: 59,
      merchant_name: 'Stripe',
    });
    const post = async (charge: string) => {
      const payload = JSON.stringify(
        stripeEvent('charge.dispute.created', stripeDispute(charge, { id: uid('dp') }), { id: uid('evt') }),
      );
      return t.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, SECRET) },
        payload,
      });
    };
    const alerts = async () =>
      q<{ to_email: string; subject: string }>(
        "select to_email, subject from staff_notices where kind = 'dispute-band' order by id",
      );
    const before = (await alerts()).length;
    const paid = await createOrder(t.database, {
      card_brand: 'visa',
      amount: 59,
      merchant_name: 'Stripe',
      transaction_id: uid('ch'),
    });
    expect((await post(paid.transactionId!)).statusCode).toBe(200);
    const after = await alerts();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ to_email: 'alerts@example.com' });
    expect(after.at(-1)!.subject).toMatch(/^Dispute ratio (watch|excessive) for \d{4}-\d\d$/);
    // A second dispute keeps the band: nobody is told again.
    const other = await createOrder(t.database, {
      card_brand: 'visa',
      amount: 59,
      merchant_name: 'Stripe',
      transaction_id: uid('ch'),
    });
    expect((await post(other.transactionId!)).statusCode).toBe(200);
    expect(await alerts()).toHaveLength(before + 1);
    expect(orders).toHaveLength(10);
  });

  it('months are those of the service time zone (New York), whatever the hour of the run', async () => {
    // The current month turns at midnight in New York: 05:00 UTC in winter, 04:00 UTC in summer.
    expect(currentMonth(new Date('2026-12-01T04:59:59Z'))).toBe('2026-11');
    expect(currentMonth(new Date('2026-12-01T05:00:00Z'))).toBe('2026-12');
    expect(currentMonth(new Date('2026-07-01T03:59:59Z'))).toBe('2026-06');
    expect(currentMonth(new Date('2026-07-01T04:00:00Z'))).toBe('2026-07');
    // Charges at the edges: 23:30 on 31 May in New York is May; 00:30 on 1 June and 23:00 on 30 June are June.
    await createOrders(t.database, 4, {
      created_at: new Date('2024-06-01T03:30:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    const june = await createOrders(t.database, 10, {
      created_at: new Date('2024-06-01T04:30:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    await createOrders(t.database, 6, {
      created_at: new Date('2024-07-01T03:00:00Z'),
      card_brand: 'visa',
      amount: 59,
    });
    // A dispute at 22:00 on 30 June in New York (02:00 UTC on 1 July) is June's.
    await dispute(june[0]!.orderId, '2024-07-01T02:00:00Z', 'fraudulent');
    const res = await get('/api/admin/insights/disputes?month=2024-06');
    expect(res.statusCode, res.body).toBe(200);
    const visa = res.json().data.networks.find((n: { network: string }) => n.network === 'visa');
    expect(visa).toMatchObject({
      settledCount: 16,
      previousSettledCount: 4,
      disputeCount: 1,
      visaRatio: 6.25,
      mastercardRatio: 25,
    });
    const july = (await get('/api/admin/insights/disputes?month=2024-07')).json().data;
    expect(july.networks.find((n: { network: string }) => n.network === 'visa')).toMatchObject({
      settledCount: 0,
      disputeCount: 0,
      previousSettledCount: 16,
    });
  });

  it('without a month, the current month of the injected clock in New York', async () => {
    // 22:00 on 30 November in New York is still November although it is December in UTC.
    setClockForTests(() => new Date('2026-12-01T03:00:00Z'));
    const late = await get('/api/admin/insights/disputes');
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().data.month).toBe('2026-11');
    setClockForTests(() => new Date('2026-12-01T05:00:00Z'));
    expect((await get('/api/admin/insights/disputes')).json().data.month).toBe('2026-12');
  });
});
