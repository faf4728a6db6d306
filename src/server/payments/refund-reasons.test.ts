import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DemoRole, TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { stripeTestApp } from '../test/stripe-app.js';
import type { StripeDouble } from '../test/stripe-server.js';

/** Refund reason codes (docs/product.md, "Refund reasons"): stored, shown, filtered, exported, sent. */

let t: TestApp;
let stripe: StripeDouble;
let seq = 0;

const app = stripeTestApp({ STRIPE_SECRET_KEY: 'sk_test_reason_tests', STRIPE_TIMEOUT_MS: '400' });
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
  const order = await createOrder(t.database, {
    transaction_id: `ch_reasontest${Date.now().toString(36)}${seq}`,
    merchant_name: 'Stripe',
    process_status: 'Refunds',
    amount: 59,
    ...over,
  });
  // The provider knows the payment as this order's: a refund goes only to the order's own payment.
  stripe.payments.set(order.transactionId!, {
    amount: Math.round(Number(order.amount) * 100),
    metadata: { order_id: String(order.orderId) },
  });
  return order;
}

const refund = (body: object, role: DemoRole = 'Team') =>
  t.as(role, { method: 'PUT', url: '/api/admin/move-to-complete-refund', payload: body });

const reasonOf = async (orderId: number) =>
  (
    await q<{ process_status: string; refund_reason: string | null; refund_reason_text: string | null }>(
      'select process_status, refund_reason, refund_reason_text from orders where order_id = $1',
      [orderId],
    )
  )[0]!;
const refundRequests = () => stripe.requests.filter((r) => r.path === '/v1/refunds');

describe('refund reason codes', () => {
  it("'Refunded it' through Stripe stores the reason on the order and the refund, and sends it as metadata", async () => {
    const order = await inRefunds();
    const res = await refund({ orderId: [order.orderId], reasonCode: 'service_failure' });
    expect(res.statusCode, res.body).toBe(200);
    expect(refundRequests()[0]!.form.metadata).toEqual({
      order_id: String(order.orderId),
      edcard_key: `edcard-refund-${order.orderId}-1`,
      refund_reason: 'service_failure',
    });
    expect(await reasonOf(order.orderId)).toEqual({
      process_status: 'Refunded',
      refund_reason: 'service_failure',
      refund_reason_text: null,
    });
    const [row] = await q<{ reason_code: string }>(
      'select reason_code from payment_refunds where order_id = $1',
      [order.orderId],
    );
    expect(row!.reason_code).toBe('service_failure');
    const events = await q<{ to_value: string }>(
      "select to_value from order_events where order_id = $1 and action = 'refund_reason'",
      [order.orderId],
    );
    expect(events.map((e) => e.to_value)).toEqual(['service_failure']);
  });

  it('a refund without a reason records unspecified (manual gateway too)', async () => {
    const order = await inRefunds({ merchant_name: 'PayPal', transaction_id: 'PAYID-REASON' });
    expect((await refund({ orderId: order.orderId })).statusCode).toBe(200);
    expect(await reasonOf(order.orderId)).toMatchObject({
      process_status: 'Refunded',
      refund_reason: 'unspecified',
    });
  });

  it("'other' carries its text; the detail screen's move asks for the reason too", async () => {
    const order = await inRefunds({ merchant_name: 'PayPal', transaction_id: 'PAYID-OTHER' });
    const res = await t.as('Manager', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: {
        orderId: order.orderId,
        updatingStatus: 'Refunded',
        reasonCode: 'other',
        reasonText: 'Paid twice by bank transfer',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await reasonOf(order.orderId)).toEqual({
      process_status: 'Refunded',
      refund_reason: 'other',
      refund_reason_text: 'Paid twice by bank transfer',
    });
  });

  it('the detail move through Stripe sends the reason chosen there', async () => {
    const order = await inRefunds();
    const res = await t.as('Manager', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'Refunded', reasonCode: 'government_rejected' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(refundRequests()[0]!.form.metadata).toMatchObject({ refund_reason: 'government_rejected' });
    expect((await reasonOf(order.orderId)).refund_reason).toBe('government_rejected');
  });

  it('hostile reasons are refused with 400 and change nothing; nothing goes to Stripe', async () => {
    const order = await inRefunds();
    for (const body of [
      { reasonCode: 'fraudulent' },
      { reasonCode: 'other' },
      { reasonCode: 'other', reasonText: 'x' },
      { reasonCode: 'duplicate', reasonText: 'not for duplicate' },
      { reasonCode: 'other', reasonText: 'bad\u0000text' },
      { reasonCode: 'other', reasonText: 'y'.repeat(301) },
      { reasonCode: ['duplicate'] },
      { reasonCode: 'customer_request', reasonExtra: 1 },
    ]) {
      const res = await refund({ orderId: order.orderId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const detail = await t.as('Manager', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'Refunded', reasonCode: 'other' },
    });
    expect(detail.statusCode).toBe(400);
    expect(refundRequests()).toEqual([]);
    expect(await reasonOf(order.orderId)).toEqual({
      process_status: 'Refunds',
      refund_reason: null,
      refund_reason_text: null,
    });
  });

  it('another folder refuses the move and keeps no reason (the rules first)', async () => {
    const done = await inRefunds({ process_status: 'Completed' });
    const res = await refund({ orderId: done.orderId, reasonCode: 'duplicate' });
    expect(res.statusCode).toBe(409);
    expect((await reasonOf(done.orderId)).refund_reason).toBeNull();
  });

  it('Refunds and Completed Refunds show the reason, filter by it, and the CSV carries it', async () => {
    const a = await inRefunds({ merchant_name: 'PayPal', transaction_id: 'PAYID-LIST-A' });
    const b = await inRefunds({ merchant_name: 'PayPal', transaction_id: 'PAYID-LIST-B' });
    await refund({ orderId: a.orderId, reasonCode: 'chargeback_prevention' });
    await refund({ orderId: b.orderId, reasonCode: 'other', reasonText: 'Trip cancelled' });
    const list = await t.as('Team', {
      method: 'GET',
      url: '/api/admin/get-orders-list/refundedOrder?limit=500&refundReason=chargeback_prevention',
    });
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().data as { order_id: number; refund_reason: string }[];
    expect(rows.map((r) => r.order_id)).toContain(a.orderId);
    expect(rows.map((r) => r.order_id)).not.toContain(b.orderId);
    expect(rows.every((r) => r.refund_reason === 'chargeback_prevention')).toBe(true);
    expect(
      (
        await t.as('Team', {
          method: 'GET',
          url: '/api/admin/get-orders-list/refundedOrder?refundReason=nonsense',
        })
      ).statusCode,
    ).toBe(400);
    const csv = await t.as('Manager', {
      method: 'GET',
      url: '/api/admin/export-orders/refundedOrder?refundReason=other',
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.split('\r\n')[0]).toContain('Refund Reason');
    expect(csv.body).toContain('Other: Trip cancelled');
    expect(csv.body).not.toContain('Chargeback prevention');
  });
});
