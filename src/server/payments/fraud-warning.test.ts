import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readSse, type SseEvent } from '../test/sse.js';
import type { OrderStatus } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import type { DemoRole, TestApp } from '../test/app.js';
import { buildOrder, createOrder } from '../test/factories.js';
import { stripeTestApp } from '../test/stripe-app.js';
import { stripeEvent, stripeSignature } from '../test/stripe-events.js';
import type { StripeDouble } from '../test/stripe-server.js';

/**
 * Acting on early fraud warnings and risky payments (docs/product.md, "Fraud warnings and risk"),
 * through the signed webhook and the local Stripe double.
 */

const SECRET = 'whsec_fraud_warning_tests';
const KEY = 'intake-key-for-risk-tests-0123456789';
let t: TestApp;
let stripe: StripeDouble;
let seq = 0;

const app = stripeTestApp({
  STRIPE_SECRET_KEY: 'sk_test_fraud_tests',
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_TIMEOUT_MS: '400',
  INTAKE_API_KEY: KEY,
});
beforeAll(() => {
  ({ t, stripe } = app);
});
beforeEach(() => {
  stripe.requests.length = 0;
  stripe.refundBehaviours.length = 0;
});

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const today = () => serviceToday();
const uid = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36)}`;
const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;

async function post(body: object) {
  const payload = JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, SECRET) },
    payload,
  });
}

const warningEvent = (charge: string, warningId = uid('issfr'), eventId = uid('evt')) =>
  stripeEvent(
    'radar.early_fraud_warning.created',
    {
      id: warningId,
      object: 'radar.early_fraud_warning',
      actionable: true,
      charge,
      fraud_type: 'made_with_stolen_card',
      payment_intent: null,
    },
    { id: eventId },
  );

async function paid(status: OrderStatus) {
  const charge = uid('ch');
  const order = await createOrder(t.database, {
    transaction_id: charge,
    merchant_name: 'Stripe',
    process_status: status,
    amount: 59,
  });
  return { orderId: order.orderId, charge };
}

const orderRow = async (orderId: number) =>
  (
    await q<{
      process_status: string;
      check_flags: string[];
      needs_attention: boolean;
      refund_reason: string | null;
    }>('select process_status, check_flags, needs_attention, refund_reason from orders where order_id = $1', [
      orderId,
    ])
  )[0]!;
const mailsOf = async (orderId: number) =>
  (await q<{ kind: string }>('select kind from mail_log where order_id = $1', [orderId])).map((m) => m.kind);
const refundRequests = () => stripe.requests.filter((r) => r.path === '/v1/refunds');
const lastRemark = async (orderId: number) =>
  (
    await q<{ remark: string }>(
      'select remark from order_remarks where order_id = $1 order by id desc limit 1',
      [orderId],
    )
  )[0]?.remark;

const setPolicy = (body: object, role: DemoRole = 'Admin') =>
  t.as(role, { method: 'PUT', url: '/api/admin/payment-policy', payload: body });

describe('radar.early_fraud_warning.created', () => {
  it.each(['New', 'Awaiting', 'Customer Called', 'Contact Customer', 'Refunds'] as const)(
    'an order in %s is refunded in full at Stripe and moves to Completed Refunds',
    async (status) => {
      const { orderId, charge } = await paid(status);
      const warningId = uid('issfr');
      const res = await post(warningEvent(charge, warningId));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().outcome).toBe('early fraud warning: order refunded');
      const [sent] = refundRequests();
      expect(sent!.headers['idempotency-key']).toBe(`edcard-efw-${warningId}`);
      expect(sent!.form).toEqual({
        charge,
        amount: '5900',
        reason: 'fraudulent',
        metadata: {
          order_id: String(orderId),
          edcard_key: `edcard-efw-${warningId}`,
          refund_reason: 'fraud_warning',
        },
      });
      expect(await orderRow(orderId)).toMatchObject({
        process_status: 'Refunded',
        refund_reason: 'fraud_warning',
        needs_attention: false,
      });
      expect(await mailsOf(orderId)).toEqual(['refund']);
      expect(await lastRemark(orderId)).toMatch(
        /^Refunded 59\.00 USD at Stripe \(re_\w+\) on an early fraud warning, before a dispute\.$/,
      );
      // Moved by the system user (no staff member).
      const moves = await q<{ actor_id: number | null; to_value: string }>(
        "select actor_id, to_value from order_events where order_id = $1 and action = 'status' order by id",
        [orderId],
      );
      expect(moves.at(-1)).toEqual({ actor_id: null, to_value: 'Refunded' });
      const [refund] = await q<{ reason: string; reason_code: string; status: string }>(
        'select reason, reason_code, status from payment_refunds where order_id = $1',
        [orderId],
      );
      expect(refund).toEqual({ reason: 'fraudulent', reason_code: 'fraud_warning', status: 'succeeded' });
    },
  );

  it('a replay, or another event about the same warning, refunds nothing more', async () => {
    const { orderId, charge } = await paid('New');
    const warningId = uid('issfr');
    const first = warningEvent(charge, warningId);
    expect((await post(first)).json().outcome).toBe('early fraud warning: order refunded');
    const replay = await post(first);
    expect(replay.json()).toMatchObject({ duplicate: true });
    const again = await post(warningEvent(charge, warningId));
    expect(again.json()).toMatchObject({ duplicate: false, outcome: 'early fraud warning already handled' });
    expect(refundRequests()).toHaveLength(1);
    expect(await mailsOf(orderId)).toEqual(['refund']);
  });

  it.each(['AwaitingGovt', 'Completed'] as const)(
    'an order in %s is not refunded: check fraud_warning, Risk review, and the Manager decides',
    async (status) => {
      const { orderId, charge } = await paid(status);
      const res = await post(warningEvent(charge));
      expect(res.json().outcome).toBe('early fraud warning: order in risk review');
      expect(refundRequests()).toEqual([]);
      const row = await orderRow(orderId);
      expect(row.process_status).toBe(status);
      expect(row.check_flags).toContain('fraud_warning');
      expect(row.needs_attention).toBe(status === 'AwaitingGovt');
      const review = await t.as('Team', {
        method: 'GET',
        url: '/api/admin/get-orders-list/allOrder?limit=500&riskReview=true',
      });
      expect(review.statusCode).toBe(200);
      expect(review.json().data.map((r: { order_id: number }) => r.order_id)).toContain(orderId);
    },
  );

  it.each(['ChargeBack', 'Refunded', 'Deleted'] as const)(
    'an order in %s keeps its status; the warning is recorded',
    async (status) => {
      const { orderId, charge } = await paid(status);
      const res = await post(warningEvent(charge));
      expect(res.json().outcome).toBe('early fraud warning recorded');
      expect(refundRequests()).toEqual([]);
      expect((await orderRow(orderId)).process_status).toBe(status);
    },
  );

  it('a refusal at Stripe leaves the order in Refunds for review; "Refund now" then refunds it', async () => {
    const { orderId, charge } = await paid('New');
    stripe.refundBehaviours.push({ kind: 'card_declined' });
    const res = await post(warningEvent(charge));
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toMatch(/^early fraud warning: not refunded/);
    const row = await orderRow(orderId);
    expect(row.process_status).toBe('Refunds');
    expect(row.check_flags).toContain('fraud_warning');
    expect(await mailsOf(orderId)).toEqual([]);
    const now = await t.as('Manager', {
      method: 'POST',
      url: `/api/admin/orders/${orderId}/fraud-warning/refund`,
    });
    expect(now.statusCode, now.body).toBe(200);
    expect((await orderRow(orderId)).process_status).toBe('Refunded');
    expect((await orderRow(orderId)).check_flags).not.toContain('fraud_warning');
  });

  it('"Refund now" and "Keep (reason)": Admin and Manager only, a reason needed, audited', async () => {
    const a = await paid('AwaitingGovt');
    const b = await paid('Completed');
    await post(warningEvent(a.charge));
    await post(warningEvent(b.charge));
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect(
        (await t.as(role, { method: 'POST', url: `/api/admin/orders/${a.orderId}/fraud-warning/refund` }))
          .statusCode,
      ).toBe(403);
      expect(
        (
          await t.as(role, {
            method: 'POST',
            url: `/api/admin/orders/${a.orderId}/fraud-warning/keep`,
            payload: { reason: 'Known customer' },
          })
        ).statusCode,
      ).toBe(403);
    }
    for (const payload of [
      {},
      { reason: 'x' },
      { reason: 'ok\u0000no' },
      { reason: 'r'.repeat(501) },
      { reason: 'fine', extra: 1 },
    ]) {
      const res = await t.as('Manager', {
        method: 'POST',
        url: `/api/admin/orders/${a.orderId}/fraud-warning/keep`,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await orderRow(a.orderId)).check_flags).toContain('fraud_warning');
    const keep = await t.as('Manager', {
      method: 'POST',
      url: `/api/admin/orders/${a.orderId}/fraud-warning/keep`,
      payload: { reason: 'Customer confirmed the purchase by phone' },
    });
    expect(keep.statusCode, keep.body).toBe(200);
    expect((await orderRow(a.orderId)).check_flags).not.toContain('fraud_warning');
    expect(
      (
        await t.as('Manager', {
          method: 'POST',
          url: `/api/admin/orders/${a.orderId}/fraud-warning/keep`,
          payload: { reason: 'again' },
        })
      ).statusCode,
    ).toBe(404);
    const refund = await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${b.orderId}/fraud-warning/refund`,
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect((await orderRow(b.orderId)).process_status).toBe('Refunded');
    expect(await mailsOf(b.orderId)).toEqual(['refund']);
    const audit = await q<{ action: string }>(
      "select action from audit_log where target in ($1, $2) and action like 'order.fraud-warning%' order by id",
      [`order ${a.orderId}`, `order ${b.orderId}`],
    );
    expect(audit.map((r) => r.action)).toEqual(['order.fraud-warning-keep', 'order.fraud-warning-refund']);
    expect(
      (await t.as('Admin', { method: 'POST', url: '/api/admin/orders/999999999/fraud-warning/refund' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('the live notice to managers', () => {
  it('a warning on a submitted order reaches Admin and Manager streams, not Team', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const open = (token: string) =>
      new Promise<{ events: SseEvent[]; close: () => void }>((resolve, reject) => {
        const events: SseEvent[] = [];
        const req = http.get(
          { host: '127.0.0.1', port, path: '/api/admin/events', headers: { authorization: token } },
          (res) => {
            readSse(res, (e) => events.push(e));
            res.on('error', () => {});
            resolve({ events, close: () => req.destroy() });
          },
        );
        req.on('error', reject);
      });
    const manager = await open(await t.tokenFor('Manager'));
    const team = await open(await t.tokenFor('Team'));
    try {
      const { orderId, charge } = await paid('AwaitingGovt');
      await post(warningEvent(charge));
      // (The warning may move the month's dispute band too: that is a notice of its own kind.)
      const notices = (s: { events: SseEvent[] }) =>
        s.events.filter((e) => e.event === 'notice' && e.data.kind === 'fraud_warning');
      const until = Date.now() + 5000;
      while (!notices(manager).length && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(notices(manager).map((e) => e.data)).toEqual([
        {
          kind: 'fraud_warning',
          text: `Order ${orderId}: early fraud warning — refund now or keep it (Risk review).`,
          orderId,
        },
      ]);
      expect(notices(team)).toEqual([]);
    } finally {
      manager.close();
      team.close();
    }
  });
});

describe('GET/PUT /api/admin/payment-policy', () => {
  it('Admin changes it (audited); Manager reads it; other roles 403; hostile bodies 400', async () => {
    expect((await t.as('Manager', { method: 'GET', url: '/api/admin/payment-policy' })).json().data).toEqual({
      autoRefundFraudWarnings: true,
      disputeWatchPercent: 0.5,
      disputeExcessivePercent: 0.75,
    });
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await t.as(role, { method: 'GET', url: '/api/admin/payment-policy' })).statusCode).toBe(403);
    }
    expect((await setPolicy({ autoRefundFraudWarnings: false }, 'Manager')).statusCode).toBe(403);
    for (const body of [
      { autoRefundFraudWarnings: 'no' },
      { disputeWatchPercent: -1 },
      { disputeWatchPercent: 1e9 },
      { disputeWatchPercent: 0.9 },
      { disputeWatchPercent: '0.5\u0000' },
      { extra: true },
    ]) {
      expect((await setPolicy(body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.as('Admin', { method: 'GET', url: '/api/admin/payment-policy' })).json().data).toEqual({
      autoRefundFraudWarnings: true,
      disputeWatchPercent: 0.5,
      disputeExcessivePercent: 0.75,
    });
    const off = await setPolicy({ autoRefundFraudWarnings: false });
    expect(off.statusCode, off.body).toBe(200);
    try {
      const { orderId, charge } = await paid('New');
      expect((await post(warningEvent(charge))).json().outcome).toBe(
        'early fraud warning: order in risk review',
      );
      expect(refundRequests()).toEqual([]);
      expect(await orderRow(orderId)).toMatchObject({ process_status: 'New', needs_attention: true });
      const [audit] = await q<{ from_value: unknown; to_value: unknown }>(
        "select from_value, to_value from audit_log where action = 'payment-policy.update' order by id desc limit 1",
      );
      expect(audit).toMatchObject({
        from_value: { autoRefundFraudWarnings: true },
        to_value: { autoRefundFraudWarnings: false },
      });
    } finally {
      await setPolicy({ autoRefundFraudWarnings: true });
    }
  });
});

describe('risk holds', () => {
  const moveToGovt = (orderId: number, role: DemoRole = 'Team') =>
    t.as(role, {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId, updatingStatus: 'AwaitingGovt' },
    });
  const clear = (orderId: number, body: object, role: DemoRole = 'Manager') =>
    t.as(role, { method: 'POST', url: `/api/admin/orders/${orderId}/risk-hold/clear`, payload: body });

  it('charge.succeeded with risk elevated holds the order: no Awaiting Govt (409) until a Manager clears it', async () => {
    const { orderId, charge } = await paid('New');
    const res = await post(
      stripeEvent(
        'charge.succeeded',
        {
          id: charge,
          object: 'charge',
          amount: 5900,
          currency: 'usd',
          payment_intent: null,
          created: Math.floor(Date.now() / 1000),
          outcome: { risk_level: 'elevated', type: 'authorized' },
          payment_method_details: { type: 'card', card: { brand: 'visa' } },
        },
        { id: uid('evt') },
      ),
    );
    expect(res.json().outcome).toBe('risk elevated: order on risk hold');
    expect(await orderRow(orderId)).toMatchObject({ needs_attention: true });
    expect((await orderRow(orderId)).check_flags).toContain('risk_hold');
    const refused = await moveToGovt(orderId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/risk hold/);
    expect((await orderRow(orderId)).process_status).toBe('New');
    // Roles first, then the reason.
    expect((await clear(orderId, { reason: 'Looks fine' }, 'Team')).statusCode).toBe(403);
    expect((await clear(orderId, { reason: '' })).statusCode).toBe(400);
    expect((await clear(orderId, { reason: 'no\u0007' })).statusCode).toBe(400);
    const cleared = await clear(orderId, { reason: 'Passport and card name match' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await clear(orderId, { reason: 'Passport and card name match' })).statusCode).toBe(409);
    expect((await moveToGovt(orderId)).statusCode).toBe(200);
    const [audit] = await q<{ to_value: { reason: string } }>(
      "select to_value from audit_log where action = 'order.risk-hold-clear' and target = $1",
      [`order ${orderId}`],
    );
    expect(audit!.to_value.reason).toBe('Passport and card name match');
    const [brand] = await q<{ brand: string; risk_level: string }>(
      'select brand, risk_level from payment_charges where charge_id = $1',
      [charge],
    );
    expect(brand).toEqual({ brand: 'visa', risk_level: 'elevated' });
  });

  it('payment_intent.succeeded with its latest charge at highest holds too; normal does not', async () => {
    const risky = await createOrder(t.database, { transaction_id: uid('pi'), merchant_name: 'Stripe' });
    const fine = await createOrder(t.database, { transaction_id: uid('pi'), merchant_name: 'Stripe' });
    for (const [order, level] of [
      [risky, 'highest'],
      [fine, 'normal'],
    ] as const) {
      await post(
        stripeEvent(
          'payment_intent.succeeded',
          {
            id: order.transactionId,
            object: 'payment_intent',
            amount: 5900,
            currency: 'usd',
            latest_charge: {
              id: uid('ch'),
              object: 'charge',
              amount: 5900,
              currency: 'usd',
              outcome: { risk_level: level },
              payment_method_details: { card: { brand: 'mastercard' } },
            },
          },
          { id: uid('evt') },
        ),
      );
    }
    expect((await orderRow(risky.orderId)).check_flags).toContain('risk_hold');
    expect((await orderRow(fine.orderId)).check_flags).not.toContain('risk_hold');
  });

  it("the intake's risk_level holds the order; its card_brand is kept; hostile values are refused", async () => {
    const send = (over: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/intake/orders',
        headers: { 'content-type': 'application/json', 'x-intake-key': KEY },
        payload: JSON.stringify(
          buildOrder({
            arrival_date: addDays(today(), 10),
            departure_date: addDays(today(), 17),
            ...over,
          }),
        ),
      });
    const res = await send({ risk_level: 'highest', card_brand: 'Visa' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.order_id as number;
    expect(res.json().data.checks.map((c: { code: string }) => c.code)).toContain('risk_hold');
    const [row] = await q<{ card_brand: string; risk_level: string; check_flags: string[] }>(
      'select card_brand, risk_level, check_flags from orders where order_id = $1',
      [id],
    );
    expect(row).toEqual({ card_brand: 'visa', risk_level: 'highest', check_flags: ['risk_hold'] });
    expect((await moveToGovt(id, 'Manager')).statusCode).toBe(409);
    for (const over of [
      { risk_level: 'scary' },
      { card_brand: 'visa\u0000' },
      { card_brand: 'x'.repeat(41) },
    ]) {
      expect((await send(over)).statusCode, JSON.stringify(over)).toBe(400);
    }
  });
});
