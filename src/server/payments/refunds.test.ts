import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoRole, TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { stripeTestApp } from '../test/stripe-app.js';
import { signedStripeEvent, stripeEvent, stripeRefundedCharge } from '../test/stripe-events.js';
import type { StripeDouble } from '../test/stripe-server.js';

const WEBHOOK_SECRET = 'whsec_test_refund_tests';
let t: TestApp;
let stripe: StripeDouble;
let seq = 0;

const app = stripeTestApp({
  STRIPE_SECRET_KEY: 'sk_test_refund_tests',
  STRIPE_TIMEOUT_MS: '400',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
});
beforeAll(() => {
  ({ t, stripe } = app);
});
beforeEach(() => {
  stripe.requests.length = 0;
  stripe.refundBehaviours.length = 0;
  stripe.slow.ms = 0;
});

const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;

/** An order in Refunds paid through Stripe; the double knows its payment (metadata order_id). */
async function inRefunds(over: Record<string, unknown> = {}) {
  seq += 1;
  const order = await createOrder(t.database, {
    transaction_id: `ch_refundtest${Date.now().toString(36)}${seq}`,
    merchant_name: 'Stripe',
    process_status: 'Refunds',
    amount: 59,
    ...over,
  });
  stripe.payments.set(order.transactionId!, {
    amount: Math.round(Number(order.amount) * 100),
    metadata: { order_id: String(order.orderId) },
  });
  return order;
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
const refundRequests = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("'Refunded it' through Stripe", () => {
  it('creates the refund at Stripe first, then moves the order, records the refund and mails the customer', async () => {
    const order = await inRefunds();
    const res = await refund({ orderId: order.orderId });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(
      /^Refunded 59\.00 USD through Stripe \(refund re_[0-9a-f]+\)\. The order is in Completed Refunds\.$/,
    );
    const [sent] = refundRequests();
    expect(sent!.headers['idempotency-key']).toBe(`edcard-refund-${order.orderId}-1`);
    expect(sent!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(sent!.headers.authorization).toBe('Bearer sk_test_refund_tests');
    expect(sent!.form).toEqual({
      charge: order.transactionId,
      amount: '5900',
      reason: 'requested_by_customer',
      metadata: {
        order_id: String(order.orderId),
        edcard_key: `edcard-refund-${order.orderId}-1`,
        refund_reason: 'unspecified',
      },
    });
    expect(await statusOf(order.orderId)).toBe('Refunded');
    const [row] = await refundRows(order.orderId);
    expect(row).toMatchObject({ status: 'succeeded', amount: '5900', error: null });
    expect(row!.refund_id).toMatch(/^re_/);
    expect(res.json().data.throughProvider).toEqual([
      {
        orderId: order.orderId,
        gateway: 'Stripe',
        refundId: row!.refund_id,
        amount: '59.00 USD',
        refundedSoFar: '59.00 USD',
        remaining: '0.00 USD',
        closed: true,
      },
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

  it('a timeout changes nothing; the retry reads the refund back and Stripe refunds once', async () => {
    const order = await inRefunds();
    stripe.refundBehaviours.push({ kind: 'timeout', ms: 900 });
    const res = await refund({ orderId: order.orderId });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(
      /Stripe did not answer in time\. The refund of 59\.00 USD stays pending and the order was not changed; try again later/,
    );
    expect(await statusOf(order.orderId)).toBe('Refunds');
    expect((await refundRows(order.orderId))[0]).toMatchObject({ status: 'pending' });
    await sleep(700); // the double finishes the first request
    const retry = await refund({ orderId: order.orderId });
    expect(retry.statusCode).toBe(200);
    const keys = refundRequests().map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([`edcard-refund-${order.orderId}-1`]);
    expect(stripe.requests.filter((r) => r.method === 'GET' && r.path === '/v1/refunds')).toHaveLength(1);
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

describe('a refund is never made twice', () => {
  it('refund never twice: slow provider (5 s) — a click that times out, one at once (409 in progress), a third → one key, one refund', async () => {
    const order = await inRefunds({ amount: 49 });
    stripe.slow.ms = 5000;
    const key = `edcard-refund-${order.orderId}-1`;
    const first = await refund({ orderId: order.orderId });
    expect(first.statusCode).toBe(502);
    expect(first.json().message).toMatch(/Stripe did not answer in time/);
    const second = await refund({ orderId: order.orderId });
    expect(second.statusCode).toBe(502);
    expect(second.json().message).toMatch(/Stripe is still working on this refund/);
    const third = await refund({ orderId: order.orderId });
    expect(third.statusCode).toBe(502);
    expect(refundRequests().map((r) => r.headers['idempotency-key'])).toEqual([key, key, key]);
    expect(await refundRows(order.orderId)).toEqual([
      expect.objectContaining({ attempt: 1, status: 'pending', amount: '4900' }),
    ]);
    expect(await statusOf(order.orderId)).toBe('Refunds');
    await sleep(5200); // Stripe finishes the first request
    const settled = await refund({ orderId: order.orderId });
    expect(settled.statusCode, settled.body).toBe(200);
    expect(stripe.refunds.filter((r) => r.charge === order.transactionId)).toHaveLength(1);
    expect(await refundRows(order.orderId)).toEqual([
      expect.objectContaining({ attempt: 1, status: 'succeeded', amount: '4900' }),
    ]);
    expect(await statusOf(order.orderId)).toBe('Refunded');
    expect(await mailsOf(order.orderId)).toEqual(['refund']);
  }, 20_000);

  it('refund never twice: five clicks 50 ms apart — one attempt in flight, the others 409, one refund of 49.00', async () => {
    const order = await inRefunds({ amount: 49 });
    stripe.slow.ms = 5000;
    const clicks: Promise<{ statusCode: number; json(): { message: string } }>[] = [];
    for (let i = 0; i < 5; i++) {
      clicks.push(refund({ orderId: order.orderId }));
      await sleep(50);
    }
    const answers = await Promise.all(clicks);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 409).length).toBeGreaterThanOrEqual(3);
    for (const a of answers.filter((x) => x.statusCode === 409)) {
      expect(a.json().message).toBe(
        `Order ${order.orderId}: a refund of 49.00 USD through Stripe is already under way; wait for Stripe's answer (it is never made twice).`,
      );
    }
    expect(codes.every((c) => c === 409 || c === 502)).toBe(true);
    expect(new Set(refundRequests().map((r) => r.headers['idempotency-key']))).toEqual(
      new Set([`edcard-refund-${order.orderId}-1`]),
    );
    await sleep(5200);
    const last = await refund({ orderId: order.orderId });
    expect(last.statusCode, last.body).toBe(200);
    const rows = await refundRows(order.orderId);
    expect(rows.filter((r) => r.status === 'succeeded').map((r) => r.amount)).toEqual(['4900']);
    expect(rows.filter((r) => r.status === 'pending')).toEqual([]);
    expect(stripe.refunds.filter((r) => r.charge === order.transactionId)).toHaveLength(1);
  }, 20_000);

  it('refund never twice: a 5xx after Stripe made the refund stays pending; the next click reads it back, no second refund', async () => {
    const order = await inRefunds();
    stripe.refundBehaviours.push({ kind: 'server_error_after' });
    const lost = await refund({ orderId: order.orderId });
    expect(lost.statusCode).toBe(502);
    expect((await refundRows(order.orderId))[0]).toMatchObject({ status: 'pending' });
    const again = await refund({ orderId: order.orderId });
    expect(again.statusCode, again.body).toBe(200);
    expect(refundRequests()).toHaveLength(1);
    expect(stripe.refunds.filter((r) => r.charge === order.transactionId)).toHaveLength(1);
    expect(await refundRows(order.orderId)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
  });

  it("refund never twice: Stripe's charge.refunded settles a pending attempt; no second refund after it", async () => {
    const order = await inRefunds();
    stripe.refundBehaviours.push({ kind: 'server_error_after' });
    expect((await refund({ orderId: order.orderId })).statusCode).toBe(502);
    const made = stripe.refunds.find((r) => r.charge === order.transactionId)!;
    const { payload, signature } = signedStripeEvent(
      stripeEvent(
        'charge.refunded',
        stripeRefundedCharge(order.transactionId!, {
          refunds: { object: 'list', data: [{ id: made.id, status: 'succeeded', metadata: made.metadata }] },
        }),
        { id: `evt_settle${order.orderId}` },
      ),
      WEBHOOK_SECRET,
    );
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
    expect(hook.json()).toMatchObject({ outcome: 'pending refund confirmed' });
    expect(await refundRows(order.orderId)).toEqual([
      expect.objectContaining({ status: 'succeeded', refund_id: made.id }),
    ]);
    expect(await statusOf(order.orderId)).toBe('Refunded');
    expect(await mailsOf(order.orderId)).toEqual(['refund']);
    expect((await refund({ orderId: order.orderId })).statusCode).toBe(409);
    expect(refundRequests()).toHaveLength(1);
  });

  it('refund never twice: a pending refund counts against the payment — a new amount waits for it', async () => {
    const order = await inRefunds();
    stripe.refundBehaviours.push({ kind: 'server_error' });
    expect((await refund({ orderId: order.orderId, amount: '50' })).statusCode).toBe(502);
    // Still pending: the next request repeats the 50.00 one (same key, same amount), never a second.
    const next = await refund({ orderId: order.orderId, amount: '9' });
    expect(next.statusCode, next.body).toBe(200);
    expect(refundRequests().map((r) => [r.headers['idempotency-key'], r.form.amount])).toEqual([
      [`edcard-refund-${order.orderId}-1`, '5000'],
      [`edcard-refund-${order.orderId}-1`, '5000'],
    ]);
    const over = await refund({ orderId: order.orderId, amount: '9.01' });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe('amount: at most 9.00 USD can be refunded');
  });
});

describe("a refund reaches only the order's own payment", () => {
  it("refund only to the order's payment: another order's payment (metadata) is refused, nothing refunded", async () => {
    const victim = await inRefunds({ process_status: 'Completed' });
    const order = await inRefunds({ transaction_id: `pi_own${Date.now().toString(36)}` });
    await t.database.sql.query('update orders set transaction_id = $1 where order_id = $2', [
      victim.transactionId,
      order.orderId,
    ]);
    const res = await refund({ orderId: order.orderId });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      `Order ${order.orderId}: payment ${victim.transactionId} at Stripe belongs to another order: nothing was refunded.`,
    );
    expect(refundRequests()).toEqual([]);
    expect(await statusOf(order.orderId)).toBe('Refunds');
  });

  it("refund only to the order's payment: without metadata, amount and customer must be the order's", async () => {
    const order = await inRefunds();
    stripe.payments.set(order.transactionId!, { amount: 5900, email: 'someone.else@example.org' });
    expect((await refund({ orderId: order.orderId })).statusCode).toBe(422);
    stripe.payments.set(order.transactionId!, { amount: 5900, email: order.email.toUpperCase() });
    expect((await refund({ orderId: order.orderId })).statusCode).toBe(200);
    expect(refundRequests()).toHaveLength(1);
  });

  it("refund only to the order's payment: a payment Stripe does not know is refused", async () => {
    const order = await inRefunds();
    stripe.payments.delete(order.transactionId!);
    const res = await refund({ orderId: order.orderId });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/could not confirm that payment .* is this order's/);
    expect(refundRequests()).toEqual([]);
  });
});

describe('a partial refund keeps the order in Refunds', () => {
  it('partial refund: stays in Refunds with refunded so far and what remains; the rest closes it; the mail says the amount refunded', async () => {
    const order = await inRefunds();
    const part = await refund({ orderId: order.orderId, amount: '20' });
    expect(part.statusCode, part.body).toBe(200);
    const [first] = part.json().data.throughProvider;
    expect(first).toMatchObject({
      amount: '20.00 USD',
      refundedSoFar: '20.00 USD',
      remaining: '39.00 USD',
      closed: false,
    });
    expect(part.json().message).toBe(
      `Refunded 20.00 USD through Stripe (refund ${first.refundId}). 20.00 USD refunded so far, 39.00 USD left: the order stays in Refunds.`,
    );
    expect(part.json().data.orderId).toEqual([]);
    expect(await statusOf(order.orderId)).toBe('Refunds');
    expect(await mailsOf(order.orderId)).toEqual([]);
    const rest = await refund({ orderId: order.orderId });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().data.throughProvider[0]).toMatchObject({ amount: '39.00 USD', closed: true });
    expect(await statusOf(order.orderId)).toBe('Refunded');
    const [mail] = await q<{ template_values: { amount: string } }>(
      "select template_values from mail_log where order_id = $1 and kind = 'refund'",
      [order.orderId],
    );
    expect(mail!.template_values.amount).toBe('59.00');
  });

  it('partial refund: "refund and close" closes it and the mail states the amount actually refunded', async () => {
    const order = await inRefunds();
    const res = await refund({ orderId: order.orderId, amount: '20', close: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.throughProvider[0]).toMatchObject({ remaining: '39.00 USD', closed: true });
    expect(await statusOf(order.orderId)).toBe('Refunded');
    const [mail] = await q<{ template_values: { amount: string } }>(
      "select template_values from mail_log where order_id = $1 and kind = 'refund'",
      [order.orderId],
    );
    expect(mail!.template_values.amount).toBe('20.00');
    expect((await refund({ orderId: order.orderId, close: 'yes' })).statusCode).toBe(400);
  });
});
