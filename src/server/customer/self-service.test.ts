import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { askForFeedback } from '../flows/rating.js';
import type { DemoRole, TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { readSse, type SseEvent } from '../test/sse.js';
import { stripeTestApp } from '../test/stripe-app.js';
import type { StripeDouble } from '../test/stripe-server.js';
import { ratingSignature } from './rating-links.js';
import { signCustomerToken } from './tokens.js';

let t: TestApp;
let stripe: StripeDouble;
let seq = 0;
const app = stripeTestApp({ STRIPE_SECRET_KEY: 'sk_test_self_service', STRIPE_TIMEOUT_MS: '400' });
beforeAll(() => {
  ({ t, stripe } = app);
});
beforeEach(() => {
  stripe.requests.length = 0;
  stripe.refundBehaviours.length = 0;
});

const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;
let ipCounter = 0;
const nextIp = () => `10.42.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

/** A manual-payment order (no integrated provider) unless told otherwise. */
async function order(over: Record<string, unknown> = {}, language: string | null = null) {
  const row = await createOrder(t.database, { merchant_name: null, transaction_id: null, ...over });
  if (language) await q('update orders set language = $2 where order_id = $1', [row.orderId, language]);
  return row;
}
async function stripeOrder(over: Record<string, unknown> = {}) {
  seq += 1;
  const o = await order({
    merchant_name: 'Stripe',
    transaction_id: `ch_selfservice${Date.now().toString(36)}${seq}`,
    ...over,
  });
  // The provider knows the payment as this order's: a refund goes only to the order's own payment.
  stripe.payments.set(o.transactionId!, {
    amount: Math.round(Number(o.amount) * 100),
    metadata: { order_id: String(o.orderId) },
  });
  return o;
}
const row = async (orderId: number) =>
  (await q<Record<string, unknown>>('select * from orders where order_id = $1', [orderId]))[0]!;
const versionOf = async (orderId: number) => Number((await row(orderId)).version);
const tokenFor = (orderId: number) => signCustomerToken(t.config.JWT_SECRET, orderId);

async function call(method: 'GET' | 'PATCH' | 'POST', url: string, orderId: number, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${await tokenFor(orderId)}` },
    remoteAddress: nextIp(),
    ...(payload ? { payload } : {}),
  });
}
const edit = async (orderId: number, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  call('PATCH', `/api/customer/orders/${orderId}`, orderId, {
    expectedVersion: await versionOf(orderId),
    fields,
    ...extra,
  });
const cancel = async (orderId: number, extra: Record<string, unknown> = {}) =>
  call('POST', `/api/customer/orders/${orderId}/cancel`, orderId, {
    reason: 'My trip was cancelled',
    expectedVersion: await versionOf(orderId),
    ...extra,
  });
const state = (orderId: number, lang = 'en') =>
  call('GET', `/api/customer/orders/${orderId}/self-service?lang=${lang}`, orderId);

describe('PATCH /api/customer/orders/{id}: the customer corrects their details', () => {
  const valid: Record<string, unknown> = {
    first_name: 'Ana',
    last_name: 'Pérez',
    passport_number: 'P1234567',
    passport_expiration: '2034-01-31',
    date_of_birth: '1990-02-03',
    nationality: 'Spain',
    arrival_date: '2030-06-01',
    departure_date: '2030-06-10',
    flight_number: 'KL 765',
    phone_code: '34',
    telephone_number: '600123456',
  };
  const invalid: Record<string, unknown> = {
    first_name: '',
    last_name: 'x'.repeat(101),
    passport_number: 'AB\u0000123',
    passport_expiration: '31-01-2034',
    date_of_birth: '1990-13-45',
    nationality: '',
    arrival_date: 'tomorrow',
    departure_date: 12,
    flight_number: 'x'.repeat(21),
    phone_code: 'abc',
    telephone_number: '12',
  };

  for (const [field, value] of Object.entries(valid)) {
    it(`changes ${field} with a valid value, recorded as a correction by the customer`, async () => {
      const o = await order();
      const res = await edit(o.orderId, { [field]: value });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.changes).toEqual([expect.objectContaining({ field, to: String(value) })]);
      const [event] = await q<{ actor_id: number | null; actor_kind: string; to_value: string }>(
        "select actor_id, actor_kind, to_value from order_events where order_id = $1 and action = 'correction'",
        [o.orderId],
      );
      expect(event).toMatchObject({ actor_id: null, actor_kind: 'customer' });
      expect(JSON.parse(event!.to_value)).toEqual({ [field]: String(value) });
      const [audit] = await q<{ actor_email: string; from_value: unknown }>(
        "select actor_email, from_value from audit_log where action = 'order.correct' and target = $1",
        [`order ${o.orderId}`],
      );
      expect(audit!.actor_email).toBe('customer');
    });
  }

  for (const [field, value] of Object.entries(invalid)) {
    it(`refuses ${field} with an invalid value, named in Spanish, and changes nothing`, async () => {
      const o = await order({}, 'es');
      const before = await row(o.orderId);
      const res = await edit(o.orderId, { [field]: value });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/: este valor no es válido\.$/);
      expect(res.json().data.errors[0].field).toBe(field);
      expect(await row(o.orderId)).toEqual(before);
    });
  }

  it('names the field in the language the page sends (Papiamento)', async () => {
    const o = await order();
    const res = await edit(o.orderId, { passport_number: '' }, { lang: 'pap' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Number di pasport: e balor aki no ta válido.');
  });

  it('refuses a field the customer may not change (the e-mail) and a body without fields', async () => {
    const o = await order();
    expect((await edit(o.orderId, { email: 'evil@example.com' })).statusCode).toBe(400);
    expect((await edit(o.orderId, {})).statusCode).toBe(400);
    expect((await row(o.orderId)).email).toBe(o.email);
  });

  for (const status of ['New', 'Awaiting', 'Customer Called', 'Contact Customer'] as const) {
    it(`is allowed in ${status}`, async () => {
      const o = await order({ process_status: status });
      expect((await edit(o.orderId, { flight_number: 'AA 100' })).statusCode).toBe(200);
    });
  }
  for (const status of ['AwaitingGovt', 'Completed', 'Refunds', 'Refunded', 'ChargeBack'] as const) {
    it(`answers 409 with how to reach support in ${status}, in the order's language`, async () => {
      const o = await order({ process_status: status }, 'nl');
      const res = await edit(o.orderId, { flight_number: 'AA 100' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('kan hier niet meer worden gewijzigd');
      expect(res.json().message).toContain('@');
      expect((await row(o.orderId)).flight_number).toBe(o.flightNumber);
    });
  }
  it('answers 401 for a deleted order', async () => {
    const o = await order({ process_status: 'Deleted' });
    expect((await edit(o.orderId, { flight_number: 'AA 100' })).statusCode).toBe(401);
  });

  it('answers 409 on a stale version, without staff names, and changes nothing', async () => {
    const o = await order();
    const res = await call('PATCH', `/api/customer/orders/${o.orderId}`, o.orderId, {
      expectedVersion: (await versionOf(o.orderId)) + 5,
      fields: { flight_number: 'AA 100' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'Your order has changed meanwhile. Please reload the page and try again.',
    );
    expect((await row(o.orderId)).flight_number).toBe(o.flightNumber);
  });

  it('accepts 10 edits per order per day, then answers 429', async () => {
    const o = await order();
    for (let i = 0; i < 10; i++) {
      const res = await edit(o.orderId, { flight_number: `AA ${100 + i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await edit(o.orderId, { flight_number: 'AA 999' });
    expect(res.statusCode).toBe(429);
    expect((await row(o.orderId)).flight_number).toBe('AA 109');
  });

  it("answers 401 for another order's id or without a token", async () => {
    const mine = await order();
    const theirs = await order();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/customer/orders/${theirs.orderId}`,
      headers: { authorization: `Bearer ${await tokenFor(mine.orderId)}` },
      payload: { expectedVersion: await versionOf(theirs.orderId), fields: { flight_number: 'AA 1' } },
    });
    expect(res.statusCode).toBe(401);
    const staff = await t.tokenFor('Admin');
    const asStaff = await t.app.inject({
      method: 'PATCH',
      url: `/api/customer/orders/${theirs.orderId}`,
      headers: { authorization: `Bearer ${staff}` },
      payload: { expectedVersion: 1, fields: { flight_number: 'AA 1' } },
    });
    expect(asStaff.statusCode).toBe(401);
    expect((await row(theirs.orderId)).flight_number).toBe(theirs.flightNumber);
  });

  it('refuses hostile bodies with a clear 4xx and changes nothing', async () => {
    const o = await order();
    const before = await row(o.orderId);
    for (const payload of [
      { expectedVersion: 'abc', fields: { flight_number: 'AA 1' } },
      { expectedVersion: 1, fields: { flight_number: 'AA 1' }, extra: true },
      { expectedVersion: 1, fields: 'nope' },
      { expectedVersion: 1e12, fields: { flight_number: 'AA 1' } },
      { expectedVersion: await versionOf(o.orderId), fields: { ['x'.repeat(5000)]: 1 } },
      { expectedVersion: await versionOf(o.orderId), fields: { first_name: 'A'.repeat(1_000_000) } },
    ]) {
      const res = await call('PATCH', `/api/customer/orders/${o.orderId}`, o.orderId, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(await row(o.orderId)).toEqual(before);
  });

  it('flags the row "Customer edited" until staff open the order; a held order stays with its holder', async () => {
    const o = await order();
    const [holder] = await q<{ id: number }>("select id from staff_users where role = 'Team' limit 1");
    await q('update orders set assigned_to = $2 where order_id = $1', [o.orderId, holder!.id]);
    expect((await edit(o.orderId, { passport_number: 'Z9876543' })).statusCode).toBe(200);
    const after = await row(o.orderId);
    expect(after.customer_edited_at).not.toBeNull();
    expect(after.assigned_to).toBe(holder!.id);
    const listed = async () => {
      const res = await t.as('Admin', {
        method: 'GET',
        url: '/api/admin/get-orders-list/allOrder?limit=500',
      });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      const rows = (Array.isArray(data) ? data : (data.orders ?? data.rows)) as {
        order_id: number;
        customer_edited?: boolean;
      }[];
      return rows.find((r) => Number(r.order_id) === o.orderId);
    };
    expect((await listed())?.customer_edited).toBe(true);
    const detail = await t.as('Admin', { method: 'GET', url: `/api/admin/get-orders-details/${o.orderId}` });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.customer_edited).toBe(true);
    const history = detail.json().data.events as { action: string; actor_name: string | null }[];
    expect(history.find((e) => e.action === 'correction')?.actor_name).toBe('Customer');
    expect((await row(o.orderId)).customer_edited_at).toBeNull();
    expect((await listed())?.customer_edited).toBe(false);
  });

  for (const status of ['Awaiting', 'Contact Customer'] as const) {
    it(`brings an order in ${status} back to New, as a customer answer does`, async () => {
      const o = await order({ process_status: status });
      expect((await edit(o.orderId, { passport_number: 'Q1234567' })).statusCode).toBe(200);
      expect((await row(o.orderId)).process_status).toBe('New');
    });
  }

  it('runs the order checks again (a departure before the arrival is flagged)', async () => {
    const o = await order();
    expect(
      (await edit(o.orderId, { arrival_date: '2030-06-10', departure_date: '2030-06-01' })).statusCode,
    ).toBe(200);
    const checks = (await row(o.orderId)).checks as { code: string }[];
    expect(checks.map((c) => c.code)).toContain('departure_before_arrival');
  });
});

describe('POST /api/customer/orders/{id}/cancel: the ladder', () => {
  it('shows the policy text and the amount before the customer confirms', async () => {
    const o = await order({ amount: 80 });
    const res = await state(o.orderId, 'es');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cancellation).toEqual({
      percent: 100,
      amount: '80.00 USD',
      policyText: expect.stringContaining('100%'),
    });
    expect(res.json().data.fields.passport_number).toBe(o.passportNumber);
  });

  it('untouched, manual payment: 100 %, to Refunds flagged for the team, mailed in their language', async () => {
    const o = await order({ amount: 80 }, 'pt');
    const res = await cancel(o.orderId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      percent: 100,
      amount: '80.00 USD',
      outcome: 'refunds',
      replayed: false,
    });
    expect((await row(o.orderId)).process_status).toBe('Refunds');
    const remarks = await q<{ remark: string }>('select remark from order_remarks where order_id = $1', [
      o.orderId,
    ]);
    expect(remarks[0]!.remark).toMatch(
      /^Cancelled by the customer \(100 %, 80\.00 USD\): My trip was cancelled/,
    );
    const mails = await q<{ body_text: string }>('select body_text from mail_log where order_id = $1', [
      o.orderId,
    ]);
    expect(mails.map((m) => m.body_text).join('\n')).toContain('foi cancelado');
    const [audit] = await q('select actor_email from audit_log where action = $1 and target = $2', [
      'order.customer-cancel',
      `order ${o.orderId}`,
    ]);
    expect(audit).toEqual({ actor_email: 'customer' });
  });

  it('worked on (a remark): 75 %', async () => {
    const o = await order({ amount: 80 });
    await q("insert into order_remarks (order_id, remark) values ($1, 'checked the passport')", [o.orderId]);
    expect((await state(o.orderId)).json().data.cancellation.percent).toBe(75);
    const res = await cancel(o.orderId);
    expect(res.json().data).toMatchObject({ percent: 75, amount: '60.00 USD', outcome: 'refunds' });
  });

  for (const status of ['AwaitingGovt', 'Completed', 'Refunded', 'ChargeBack'] as const) {
    it(`submitted or closed (${status}): 409 with the policy's text, nothing changes`, async () => {
      const o = await order({ process_status: status });
      const res = await cancel(o.orderId);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('can no longer be cancelled');
      expect(res.json().message).toContain('we refund 100%');
      expect((await row(o.orderId)).process_status).toBe(status);
    });
  }

  it('a replayed cancel answers the first result and refunds nothing', async () => {
    const o = await stripeOrder({ amount: 40 });
    const first = await cancel(o.orderId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({
      percent: 100,
      amount: '40.00 USD',
      outcome: 'refunded',
      replayed: false,
    });
    const again = await cancel(o.orderId);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual({ ...first.json().data, replayed: true });
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(1);
  });

  it('integrated provider, untouched: refunded there in full, Completed Refunds', async () => {
    const o = await stripeOrder({ amount: 59 });
    const res = await cancel(o.orderId);
    expect(res.statusCode, res.body).toBe(200);
    expect((await row(o.orderId)).process_status).toBe('Refunded');
    const [request] = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(request!.form.amount).toBe('5900');
    expect(request!.form.reason).toBe('requested_by_customer');
  });

  it('integrated provider, worked on: 75 % refunded there', async () => {
    const o = await stripeOrder({ amount: 80 });
    const [holder] = await q<{ id: number }>("select id from staff_users where role = 'Team' limit 1");
    await q('update orders set assigned_to = $2 where order_id = $1', [o.orderId, holder!.id]);
    const res = await cancel(o.orderId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ percent: 75, amount: '60.00 USD', outcome: 'refunded' });
    const [request] = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(request!.form.amount).toBe('6000');
  });

  it('a provider error leaves the order as it was and says to try again', async () => {
    const o = await stripeOrder({ amount: 30 });
    stripe.refundBehaviours.push({ kind: 'card_declined' });
    const res = await cancel(o.orderId);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toContain('try again');
    expect((await row(o.orderId)).process_status).toBe('New');
    expect(await q('select 1 from customer_cancellations where order_id = $1', [o.orderId])).toHaveLength(0);
    // Trying again works.
    const retry = await cancel(o.orderId);
    expect(retry.statusCode, retry.body).toBe(200);
    expect((await row(o.orderId)).process_status).toBe('Refunded');
  });

  it('hostile bodies: 4xx, nothing changes', async () => {
    const o = await order();
    for (const payload of [
      { reason: 'a\u0000b', expectedVersion: await versionOf(o.orderId) },
      { reason: 'x'.repeat(5000), expectedVersion: await versionOf(o.orderId) },
      { reason: '', expectedVersion: await versionOf(o.orderId) },
      { reason: 'ok', expectedVersion: -1 },
      { reason: 'ok', expectedVersion: await versionOf(o.orderId), orderId: 1 },
    ]) {
      const res = await call('POST', `/api/customer/orders/${o.orderId}/cancel`, o.orderId, payload);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    const other = await order();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/customer/orders/${other.orderId}/cancel`,
      headers: { authorization: `Bearer ${await tokenFor(o.orderId)}` },
      payload: { reason: 'x', expectedVersion: await versionOf(other.orderId) },
    });
    expect(res.statusCode).toBe(401);
    expect((await row(o.orderId)).process_status).toBe('New');
    expect((await row(other.orderId)).process_status).toBe('New');
  });
});

describe('the policies: Admin only, audited', () => {
  const put = (role: DemoRole, url: string, payload: unknown) =>
    t.as(role, { method: 'PUT', url, payload: payload as object });

  it('cancellation policy: Admin changes it (audited), the ladder follows; others 403', async () => {
    for (const role of ['Manager', 'Team', 'Telecaller', 'Night Staff'] as const) {
      expect(
        (await put(role, '/api/admin/cancellation-policy', { untouchedPercent: 90, workedOnPercent: 50 }))
          .statusCode,
      ).toBe(403);
      expect((await t.as(role, { method: 'GET', url: '/api/admin/cancellation-policy' })).statusCode).toBe(
        403,
      );
    }
    expect(
      (await put('Admin', '/api/admin/cancellation-policy', { untouchedPercent: 101, workedOnPercent: 50 }))
        .statusCode,
    ).toBe(400);
    const res = await put('Admin', '/api/admin/cancellation-policy', {
      untouchedPercent: 90,
      workedOnPercent: 50,
    });
    expect(res.statusCode).toBe(200);
    const o = await order({ amount: 100 });
    expect((await state(o.orderId)).json().data.cancellation).toMatchObject({
      percent: 90,
      amount: '90.00 USD',
    });
    expect(await q("select 1 from audit_log where action = 'cancellation-policy.update'")).toHaveLength(1);
    await put('Admin', '/api/admin/cancellation-policy', { untouchedPercent: 100, workedOnPercent: 75 });
  });

  it('feedback policy: bounds and roles', async () => {
    const get = await t.as('Admin', { method: 'GET', url: '/api/admin/feedback-policy' });
    expect(get.json().data).toEqual({ askAfterMinutes: 1440, enabled: true });
    expect(
      (await put('Admin', '/api/admin/feedback-policy', { askAfterMinutes: 10_081, enabled: true }))
        .statusCode,
    ).toBe(400);
    expect(
      (await put('Admin', '/api/admin/feedback-policy', { askAfterMinutes: -1, enabled: true })).statusCode,
    ).toBe(400);
    expect(
      (await put('Manager', '/api/admin/feedback-policy', { askAfterMinutes: 0, enabled: true })).statusCode,
    ).toBe(403);
    expect(
      (await put('Admin', '/api/admin/feedback-policy', { askAfterMinutes: 10_080, enabled: false }))
        .statusCode,
    ).toBe(200);
    expect(await q("select 1 from audit_log where action = 'feedback-policy.update'")).toHaveLength(1);
  });

  it('track page answers: text only, five per stage, shown in the customer language (English where one lacks)', async () => {
    const url = '/api/admin/track-page-answers';
    const answer = (en: string, extra: object = {}) => ({ stage: 'received', en, ...extra });
    expect((await put('Admin', url, { answers: [answer('<b>bold</b>')] })).statusCode).toBe(400);
    expect((await put('Admin', url, { answers: [answer('a\u0000b')] })).statusCode).toBe(400);
    expect(
      (await put('Admin', url, { answers: Array.from({ length: 6 }, (_, i) => answer(`Answer ${i}`)) }))
        .statusCode,
    ).toBe(400);
    expect((await put('Manager', url, { answers: [] })).statusCode).toBe(403);
    const res = await put('Admin', url, {
      answers: [
        answer('The card is not in my inbox: check the spam folder.', {
          es: 'La tarjeta no está en mi bandeja: revise el spam.',
        }),
        answer('How to correct my details'),
        { stage: 'approved', en: 'Download the card on this page.' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const o = await order();
    expect((await state(o.orderId, 'es')).json().data.answers).toEqual([
      'La tarjeta no está en mi bandeja: revise el spam.',
      'How to correct my details',
    ]);
    expect(await q("select 1 from audit_log where action = 'track-page-answers.update'")).toHaveLength(1);
  });
});

describe('ratings: "How did we do?"', () => {
  async function completedWithCard(over: Record<string, unknown> = {}) {
    const o = await order({ process_status: 'Completed', ...over });
    await q(
      "insert into mail_log (order_id, kind, to_email, provider, status, updated_at) values ($1, 'approval', $2, 'AWS', 'sent', now() - interval '2 days')",
      [o.orderId, o.email],
    );
    return o;
  }
  const rate = (orderId: number, body: object, token = true) =>
    token
      ? call('POST', `/api/customer/orders/${orderId}/rating`, orderId, body)
      : t.app.inject({
          method: 'POST',
          url: `/api/customer/orders/${orderId}/rating`,
          payload: body,
          remoteAddress: nextIp(),
        });

  it('the job mails the question once per order, with five signed links, in the order language', async () => {
    await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/feedback-policy',
      payload: { askAfterMinutes: 0, enabled: true },
    });
    const o = await completedWithCard({});
    await q("update orders set language = 'es' where order_id = $1", [o.orderId]);
    const fresh = await order({ process_status: 'Completed' }); // no card sent: not asked
    await askForFeedback(t.database.db, t.config, 10_000);
    await askForFeedback(t.database.db, t.config, 10_000);
    const mails = await q<{ body_text: string }>(
      "select body_text from mail_log where order_id = $1 and kind = 'notification'",
      [o.orderId],
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body_text).toContain('¿Qué tal lo hicimos?');
    const sig = ratingSignature(t.config.JWT_SECRET, o.orderId);
    for (let n = 1; n <= 5; n++)
      expect(mails[0]!.body_text).toContain(`/rate-order/${o.orderId}?score=${n}&sig=${sig}`);
    expect(
      await q("select 1 from mail_log where order_id = $1 and kind = 'notification'", [fresh.orderId]),
    ).toHaveLength(0);
  });

  it('a disabled policy asks nobody', async () => {
    await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/feedback-policy',
      payload: { askAfterMinutes: 0, enabled: false },
    });
    const o = await completedWithCard();
    await askForFeedback(t.database.db, t.config, 10_000);
    expect(await q('select 1 from rating_requests where order_id = $1', [o.orderId])).toHaveLength(0);
    await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/feedback-policy',
      payload: { askAfterMinutes: 1440, enabled: true },
    });
  });

  it('the signed link rates without the token; a later answer replaces the earlier', async () => {
    const o = await completedWithCard();
    const signature = ratingSignature(t.config.JWT_SECRET, o.orderId);
    const first = await rate(o.orderId, { score: 5, signature }, false);
    expect(first.statusCode, first.body).toBe(200);
    const second = await rate(o.orderId, { score: 4, comment: 'Quick, thank you', signature }, false);
    expect(second.statusCode).toBe(200);
    expect(await q('select score, comment from order_ratings where order_id = $1', [o.orderId])).toEqual([
      { score: 4, comment: 'Quick, thank you' },
    ]);
    expect((await state(o.orderId)).json().data.rating).toEqual({
      asked: true,
      score: 4,
      comment: 'Quick, thank you',
    });
  });

  it("a tampered link, another order's link, no token: 401; out of range: 400; nothing recorded", async () => {
    const o = await completedWithCard();
    const other = await completedWithCard();
    const signature = ratingSignature(t.config.JWT_SECRET, o.orderId);
    expect(
      (await rate(o.orderId, { score: 5, signature: `${signature.slice(0, -1)}A` }, false)).statusCode,
    ).toBe(401);
    expect((await rate(other.orderId, { score: 5, signature }, false)).statusCode).toBe(401);
    expect((await rate(o.orderId, { score: 5 }, false)).statusCode).toBe(401);
    for (const score of [0, 6, 2.5, '5']) {
      expect((await rate(o.orderId, { score, signature }, false)).statusCode).toBe(400);
    }
    expect((await rate(o.orderId, { score: 3, comment: 'a\u0000b', signature }, false)).statusCode).toBe(400);
    expect(
      (await rate(o.orderId, { score: 3, comment: 'x'.repeat(2001), signature }, false)).statusCode,
    ).toBe(400);
    expect(
      await q('select 1 from order_ratings where order_id in ($1, $2)', [o.orderId, other.orderId]),
    ).toHaveLength(0);
  });

  it('an order not completed cannot be rated', async () => {
    const o = await order();
    const signature = ratingSignature(t.config.JWT_SECRET, o.orderId);
    expect((await rate(o.orderId, { score: 5, signature }, false)).statusCode).toBe(400);
  });

  it('a score of 1 or 2: a call-back within the hour, the check dispute_risk, once', async () => {
    const o = await completedWithCard();
    const res = await rate(o.orderId, { score: 2, comment: 'Too slow' });
    expect(res.statusCode, res.body).toBe(200);
    const contacts = await q<{ outcome: string; minutes: number; note: string }>(
      `select outcome, extract(epoch from call_back_at - now()) / 60 as minutes, note
       from order_contacts where order_id = $1`,
      [o.orderId],
    );
    expect(contacts).toHaveLength(1);
    expect(contacts[0]!.outcome).toBe('call_back');
    expect(Number(contacts[0]!.minutes)).toBeGreaterThan(50);
    expect(Number(contacts[0]!.minutes)).toBeLessThanOrEqual(60);
    expect(contacts[0]!.note).toBe('Rated 2 of 5: Too slow');
    const after = await row(o.orderId);
    expect(after.check_flags).toContain('dispute_risk');
    expect(
      (after.checks as { code: string; severity: string }[]).find((c) => c.code === 'dispute_risk'),
    ).toMatchObject({
      severity: 'warn',
    });
    await rate(o.orderId, { score: 1 });
    expect(await q('select 1 from order_contacts where order_id = $1', [o.orderId])).toHaveLength(1);
  });
});

describe('GET /api/admin/insights/ratings', () => {
  it('counts ratings per week, the share of 4–5 and the response rate; the latest comments; per member who completed', async () => {
    const [member] = await q<{ id: number; name: string }>(
      "select id, name from staff_users where role = 'Team' order by id limit 1",
    );
    const rated: number[] = [];
    for (const score of [5, 4, 1]) {
      const o = await order({ process_status: 'Completed' });
      await q(
        "insert into order_events (order_id, actor_id, action, from_value, to_value) values ($1, $2, 'status', 'New', 'Completed')",
        [o.orderId, member!.id],
      );
      await q('insert into rating_requests (order_id) values ($1)', [o.orderId]);
      await q('insert into order_ratings (order_id, score, comment) values ($1, $2, $3)', [
        o.orderId,
        score,
        score === 1 ? 'Never again' : '',
      ]);
      rated.push(o.orderId);
    }
    const asked = await order({ process_status: 'Completed' });
    await q('insert into rating_requests (order_id) values ($1)', [asked.orderId]);
    const res = await t.as('Manager', { method: 'GET', url: '/api/admin/insights/ratings?weeks=2' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.weeks).toHaveLength(2);
    const thisWeek = data.weeks.at(-1);
    expect(thisWeek.count).toBeGreaterThanOrEqual(3);
    expect(thisWeek.goodShare).toBeGreaterThan(0);
    expect(thisWeek.responseRate).toBeLessThan(1);
    expect(data.comments).toContainEqual(
      expect.objectContaining({ orderId: rated[2], score: 1, comment: 'Never again' }),
    );
    expect(data.staff).toContainEqual(
      expect.objectContaining({ staffId: member!.id, name: member!.name, count: 3, average: 3.33 }),
    );
    expect((await t.as('Team', { method: 'GET', url: '/api/admin/insights/ratings' })).statusCode).toBe(403);
    expect(
      (await t.as('Manager', { method: 'GET', url: '/api/admin/insights/ratings?weeks=99' })).statusCode,
    ).toBe(400);
  });
});

describe('live: the holder sees the correction, the managers the low rating', () => {
  interface Stream {
    events: SseEvent[];
    close(): void;
  }
  const openStream = (port: number, token: string) =>
    new Promise<Stream>((resolve, reject) => {
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
  async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      try {
        check();
        return;
      } catch (err) {
        if (Date.now() > until) throw err;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  }

  it('streams the customer correction to the holder and the low-rating notice to Admin and Manager only', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const holder = await openStream(port, await t.tokenFor('Team'));
    const manager = await openStream(port, await t.tokenFor('Manager'));
    try {
      const o = await order();
      expect((await edit(o.orderId, { passport_number: 'L1234567' })).statusCode).toBe(200);
      await eventually(() =>
        expect(
          holder.events.some(
            (e) => e.event === 'order' && e.data.orderId === o.orderId && e.data.action === 'correction',
          ),
        ).toBe(true),
      );
      const done = await order({ process_status: 'Completed' });
      await q(
        "insert into mail_log (order_id, kind, to_email, provider, status) values ($1, 'approval', $2, 'AWS', 'sent')",
        [done.orderId, done.email],
      );
      const signature = ratingSignature(t.config.JWT_SECRET, done.orderId);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/customer/orders/${done.orderId}/rating`,
        payload: { score: 1, signature },
        remoteAddress: nextIp(),
      });
      expect(res.statusCode).toBe(200);
      await eventually(() =>
        expect(manager.events).toContainEqual(
          expect.objectContaining({
            event: 'notice',
            data: expect.objectContaining({ kind: 'low-rating', orderId: done.orderId, score: 1 }),
          }),
        ),
      );
      expect(holder.events.some((e) => e.event === 'notice')).toBe(false);
    } finally {
      holder.close();
      manager.close();
    }
  });
});

describe('an erased order', () => {
  it('answers every self-service call as an unknown order (401), with a token issued before the erasure', async () => {
    const o = await order({ process_status: 'Completed' });
    const version = await versionOf(o.orderId);
    await q("insert into order_events (order_id, action) values ($1, 'erase')", [o.orderId]);
    expect((await state(o.orderId)).statusCode).toBe(401);
    const res = await call('PATCH', `/api/customer/orders/${o.orderId}`, o.orderId, {
      expectedVersion: version,
      fields: { flight_number: 'AA 1' },
    });
    expect(res.statusCode).toBe(401);
    const signature = ratingSignature(t.config.JWT_SECRET, o.orderId);
    const rated = await t.app.inject({
      method: 'POST',
      url: `/api/customer/orders/${o.orderId}/rating`,
      payload: { score: 5, signature },
      remoteAddress: nextIp(),
    });
    expect(rated.statusCode).toBe(401);
  });
});
