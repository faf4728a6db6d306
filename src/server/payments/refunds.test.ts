import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoRole, TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { stripeTestApp } from '../test/stripe-app.js';
import type { StripeDouble } from '../test/stripe-server.js';

let t: TestApp;
let stripe: StripeDouble;
let seq = 0;

const app = stripeTestApp({
  STRIPE_SECRET_KEY: 'sk_test_refund_tests',
  STRIPE_TIMEOUT_MS: '400',
});
beforeAll(() => {
  ({ t, stripe } = app);
});
beforeEach(() => {
  stripe.requests.length = 0;
  stripe.refundBehaviours.length = 0;
});

const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;

async function inRefunds(over: Record<string, unknown> = {}) {
  seq += 1;
  return createOrder(t.database, {
    transaction_id: `ch_refundtest${Date.now().toString(36)}${seq}`,
    merchant_name: 'Stripe',
    process_status: 'Refunds',
    amount: 59,
    ...over,
  });
}

const refund = (body: object, role: DemoRole = 'Team') =>
  t.as(role, { method: 'PUT', url: '/api/admin/move-to-complete-refund', payload: body });

const statusOf = async (orderId: number) =>
  (
    await q<{ process_status: string }>('select process_status from orders where order_id = $1', [orderId])
  )[0]!.process_status;
const mailsOf = async (orderId: number) =>
  (await q<{ kind: string }>('select kind from mail_log where order_id = $1', [orderId])).map((m) => m.kind);
const refundRows = (orderId: number) =>
  q<{
    attempt: number;
    status: string;
    refund_id: string | null;
    amount: string;
    reason: string;
    error: string | null;
  }>(
    'select attempt, status, refund_id, amount::text, reason, error from payment_refunds where order_id = $1 order by attempt',
    [orderId],
  );
const refundRequests = () => stripe.requests.filter((r) => r.path === '/v1/refunds');

