import { beforeAll, describe, expect, it } from 'vitest';
import type { DemoRole, TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { multipart, pdfText } from '../test/smtp.js';
import { signedStripeEvent, stripeDispute, stripeEvent } from '../test/stripe-events.js';
import { stripeTestApp } from '../test/stripe-app.js';
import type { StripeDouble } from '../test/stripe-server.js';

const SECRET = 'whsec_evidence_tests_secret';
let t: TestApp;
let stripe: StripeDouble;
let seq = 0;

const app = stripeTestApp({
  STRIPE_SECRET_KEY: 'sk_test_evidence_tests',
  STRIPE_WEBHOOK_SECRET: SECRET,
});
beforeAll(() => {
  ({ t, stripe } = app);
});

const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;

/** A completed Stripe order with its approved card, then Stripe's dispute event for it. */
async function disputedOrder(opts: { card?: boolean } = {}) {
  seq += 1;
  const charge = `ch_evidence${Date.now().toString(36)}${seq}`;
  const order = await createOrder(t.database, {
    transaction_id: charge,
    merchant_name: 'Stripe',
    first_name: 'Maria',
    last_name: `Evidence${seq}`,
  });
  if (opts.card !== false) {
    const body = multipart(
      { orderId: String(order.orderId), email: order.email, mailServiceProvider: 'AWS' },
      { name: 'approved.pdf', type: 'application/pdf', content: await samplePdf('APPROVED CARD') },
    );
    const up = await t.as('Admin', { method: 'POST', url: '/api/admin/upload-visa-document', ...body });
    expect(up.statusCode, up.body).toBe(200);
  }
  const disputeId = `dp_evidence${Date.now().toString(36)}${seq}`;
  stripe.disputes.set(disputeId, { status: 'needs_response', evidence: {} });
  const { payload, signature } = signedStripeEvent(
    stripeEvent(
      'charge.dispute.created',
      stripeDispute(charge, { id: disputeId, dueInSeconds: 5 * 86400 }, { reason: 'product_not_received' }),
      { id: `evt_evidence${Date.now().toString(36)}${seq}` },
    ),
    SECRET,
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
  expect(res.statusCode).toBe(200);
  return { order, disputeId };
}

const submit = (orderId: number, body: unknown, role: DemoRole = 'Manager') =>
  t.as(role, {
    method: 'POST',
    url: `/api/admin/orders/${orderId}/submit-evidence`,
    payload: body as object,
  });

describe('POST /api/admin/orders/{id}/submit-evidence', () => {
  it('uploads the real Defence Pack as dispute evidence, fills the evidence fields and submits', async () => {
    const { order, disputeId } = await disputedOrder();
    stripe.requests.length = 0;
    const res = await submit(order.orderId, { submit: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'The evidence was submitted to the bank.',
      data: { disputeId, status: 'under_review', submitted: true },
    });

    const uploads = stripe.requests.filter((r) => r.path === '/v1/files');
    expect(uploads.map((u) => [u.file!.purpose, u.file!.type])).toEqual([
      ['dispute_evidence', 'application/pdf'],
      ['dispute_evidence', 'application/pdf'],
    ]);
    // The pack, read back on the receiving side: the order, the customer, the delivered card.
    const pack = await pdfText(uploads[0]!.file!.bytes);
    expect(uploads[0]!.file!.name).toBe(`defence-pack-${order.orderId}.pdf`);
    expect(pack.text).toContain(String(order.orderId));
    expect(pack.text).toContain(`Evidence${seq}`);
    expect(pack.pages).toBeGreaterThan(0);
    expect((await pdfText(uploads[1]!.file!.bytes)).text).toContain('APPROVED CARD');

    const update = stripe.requests.find((r) => r.path === `/v1/disputes/${disputeId}`)!;
    const fileIds = [...stripe.files.keys()];
    expect(update.form).toMatchObject({
      submit: 'true',
      metadata: { order_id: String(order.orderId) },
      evidence: {
        customer_email_address: order.email,
        customer_name: `Maria Evidence${seq}`,
        product_description: expect.stringContaining('Aruba ED card'),
        service_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        uncategorized_file: fileIds.at(-2),
        service_documentation: fileIds.at(-1),
      },
    });
    // Nothing internal goes to the bank in the fields: no remarks.
    expect(JSON.stringify(update.form)).not.toContain('Chargeback opened');

    const payment = (
      await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order.orderId}/payment` })
    ).json().data;
    expect(payment.disputes[0]).toMatchObject({
      dispute_id: disputeId,
      status: 'under_review',
      reason: 'product_not_received',
      amount: '59.00 USD',
      evidence_by: 'Demo Manager',
      takes_evidence: false,
    });
    expect(payment.disputes[0].evidence_submitted_at).not.toBeNull();
    // Waiting on the bank now: the order has no due time of ours.
    const [row] = await q<{ due_at: Date | null }>('select due_at from orders where order_id = $1', [
      order.orderId,
    ]);
    expect(row!.due_at).toBeNull();
  });

  it('submit false saves a draft: nothing is submitted and the deadline stays', async () => {
    const { order, disputeId } = await disputedOrder({ card: false });
    stripe.requests.length = 0;
    const res = await submit(order.orderId, { submit: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'needs_response', submitted: false });
    const update = stripe.requests.find((r) => r.path === `/v1/disputes/${disputeId}`)!;
    expect(update.form.submit).toBe('false');
    // No card uploaded: the pack alone.
    expect(stripe.requests.filter((r) => r.path === '/v1/files')).toHaveLength(1);
    const payment = (
      await t.as('Admin', { method: 'GET', url: `/api/admin/orders/${order.orderId}/payment` })
    ).json().data;
    expect(payment.disputes[0]).toMatchObject({ evidence_submitted_at: null, takes_evidence: true });
    expect(payment.disputes[0].evidence_saved_at).not.toBeNull();
  });

  it('lets only Admin and Manager send evidence', async () => {
    const { order } = await disputedOrder({ card: false });
    stripe.requests.length = 0;
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await submit(order.orderId, { submit: true }, role)).statusCode).toBe(403);
    }
    expect(stripe.requests).toEqual([]);
    expect((await submit(order.orderId, { submit: false }, 'Admin')).statusCode).toBe(200);
  });

  it('refuses a hostile or wrong body, an order without a dispute, and changes nothing', async () => {
    const { order } = await disputedOrder({ card: false });
    const plain = await createOrder(t.database, { transaction_id: 'ch_nodispute1', merchant_name: 'Stripe' });
    stripe.requests.length = 0;
    for (const body of [
      {},
      { submit: 'yes' },
      { submit: 1 },
      { submit: true, extra: '\u0000' },
      { submit: null },
    ]) {
      expect((await submit(order.orderId, body)).statusCode).toBe(400);
    }
    expect((await submit(999_999_999, { submit: true })).statusCode).toBe(404);
    const none = await submit(plain.orderId, { submit: true });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('This order has no open dispute at the payment provider.');
    expect(
      (
        await t.as('Manager', {
          method: 'POST',
          url: `/api/admin/orders/${'9'.repeat(400)}/submit-evidence`,
          payload: { submit: true },
        })
      ).statusCode,
    ).toBeGreaterThanOrEqual(400);
    expect(stripe.requests).toEqual([]);
  });

  it('a provider refusal is a clear message and nothing is recorded', async () => {
    const { order, disputeId } = await disputedOrder({ card: false });
    stripe.disputes.delete(disputeId);
    const res = await submit(order.orderId, { submit: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      `Stripe refused it: No such dispute: '${disputeId}' (resource_missing). The evidence was not submitted.`,
    );
    const [row] = await q<{ saved: Date | null }>(
      'select evidence_saved_at as saved from payment_disputes where dispute_id = $1',
      [disputeId],
    );
    expect(row!.saved).toBeNull();
  });
});
