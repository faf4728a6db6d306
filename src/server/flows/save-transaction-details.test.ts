import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/** The payment reference of a provider payment is not staff's to type. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ STRIPE_SECRET_KEY: 'sk_test_reference_tests' });
});
afterAll(() => t.close());

const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;
const save = (role: Parameters<TestApp['as']>[0], payload: object) =>
  t.as(role, { method: 'POST', url: '/api/admin/save-transaction-details', payload });
const reference = async (orderId: number) =>
  (
    await q<{ transaction_id: string | null; merchant_name: string | null }>(
      'select transaction_id, merchant_name from orders where order_id = $1',
      [orderId],
    )
  )[0]!;
const audits = (orderId: number) =>
  q<{ to_value: string }>(
    "select to_value from audit_log where action = 'order.payment-reference' and target = $1",
    [`order ${orderId}`],
  );

describe('save-transaction-details and provider payments', () => {
  it("payment reference: staff cannot point a PayPal order at a customer's Stripe payment, nor change a Stripe order's (403)", async () => {
    const paypal = await createOrder(t.database, { merchant_name: 'PayPal', transaction_id: 'PAYID-1' });
    const stripe = await createOrder(t.database, { merchant_name: 'Stripe', transaction_id: 'pi_own123' });
    for (const role of ['Telecaller', 'Team', 'Manager', 'Night Staff'] as const) {
      const hijack = await save(role, {
        orderId: paypal.orderId,
        transactionId: 'pi_victim123',
        merchantName: 'Stripe',
      });
      expect(hijack.statusCode, role).toBe(403);
      expect(hijack.json().message).toMatch(/set by the intake or the provider only/);
      const change = await save(role, {
        orderId: stripe.orderId,
        transactionId: 'pi_other456',
        merchantName: 'Stripe',
      });
      expect(change.statusCode, role).toBe(403);
    }
    expect(await reference(paypal.orderId)).toEqual({ transaction_id: 'PAYID-1', merchant_name: 'PayPal' });
    expect(await reference(stripe.orderId)).toEqual({ transaction_id: 'pi_own123', merchant_name: 'Stripe' });
    // A manual gateway's reference stays staff's to enter.
    const manual = await save('Telecaller', {
      orderId: paypal.orderId,
      transactionId: 'PAYID-2',
      merchantName: 'PayPal',
    });
    expect(manual.statusCode, manual.body).toBe(200);
  });

  it('payment reference: an Admin corrects it with a reason, audited; never while a refund or a dispute exists', async () => {
    const order = await createOrder(t.database, { merchant_name: 'Stripe', transaction_id: 'pi_typo123' });
    const body = { orderId: order.orderId, transactionId: 'pi_right123', merchantName: 'Stripe' };
    const bare = await save('Admin', body);
    expect(bare.statusCode).toBe(400);
    expect(bare.json().message).toMatch(/^reason:/);
    const hostile = await save('Admin', { ...body, reason: 'typo\u0000' });
    expect(hostile.statusCode).toBe(400);
    expect((await save('Admin', { ...body, reason: 'x'.repeat(501) })).statusCode).toBe(400);
    expect(await reference(order.orderId)).toMatchObject({ transaction_id: 'pi_typo123' });
    const fixed = await save('Admin', { ...body, reason: 'the intake stored a typo' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(await reference(order.orderId)).toMatchObject({ transaction_id: 'pi_right123' });
    expect((await audits(order.orderId)).map((a) => a.to_value)).toEqual([
      'pi_right123 / Stripe (reason: the intake stored a typo)',
    ]);

    await t.database.sql.query(
      `insert into payment_refunds (order_id, provider, source, attempt, idempotency_key, amount, currency, status)
       values ($1, 'stripe', 'product', 1, $2, 100, 'USD', 'failed')`,
      [order.orderId, `edcard-refund-${order.orderId}-1`],
    );
    const withRefund = await save('Admin', { ...body, transactionId: 'pi_third', reason: 'again' });
    expect(withRefund.statusCode).toBe(409);
    expect(withRefund.json().message).toMatch(/a refund at the payment provider/);

    const disputed = await createOrder(t.database, { merchant_name: 'Stripe', transaction_id: 'ch_disp1' });
    await t.database.sql.query(
      `insert into payment_disputes (provider, dispute_id, order_id, charge_id, amount, currency, status)
       values ('stripe', $1, $2, 'ch_disp1', 5900, 'USD', 'needs_response')`,
      [`dp_${disputed.orderId}`, disputed.orderId],
    );
    const withDispute = await save('Admin', {
      orderId: disputed.orderId,
      transactionId: 'ch_disp2',
      merchantName: 'Stripe',
      reason: 'x',
    });
    expect(withDispute.statusCode).toBe(409);
    expect(await reference(disputed.orderId)).toMatchObject({ transaction_id: 'ch_disp1' });
  });

  it('payment reference: the 403 comes before a stale-version 409', async () => {
    const order = await createOrder(t.database, { merchant_name: 'Stripe', transaction_id: 'pi_v1' });
    const res = await save('Team', {
      orderId: order.orderId,
      transactionId: 'pi_v2',
      merchantName: 'Stripe',
      expectedVersion: 1,
    });
    expect(res.statusCode).toBe(403);
  });
});