describe("'Refunded it' through Stripe", () => {
  it('creates the refund at Stripe first, then moves the order, records the refund and mails the customer', async () => {
    const order = await inRefunds();
    const res = await refund({ orderId: order.orderId });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Order has been refunded successfully');
    const [sent] = refundRequests();
    expect(sent!.headers['idempotency-key']).toBe(`edcard-refund-${order.orderId}-1`);
    expect(sent!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(sent!.headers.authorization).toBe('Bearer sk_test_refund_tests');
    expect(sent!.form).toEqual({
      charge: order.transactionId,
      amount: '5900',
      reason: 'requested_by_customer',
      metadata: { order_id: String(order.orderId), refund_reason: 'unspecified' },
    });
    expect(await statusOf(order.orderId)).toBe('Refunded');
    const [row] = await refundRows(order.orderId);
    expect(row).toMatchObject({ status: 'succeeded', amount: '5900', error: null });
    expect(row!.refund_id).toMatch(/^re_/);
    expect(res.json().data.throughProvider).toEqual([
      { orderId: order.orderId, gateway: 'Stripe', refundId: row!.refund_id, amount: '59.00 USD' },
    ]);
    expect(await mailsOf(order.orderId)).toEqual(['refund']);
  });

  it('refunds a payment intent by its id', async () => {
    const order = await inRefunds({ transaction_id: `pi_refundtest${Date.now().toString(36)}` });
    expect((await refund({ orderId: [order.orderId] })).statusCode).toBe(200);
    expect(refundRequests()[0]!.form).toMatchObject({ payment_intent: order.transactionId });
    expect(refundRequests()[0]!.form.charge).toBeUndefined();
  });

  it('a declined refund leaves the order in Refunds, says why, and a retry is a new attempt', async () => {
    const order = await inRefunds();
    stripe.refundBehaviours.push({ kind: 'card_declined' });
    const res = await refund({ orderId: order.orderId });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      `Order ${order.orderId}: Stripe refused it: Your card was declined. (card_declined). The order stays in Refunds.`,
    );
    expect(await statusOf(order.orderId)).toBe('Refunds');
    expect(await mailsOf(order.orderId)).toEqual([]);
    expect((await refundRows(order.orderId))[0]).toMatchObject({ attempt: 1, status: 'failed' });
    const retry = await refund({ orderId: order.orderId });
    expect(retry.statusCode).toBe(200);
    expect(refundRequests().map((r) => r.headers['idempotency-key'])).toEqual([
      `edcard-refund-${order.orderId}-1`,
      `edcard-refund-${order.orderId}-2`,
    ]);
    expect(await statusOf(order.orderId)).toBe('Refunded');
  });

  it('a timeout changes nothing; the retry repeats the same request and Stripe refunds once', async () => {
    const order = await inRefunds();
    stripe.refundBehaviours.push({ kind: 'timeout', ms: 900 });
    const res = await refund({ orderId: order.orderId });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(
      /Stripe did not answer in time\. The order was not changed; try again/,
    );
    expect(await statusOf(order.orderId)).toBe('Refunds');
    expect((await refundRows(order.orderId))[0]).toMatchObject({ status: 'unknown' });
    await new Promise((r) => setTimeout(r, 700)); // the double finishes the first request
    const retry = await refund({ orderId: order.orderId });
    expect(retry.statusCode).toBe(200);
    const keys = refundRequests().map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([`edcard-refund-${order.orderId}-1`, `edcard-refund-${order.orderId}-1`]);
    const rows = await refundRows(order.orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ attempt: 1, status: 'succeeded' });
    expect(await mailsOf(order.orderId)).toEqual(['refund']);
  });

  it('a server error of Stripe is a clear message, never a 500', async () => {
    const order = await inRefunds();
    stripe.refundBehaviours.push({ kind: 'server_error' });
    const res = await refund({ orderId: order.orderId });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/^Order \d+: Stripe could not be reached \(HTTP 500\)\./);
  });

  it('refunds a partial amount of one order', async () => {
    const order = await inRefunds();
    const res = await refund({ orderId: order.orderId, amount: '20.50' });
    expect(res.statusCode).toBe(200);
    expect(refundRequests()[0]!.form.amount).toBe('2050');
    expect((await refundRows(order.orderId))[0]).toMatchObject({ amount: '2050', status: 'succeeded' });
  });

  it('refuses a partial amount above the payment, for several orders, or malformed — nothing sent', async () => {
    const a = await inRefunds();
    const b = await inRefunds();
    const over = await refund({ orderId: a.orderId, amount: '59.01' });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('amount: at most 59.00 USD can be refunded');
    expect((await refund({ orderId: [a.orderId, b.orderId], amount: '1' })).json().message).toBe(
      'amount: a partial amount is for one order at a time',
    );
    for (const amount of ['1e5', '-5', '0', '12.345', 'NaN', '5\u0000', 'x'.repeat(10_000), true]) {
      const res = await refund({ orderId: a.orderId, amount });
      expect(res.statusCode).toBe(400);
    }
    expect((await refund({ orderId: a.orderId, refundReason: 'fraudulent' })).statusCode).toBe(400);
    expect((await refund({ orderId: a.orderId, extra: 1 })).statusCode).toBe(400);
    expect(refundRequests()).toEqual([]);
    expect(await statusOf(a.orderId)).toBe('Refunds');
  });

  it('gives the reason duplicate when a remark marks the order a duplicate', async () => {
    const order = await inRefunds();
    await t.database.sql.query(
      "insert into order_remarks (order_id, remark) values ($1, 'Duplicate of 100200')",
      [order.orderId],
    );
    await refund({ orderId: order.orderId });
    expect(refundRequests()[0]!.form.reason).toBe('duplicate');
  });

  it('goes on with the other orders of a bulk refund and says why per order; manual gateways move as before', async () => {
    const declined = await inRefunds();
    const fine = await inRefunds();
    const paypal = await inRefunds({ merchant_name: 'PayPal', transaction_id: 'PAYID-123' });
    stripe.refundBehaviours.push({ kind: 'card_declined' });
    const res = await refund({ orderId: [declined.orderId, fine.orderId, paypal.orderId] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toMatch(/^2 of 3 orders refunded\. Order \d+: Stripe refused it/);
    expect(body.data.orderId.sort()).toEqual([fine.orderId, paypal.orderId].sort());
    expect(body.data.failed).toEqual([
      { orderId: declined.orderId, message: expect.stringContaining('card_declined'), retrySafe: false },
    ]);
    expect(refundRequests()).toHaveLength(2);
    expect(await statusOf(declined.orderId)).toBe('Refunds');
    expect(await statusOf(paypal.orderId)).toBe('Refunded');
  });

  it('still refuses the whole request when the rules refuse one order (nothing sent)', async () => {
    const ok = await inRefunds();
    const done = await inRefunds({ process_status: 'Completed' });
    const res = await refund({ orderId: [ok.orderId, done.orderId] });
    expect(res.statusCode).toBe(409);
    expect(refundRequests()).toEqual([]);
    expect(await statusOf(ok.orderId)).toBe('Refunds');
  });

  it("the detail's Move to Completed Refunds refunds at Stripe first", async () => {
    const order = await inRefunds();
    stripe.refundBehaviours.push({ kind: 'card_declined' });
    const refused = await t.as('Manager', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'Refunded' },
    });
    expect(refused.statusCode).toBe(422);
    expect(await statusOf(order.orderId)).toBe('Refunds');
    const moved = await t.as('Manager', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'Refunded' },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toEqual({
      order_id: order.orderId,
      from: 'Refunds',
      process_status: 'Refunded',
    });
    expect(refundRequests()).toHaveLength(2);
  });

  it('a macro cannot move a Stripe order to Completed Refunds past the provider', async () => {
    const order = await inRefunds();
    const made = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/macros',
      payload: { name: `Refund macro ${Date.now()}`, moveTo: 'Refunded' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const macroId = made.json().data.id as number;
    const applied = await t.as('Manager', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId, orderIds: [order.orderId] },
    });
    expect(applied.json().data.orders[0]).toMatchObject({
      result: 'refused',
      message: "Paid through Stripe: use 'Refunded it' to refund it there first.",
    });
    expect(await statusOf(order.orderId)).toBe('Refunds');
    expect(refundRequests()).toEqual([]);
  });

  it('the Payment section says how money moves for the order', async () => {
    const order = await inRefunds();
    await refund({ orderId: order.orderId });
    const res = await t.as('Night Staff', {
      method: 'GET',
      url: `/api/admin/orders/${order.orderId}/payment`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      gateway: 'Stripe',
      integrated: true,
      manual_reason: null,
      disputes: [],
      refunds: [
        { amount: '59.00 USD', status: 'succeeded', source: 'product', requested_by: expect.any(String) },
      ],
    });
    const paypal = await inRefunds({ merchant_name: 'PayPal' });
    const manual = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${paypal.orderId}/payment` });
    expect(manual.json().data).toMatchObject({
      gateway: 'PayPal',
      integrated: false,
      manual_reason: "PayPal has no integration: refund and answer chargebacks in PayPal's dashboard.",
    });
    expect(
      (await t.as('Team', { method: 'GET', url: '/api/admin/orders/999999999/payment' })).statusCode,
    ).toBe(404);
    expect((await t.as('Team', { method: 'GET', url: '/api/admin/orders/abc/payment' })).statusCode).toBe(
      400,
    );
  });
});
