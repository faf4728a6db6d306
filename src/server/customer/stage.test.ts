import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../shared/constants.js';
import { customerStageOf } from '../../shared/customer-stage.js';
import en from '../../shared/i18n/en.js';
import es from '../../shared/i18n/es.js';
import { orderEvents, orders } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { buildOrder, createOrder } from '../test/factories.js';
import { multipart } from '../test/smtp.js';

const KEY = 'intake-key-for-stage-tests-0123456789';
let t: TestApp;
let ipCounter = 0;
const nextIp = () => `10.21.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({ INTAKE_API_KEY: KEY, ALT_LANDING_HOST: 'aruba-card.example' });
});
afterAll(async () => {
  await t.close();
});

const track = (body: object) =>
  t.app.inject({ method: 'POST', url: '/api/front/track-order', payload: body, remoteAddress: nextIp() });

async function tokenFor(orderId: number, email: string): Promise<string> {
  const res = await track({ orderId: String(orderId), email });
  expect(res.statusCode).toBe(200);
  return res.json().data.token as string;
}

const history = (token: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/front/get-download-history',
    payload,
    remoteAddress: nextIp(),
    headers: { authorization: token },
  });

async function languageOf(orderId: number) {
  const [row] = await t.database.db
    .select({ language: orders.language, version: orders.version })
    .from(orders)
    .where(eq(orders.orderId, orderId));
  const events = await t.database.db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.action, 'language')));
  return { language: row!.language, version: row!.version, events };
}

describe('the tracking answer says where the order is', () => {
  it.each(ORDER_STATUSES.filter((s) => s !== 'Deleted'))('%s', async (status) => {
    const order = await createOrder(t.database, { process_status: status });
    const token = await tokenFor(order.orderId, order.email);
    const res = await history(token, { orderId: order.orderId });
    expect(res.statusCode).toBe(200);
    const summary = res.json().mainResult;
    const { stage, messageKey } = customerStageOf(status);
    expect(summary.stage).toBe(stage);
    expect(summary.process_status).toBe(status);
    // The English message with its values filled in: no ICU braces left.
    expect(summary.stageMessage).not.toMatch(/[{}]/);
    expect(summary.stageMessage.startsWith(en[messageKey].split('{')[0]!)).toBe(true);
    expect(summary.stageRequest).toBeNull();
  });

  it('answers the stage message in the page language', async () => {
    const order = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    const token = await tokenFor(order.orderId, order.email);
    const res = await history(token, { orderId: order.orderId, lang: 'es' });
    expect(res.statusCode).toBe(200);
    expect(res.json().mainResult.stageMessage).toBe(es['stage.with_government.message']);
  });
});

describe('a deleted order', () => {
  it('tracked with its right e-mail says it was cancelled and how to reach support, without a token', async () => {
    const order = await createOrder(t.database, { process_status: 'Deleted', email: 'Gone@Example.com' });
    const res = await track({ orderId: String(order.orderId), email: 'gone@example.com' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe(1);
    expect(body.message).toBe('This order was cancelled.');
    expect(body.data).toBeUndefined();
    expect(body.cancelled).toMatchObject({ order_id: order.orderId, brand: 'main', stage: 'cancelled' });
    expect(body.cancelled.stageMessage).toContain(String(order.orderId));
    expect(body.cancelled.stageMessage).toMatch(/contact support at \S+@\S+\./);
  });

  it('answers in the language asked for, with the alternate brand when it came from there', async () => {
    const order = await createOrder(t.database, {
      process_status: 'Deleted',
      landing_domain: 'aruba-card.example',
    });
    const res = await track({ orderId: String(order.orderId), email: order.email, lang: 'pt' });
    expect(res.statusCode).toBe(200);
    expect(res.json().cancelled.brand).toBe('alt');
    expect(res.json().cancelled.stageMessage).toMatch(/^O pedido \d+ foi cancelado\./);
  });

  it('tracked with a wrong e-mail answers exactly like an unknown order', async () => {
    const order = await createOrder(t.database, { process_status: 'Deleted' });
    const wrongEmail = await track({ orderId: String(order.orderId), email: 'someone.else@example.com' });
    const unknown = await track({ orderId: String(order.orderId + 900_000), email: order.email });
    expect(wrongEmail.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(wrongEmail.json()).toEqual(unknown.json());
    expect(wrongEmail.body).not.toMatch(/cancel/i);
  });

  it('gives no tracking answer to a token issued before the order was deleted', async () => {
    const order = await createOrder(t.database);
    const token = await tokenFor(order.orderId, order.email);
    await t.database.db
      .update(orders)
      .set({ processStatus: 'Deleted' })
      .where(eq(orders.orderId, order.orderId));
    const res = await history(token, { orderId: order.orderId, lang: 'es', languageChosen: true });
    expect(res.statusCode).toBe(401);
    expect((await languageOf(order.orderId)).language).toBeNull();
  });
});

describe("the order's language", () => {
  it('is stored from the customer choice, with an order event, and only when it changes', async () => {
    const order = await createOrder(t.database);
    const token = await tokenFor(order.orderId, order.email);
    expect((await languageOf(order.orderId)).language).toBeNull();
    expect(
      (await history(token, { orderId: order.orderId, lang: 'nl', languageChosen: true })).statusCode,
    ).toBe(200);
    const first = await languageOf(order.orderId);
    expect(first.language).toBe('nl');
    expect(first.events.map((e) => [e.fromValue, e.toValue])).toEqual([[null, 'nl']]);
    // The same language again writes nothing.
    await history(token, { orderId: order.orderId, lang: 'nl', languageChosen: true });
    expect((await languageOf(order.orderId)).version).toBe(first.version);
    // A new choice replaces it.
    await history(token, { orderId: order.orderId, lang: 'pap', languageChosen: true });
    expect((await languageOf(order.orderId)).language).toBe('pap');
  });

  it("takes the browser's language only when none is stored", async () => {
    const order = await createOrder(t.database);
    const token = await tokenFor(order.orderId, order.email);
    await history(token, { orderId: order.orderId, lang: 'pt', languageChosen: false });
    expect((await languageOf(order.orderId)).language).toBe('pt');
    await history(token, { orderId: order.orderId, lang: 'es' });
    expect((await languageOf(order.orderId)).language).toBe('pt');
    // Without a page language, the answer speaks the stored one.
    const res = await history(token, { orderId: order.orderId });
    expect(res.json().mainResult.stageMessage).toMatch(/^Recebemos o seu pedido/);
  });

  it.each([
    ['an unknown language', 'de'],
    ['a NUL character', 'es\u0000'],
    ['a control character', 'e\u0007s'],
    ['a huge value', 'es'.repeat(50_000)],
    ['a region tag', 'es-AR'],
    ['a number', 7],
    ['an object', { toString: 'es' }],
  ])('refuses %s with 400 and stores nothing', async (_, lang) => {
    const order = await createOrder(t.database);
    const token = await tokenFor(order.orderId, order.email);
    const res = await history(token, { orderId: order.orderId, lang, languageChosen: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe(0);
    const after = await languageOf(order.orderId);
    expect(after.language).toBeNull();
    expect(after.events).toEqual([]);
    // The track call refuses it too, before any lookup.
    const tracked = await track({ orderId: String(order.orderId), email: order.email, lang });
    expect(tracked.statusCode).toBe(400);
  });

  it("never writes another order's language with a token for a different order", async () => {
    const mine = await createOrder(t.database);
    const other = await createOrder(t.database);
    const token = await tokenFor(mine.orderId, mine.email);
    const res = await history(token, { orderId: other.orderId, lang: 'es', languageChosen: true });
    expect(res.statusCode).toBe(401);
    expect((await languageOf(other.orderId)).language).toBeNull();
  });
});

describe('intake keeps the language of the application site', () => {
  const intake = (body: object, url = '/api/intake/orders', headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', 'x-intake-key': KEY, ...headers },
      payload: JSON.stringify(body),
    });

  it('from ?lang=', async () => {
    const res = await intake(buildOrder(), '/api/intake/orders?lang=pap');
    expect(res.statusCode).toBe(200);
    expect((await languageOf(res.json().data.order_id)).language).toBe('pap');
  });

  it('else from Accept-Language, else none', async () => {
    const res = await intake(buildOrder(), '/api/intake/orders', { 'accept-language': 'de-DE, es-MX;q=0.8' });
    expect((await languageOf(res.json().data.order_id)).language).toBe('es');
    const none = await intake(buildOrder(), '/api/intake/orders', { 'accept-language': 'de, fr;q=0.5' });
    expect((await languageOf(none.json().data.order_id)).language).toBeNull();
  });

  it.each([
    ['unknown', 'de'],
    ['NUL', 'es%00'],
    ['huge', 'x'.repeat(5000)],
  ])('refuses a %s ?lang= with 400 and creates no order', async (_, lang) => {
    const body = buildOrder();
    const res = await intake(body, `/api/intake/orders?lang=${lang}`);
    expect(res.statusCode).toBe(400);
    const rows = await t.database.db
      .select({ id: orders.orderId })
      .from(orders)
      .where(eq(orders.clientReference, String(body.client_reference)));
    expect(rows).toEqual([]);
  });
});

describe("action_needed shows the staff's request", () => {
  const macroId = async (name: string) => {
    const res = await t.as('Team', { method: 'GET', url: '/api/admin/macros' });
    return (res.json().data as { id: number; name: string }[]).find((m) => m.name === name)!.id;
  };
  const applyMacro = async (name: string, orderId: number) => {
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: await macroId(name), orderIds: [orderId] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.orders[0].result).toBe('done');
  };

  it("as the text of the macro's mail, values as text, in the customer's language", async () => {
    const order = await createOrder(t.database, {
      first_name: '<script>alert(1)</script>',
      last_name: 'Ruiz',
    });
    const token = await tokenFor(order.orderId, order.email);
    await history(token, { orderId: order.orderId, lang: 'es', languageChosen: true });
    await applyMacro('Request clearer passport photo', order.orderId);
    const res = await history(token, { orderId: order.orderId, lang: 'es' });
    const summary = res.json().mainResult;
    expect(summary.stage).toBe('action_needed');
    expect(summary.stageMessage).toBe(es['stage.action_needed.message']);
    // The Spanish passport-photo mail, with the first name as plain text (the page shows it as text).
    expect(summary.stageRequest).toContain(`<script>alert(1)</script> Ruiz`);
    expect(summary.stageRequest).toContain(String(order.orderId));
    expect(summary.stageRequest).not.toMatch(/<p>|&lt;/);
    expect(summary.stageRequest).toMatch(/pasaporte/i);
  });

  it('not for the generic status notification, nor once the order has moved on', async () => {
    const order = await createOrder(t.database);
    const token = await tokenFor(order.orderId, order.email);
    const moved = await t.as('Team', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'Awaiting' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const generic = (await history(token, { orderId: order.orderId })).json().mainResult;
    expect(generic.stage).toBe('action_needed');
    expect(generic.stageRequest).toBeNull();

    const order2 = await createOrder(t.database);
    const token2 = await tokenFor(order2.orderId, order2.email);
    await applyMacro('Request clearer passport photo', order2.orderId);
    expect((await history(token2, { orderId: order2.orderId })).json().mainResult.stageRequest).toMatch(
      /passport photo/,
    );
    await moveOn(order2.orderId, token2);
  });

  it("a member's own words are the request; after the customer's answer the stage says it was received (decision 392)", async () => {
    const order = await createOrder(t.database, { process_status: 'Awaiting', assigned_to: null });
    const token = await tokenFor(order.orderId, order.email);
    const before = (await history(token, { orderId: order.orderId })).json().mainResult;
    expect(before).toMatchObject({ stage: 'action_needed', stageAnswered: false });
    const text = 'Please send a photo of the passport page with your photo, without glare.';
    const sent = await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/messages`,
      payload: { body: text, provider: 'AWS' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const asked = (await history(token, { orderId: order.orderId })).json().mainResult;
    expect(asked).toMatchObject({
      stage: 'action_needed',
      stageRequest: text,
      stageAnswered: false,
      stageMessage: en['stage.action_needed.message'],
    });
    const { payload, headers } = multipart({ message: 'Here it is' }, []);
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/customer/orders/${order.orderId}/replies`,
      payload,
      headers: { ...headers, authorization: token },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    // The answer moved the order back to New: the page still says the answer was received.
    const answered = (await history(token, { orderId: order.orderId, lang: 'es' })).json().mainResult;
    expect(answered).toMatchObject({
      stage: 'received',
      stageRequest: text,
      stageAnswered: true,
      stageMessage: es['stage.answered.message'],
    });
    // A new request after the answer asks again.
    await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/messages`,
      payload: { body: 'One more thing: your flight number.', provider: 'AWS', moveTo: 'Awaiting' },
    });
    const again = (await history(token, { orderId: order.orderId })).json().mainResult;
    expect(again).toMatchObject({
      stage: 'action_needed',
      stageRequest: 'One more thing: your flight number.',
      stageAnswered: false,
    });
  });

  it('a request sent with the move to Awaiting, then answered on the page (decision 392)', async () => {
    const order = await createOrder(t.database, { process_status: 'New', assigned_to: null });
    const token = await tokenFor(order.orderId, order.email);
    const sent = await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/messages`,
      payload: { body: 'Send a clearer photo.', provider: 'AWS', moveTo: 'Awaiting' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await history(token, { orderId: order.orderId })).json().mainResult).toMatchObject({
      stage: 'action_needed',
      stageRequest: 'Send a clearer photo.',
      stageAnswered: false,
    });
    const { payload, headers } = multipart({ message: 'Here it is' }, []);
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/customer/orders/${order.orderId}/replies`,
      payload,
      headers: { ...headers, authorization: token },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const after = (await history(token, { orderId: order.orderId })).json().mainResult;
    expect(after, JSON.stringify(after)).toMatchObject({
      stageRequest: 'Send a clearer photo.',
      stageAnswered: true,
    });
  });

  const moveOn = async (orderId: number, token: string) => {
    const order = { orderId };
    const govt = await t.as('Team', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'AwaitingGovt' },
    });
    expect(govt.statusCode, govt.body).toBe(200);
    const later = (await history(token, { orderId: order.orderId })).json().mainResult;
    expect(later.stage).toBe('with_government');
    expect(later.stageRequest).toBeNull();
    // Back to Awaiting without a new macro: the earlier request belongs to the earlier period.
    await t.as('Team', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'Awaiting' },
    });
    expect((await history(token, { orderId: order.orderId })).json().mainResult.stageRequest).toBeNull();
  };
});
