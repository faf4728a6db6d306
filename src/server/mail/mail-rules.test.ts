import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_MAIL_LIMITS } from './limits.js';
import { type MailQueue, startMailQueue } from './queue.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { endUndoWindow } from '../test/mail-hold.js';
import { eventually, multipart, startSmtp, type TestSmtp } from '../test/smtp.js';

/**
 * The customer-mail rules (decisions 294–298): values frozen when queued, limits and repeats on every
 * path, mails held for Undo and cancelled by it, Completed needs a card, uploads follow the move rules.
 */

let t: TestApp;
let smtp: TestSmtp;
let queue: MailQueue;
const ids: Record<string, number> = {};

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ MAIL_AWS_SMTP_URL: smtp.url, MAIL_SENDGRID_SMTP_URL: smtp.url });
  queue = await startMailQueue(t.app, {
    retryDelaySeconds: 1,
    retryLimit: 1,
    pollingIntervalSeconds: 0.5,
    dispatchIntervalMs: 300,
    reminderCron: null,
  });
  const on = [
    { status: 'Awaiting', enabled: true, templateKey: 'awaiting-customer' },
    { status: 'Completed', enabled: true, templateKey: 'order-completed' },
  ];
  const res = await t.as('Admin', {
    method: 'PUT',
    url: '/api/admin/status-notifications',
    payload: { settings: on },
  });
  expect(res.statusCode, res.body).toBe(200);
  const { rows } = await t.database.sql.query<{ id: number; name: string }>(
    'select id, name from staff_users',
  );
  for (const r of rows) ids[r.name] = r.id;
});
afterAll(async () => {
  await queue.stop();
  await t.close();
  await smtp.close();
});

const q = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query(text, params)).rows as T[];

const move = (role: DemoRole, orderId: number, updatingStatus: string, extra: Record<string, unknown> = {}) =>
  t.as(role, {
    method: 'PUT',
    url: '/api/admin/move-order-status',
    payload: { orderId, updatingStatus, ...extra },
  });

const mails = (orderId: number) =>
  q<{ id: string; kind: string; status: string; held: boolean; key: string | null }>(
    `select m.id::text, m.kind, m.status, m.hold_until is not null as held, t.key
       from mail_log m left join mail_templates t on t.id = m.template_id where m.order_id = $1 order by m.id`,
    [orderId],
  );

const statusOf = async (orderId: number) =>
  (await q<{ s: string }>('select process_status s from orders where order_id = $1', [orderId]))[0]?.s;

const upload = async (role: DemoRole, orderId: number, fields: Record<string, string> = {}) =>
  t.as(role, {
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    ...multipart(
      { orderId: String(orderId), email: fields.email ?? '', mailServiceProvider: 'AWS', ...fields },
      { name: 'card.pdf', type: 'application/pdf', content: await samplePdf('CARD') },
    ),
  });

async function orderWith(over: Record<string, unknown> = {}) {
  const o = await createOrder(t.database, over);
  const email = (await q<{ email: string }>('select email from orders where order_id = $1', [o.orderId]))[0]!
    .email;
  return { orderId: o.orderId, email };
}

describe('values are frozen when a mail is queued', () => {
  it('a remark added after the macro never reaches the customer', async () => {
    const tpl = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/mail-templates',
      payload: {
        key: 'note-for-you',
        name: 'Note for you',
        language: 'en',
        purpose: 'customer',
        subject: 'Order {{order_id}}',
        body: 'Our note: {{remark}}',
      },
    });
    expect(tpl.statusCode, tpl.body).toBe(200);
    const macro = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/macros',
      payload: {
        name: 'Mail the note',
        remark: 'Please send a clearer passport photo.',
        moveTo: null,
        templateKey: 'note-for-you',
        whatsappText: null,
        requiresDocument: false,
      },
    });
    expect(macro.statusCode, macro.body).toBe(200);
    const { orderId } = await orderWith({ email: 'frozen@example.com' });
    const applied = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: macro.json().data.id, orderIds: [orderId] },
    });
    expect(applied.json().data.orders[0], applied.body).toMatchObject({ result: 'done' });
    const internal = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId, remark: 'INTERNAL: customer is rude, passport 123456789' },
    });
    expect(internal.statusCode, internal.body).toBe(200);
    // The undo window ends at once here (its own test is below).
    expect(await endUndoWindow(t.database, [orderId])).toBe(1);
    const mail = await eventually(
      async () => smtp.messages.find((m) => (m.to as { text: string }).text === 'frozen@example.com'),
      30_000,
    );
    expect(mail.text).toContain('Please send a clearer passport photo.');
    expect(mail.text).not.toContain('INTERNAL');
    expect(mail.html || '').not.toContain('INTERNAL');
  }, 45_000);
});

describe('Completed needs a current document', () => {
  it('refuses the detail move and a macro without a card, with a clear message; nothing changes', async () => {
    const { orderId } = await orderWith();
    const res = await move('Team', orderId, 'Completed');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/no approved card yet: upload the card before completing/);
    const macros = (await t.as('Team', { method: 'GET', url: '/api/admin/macros' })).json().data as {
      id: number;
      moveTo: string | null;
      requiresDocument: boolean;
    }[];
    const toCompleted = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/macros',
      payload: {
        name: 'Close it',
        remark: null,
        moveTo: 'Completed',
        templateKey: null,
        whatsappText: null,
        requiresDocument: false,
      },
    });
    expect(toCompleted.statusCode, toCompleted.body).toBe(200);
    expect(macros.length).toBeGreaterThan(0);
    const applied = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: toCompleted.json().data.id, orderIds: [orderId] },
    });
    expect(applied.json().data.orders[0]).toMatchObject({ result: 'refused', processStatus: 'New' });
    expect(applied.json().data.orders[0].message).toMatch(/no approved card/);
    expect(await statusOf(orderId)).toBe('New');
    expect(await mails(orderId)).toEqual([]);
  });

  it('a withdrawn card does not count; a current card does', async () => {
    const { orderId, email } = await orderWith();
    expect((await upload('Team', orderId, { email })).statusCode).toBe(200);
    const [doc] = await q<{ id: number }>('select id from documents where order_id = $1', [orderId]);
    const withdrawn = await t.as('Manager', {
      method: 'DELETE',
      url: `/api/admin/order-document/${doc!.id}`,
      payload: { reason: 'wrong passport' },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await move('Team', orderId, 'Completed')).statusCode).toBe(409);
    expect((await upload('Team', orderId, { email })).statusCode).toBe(200);
    expect((await move('Team', orderId, 'Completed')).statusCode).toBe(200);
  });

  it('an Admin may force it with a reason: audited, and no mail goes out; others may not', async () => {
    const { orderId } = await orderWith();
    const team = await move('Team', orderId, 'Completed', { forceReason: 'Card handed over at the desk' });
    expect(team.statusCode).toBe(403);
    for (const forceReason of ['a\u0000b', 'x'.repeat(501), '', 7]) {
      expect((await move('Admin', orderId, 'Completed', { forceReason })).statusCode).toBe(400);
    }
    expect((await move('Admin', orderId, 'Awaiting', { forceReason: 'not for this move' })).statusCode).toBe(
      400,
    );
    expect(await statusOf(orderId)).toBe('New');
    const forced = await move('Admin', orderId, 'Completed', { forceReason: 'Card handed over at the desk' });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(forced.json().message).toMatch(/No mail was sent/);
    expect(await statusOf(orderId)).toBe('Completed');
    expect(await mails(orderId)).toEqual([]);
    const audit = await q<{ n: number }>(
      `select count(*)::int n from audit_log where action = 'order.force-complete' and target = $1`,
      [`order ${orderId}`],
    );
    expect(audit[0]!.n).toBe(1);
  });
});

describe('a mail caused by a move is held for Undo', () => {
  it('Undo cancels the held mail and moves back; the customer gets nothing', async () => {
    const { orderId } = await orderWith({ email: 'undo@example.com', process_status: 'Customer Called' });
    const moved = await move('Team', orderId, 'Awaiting');
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data.mail).toMatchObject({ kind: 'notification', language: 'en' });
    expect(moved.json().data.mail.heldUntil).toEqual(expect.any(String));
    expect(moved.json().message).toMatch(
      /The mail ".+" \(EN\) is pending: it goes to the customer in 12 seconds/,
    );
    await queue.dispatch();
    expect((await mails(orderId)).map((m) => [m.status, m.held])).toEqual([['queued', true]]);

    // Someone else cannot "undo" it, and the owner cannot undo to another status.
    expect((await move('Manager', orderId, 'Customer Called', { undo: true })).statusCode).toBe(409);
    expect((await move('Team', orderId, 'Contact Customer', { undo: true })).statusCode).toBe(409);

    const undone = await move('Team', orderId, 'Customer Called', { undo: true });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().data.cancelledMails).toBe(1);
    expect(await statusOf(orderId)).toBe('Customer Called');
    expect((await mails(orderId)).map((m) => m.status)).toEqual(['cancelled']);
    await queue.dispatch();
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.messages.some((m) => (m.to as { text: string }).text === 'undo@example.com')).toBe(false);
  });

  it('without Undo the held mail goes after the hold', async () => {
    const { orderId } = await orderWith({ email: 'held@example.com' });
    expect((await move('Team', orderId, 'Awaiting')).statusCode).toBe(200);
    await queue.dispatch();
    expect((await mails(orderId))[0]!.status).toBe('queued');
    const mail = await eventually(
      async () => smtp.messages.find((m) => (m.to as { text: string }).text === 'held@example.com'),
      30_000,
    );
    expect(mail.subject).toBeTruthy();
    // The test server has the message before the queue has written its answer: wait for the row.
    const status = await eventually(async () => {
      const s = (await mails(orderId))[0]!.status;
      return s === 'sent' ? s : null;
    }, 5_000).catch(async () => (await mails(orderId))[0]!.status);
    expect(status).toBe('sent');
  }, 40_000);

  it('undo after the window is refused', async () => {
    const { orderId } = await orderWith({ process_status: 'Awaiting' });
    expect((await move('Team', orderId, 'Customer Called')).statusCode).toBe(200);
    await t.database.sql.query(
      `update order_events set created_at = now() - interval '1 minute' where order_id = $1`,
      [orderId],
    );
    const late = await move('Team', orderId, 'New', { undo: true });
    expect(late.statusCode).toBe(400);
    const tooLate = await move('Team', orderId, 'Awaiting', { undo: true });
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json().message).toMatch(/too late to undo/);
  });
});

describe("a macro's mail is held and can be cancelled", () => {
  it('cancel-pending-mail cancels only your own held mail; hostile ids change nothing', async () => {
    const { orderId } = await orderWith({ email: 'macro-held@example.com' });
    const macros = (await t.as('Team', { method: 'GET', url: '/api/admin/macros' })).json().data as {
      id: number;
      name: string;
    }[];
    const macro = macros.find((m) => m.name === 'Request clearer passport photo')!;
    const applied = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: macro.id, orderIds: [orderId] },
    });
    expect(applied.json().data.orders[0]).toMatchObject({ result: 'done', mailHeld: true });
    expect(applied.json().data.orders[0].message).toMatch(/mail ".+" \(en\) queued/);
    const cancel = (role: DemoRole, id: unknown) =>
      t.as(role, { method: 'POST', url: `/api/admin/orders/${id}/cancel-pending-mail`, payload: {} });
    // Someone else's mail is not theirs to cancel.
    expect((await cancel('Manager', orderId)).statusCode).toBe(409);
    for (const bad of ['x', '-1', '1%00', '9'.repeat(40)])
      expect((await cancel('Team', bad)).statusCode).toBe(400);
    expect((await cancel('Team', 999_999_991)).statusCode).toBe(404);
    expect((await mails(orderId)).map((m) => m.status)).toEqual(['queued']);
    const ok = await cancel('Team', orderId);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.cancelled).toBe(1);
    expect((await mails(orderId)).map((m) => m.status)).toEqual(['cancelled']);
    expect((await cancel('Team', orderId)).statusCode).toBe(409);
  });

  it('a macro on an order someone else just moved says who, and goes on when confirmed', async () => {
    const { orderId } = await orderWith();
    expect((await move('Manager', orderId, 'Customer Called')).statusCode).toBe(200);
    const macros = (await t.as('Team', { method: 'GET', url: '/api/admin/macros' })).json().data as {
      id: number;
      name: string;
    }[];
    const macro = macros.find((m) => m.name === 'Sent to government')!;
    const apply = (confirmRecent?: boolean) =>
      t.as('Team', {
        method: 'POST',
        url: '/api/admin/apply-macro',
        payload: { macroId: macro.id, orderIds: [orderId], ...(confirmRecent ? { confirmRecent } : {}) },
      });
    const first = (await apply()).json().data.orders[0];
    expect(first).toMatchObject({
      result: 'refused',
      message: 'Demo Manager just moved this to Customer Called — continue?',
      recentMove: { by: 'Demo Manager', to: 'Customer Called' },
    });
    expect((await apply(true)).json().data.orders[0]).toMatchObject({
      result: 'done',
      processStatus: 'AwaitingGovt',
    });
  });
});

describe('mail-preview says which mail an action sends', () => {
  it('names the template and language, renders it, and refuses hostile queries', async () => {
    const { orderId } = await orderWith();
    await t.database.sql.query(`update orders set language = 'es' where order_id = $1`, [orderId]);
    const get = (query: string, id: unknown = orderId, role: DemoRole = 'Telecaller') =>
      t.as(role, { method: 'GET', url: `/api/admin/orders/${id}/mail-preview?${query}` });
    const awaiting = await get('status=Awaiting');
    expect(awaiting.statusCode, awaiting.body).toBe(200);
    expect(awaiting.json().data).toMatchObject({ language: 'es', repeatMinutes: null });
    expect(awaiting.json().data.templateName).toEqual(expect.any(String));
    expect(awaiting.json().data.html).toContain(String(orderId));
    expect((await get('status=Customer%20Called')).json().data).toBeNull();
    // Completed without a card would be refused: the preview says why instead.
    const noCard = await get('status=Completed');
    expect(noCard.statusCode).toBe(409);
    expect(noCard.json().message).toMatch(/no approved card yet/);
    const macros = (await t.as('Team', { method: 'GET', url: '/api/admin/macros' })).json().data as {
      id: number;
      name: string;
    }[];
    const macro = macros.find((m) => m.name === 'Sent to government')!;
    expect((await get(`macroId=${macro.id}`)).json().data.language).toBe('es');
    expect((await get('')).json().data).toBeNull();
    for (const bad of [
      `status=Awaiting&macroId=${macro.id}`,
      'status=New',
      'status=Awaiting%00',
      'macroId=-1',
      `macroId=${'9'.repeat(30)}`,
      'status=Awaiting&sql=1',
    ]) {
      expect((await get(bad)).statusCode, bad).toBe(400);
    }
    expect((await get('status=Awaiting', 999_999_993)).statusCode).toBe(404);
    expect((await get('macroId=999999')).statusCode).toBe(404);
    expect((await get('status=Awaiting', 'x')).statusCode).toBe(400);
    // Nothing was queued by looking.
    expect(await mails(orderId)).toEqual([]);
  });
});

describe('a move right after someone else asks first', () => {
  it('answers 409 naming who moved it where; confirmRecent continues', async () => {
    const { orderId } = await orderWith();
    expect((await move('Manager', orderId, 'Customer Called')).statusCode).toBe(200);
    const second = await move('Team', orderId, 'Contact Customer');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('Demo Manager just moved this to Customer Called — continue?');
    expect(second.json().data.recentMove).toEqual({ by: 'Demo Manager', to: 'Customer Called' });
    expect(await statusOf(orderId)).toBe('Customer Called');
    expect((await move('Team', orderId, 'Contact Customer', { confirmRecent: true })).statusCode).toBe(200);
    // The actor's own recent move never asks.
    expect((await move('Team', orderId, 'AwaitingGovt')).statusCode).toBe(200);
  });
});

describe('customer mail limits', () => {
  it('20 moves Awaiting <-> Customer Called mail the customer once', async () => {
    const { orderId } = await orderWith();
    for (let i = 0; i < 10; i++) {
      expect((await move('Team', orderId, 'Awaiting')).statusCode).toBe(200);
      expect((await move('Team', orderId, 'Customer Called')).statusCode).toBe(200);
    }
    expect((await mails(orderId)).map((m) => m.key)).toEqual(['awaiting-customer']);
  });

  it('per order: over the limit a move answers 429 with Retry-After and changes nothing', async () => {
    const { orderId, email } = await orderWith();
    await t.database.sql.query(
      `insert into mail_log (order_id, kind, to_email, provider, status, requested_by)
       select $1, 'invoice', $2, 'AWS', 'sent', $3 from generate_series(1, $4)`,
      [orderId, email, ids['Demo Admin'], CUSTOMER_MAIL_LIMITS.perOrder.max],
    );
    const res = await move('Team', orderId, 'Awaiting');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.json().message).toMatch(/has been mailed 10 times in the last hour/);
    expect(await statusOf(orderId)).toBe('New');
    const invoice = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/send-invoice',
      payload: { orderId },
    });
    expect(invoice.statusCode).toBe(429);
  });

  it('per staff member: a macro over the limit refuses each order with the reason', async () => {
    const { orderId: filler } = await orderWith();
    await t.database.sql.query(
      `insert into mail_log (order_id, kind, to_email, provider, status, requested_by)
       select $1, 'macro', 'x@example.com', 'AWS', 'sent', $2 from generate_series(1, $3)`,
      [filler, ids['Demo Night Staff'], CUSTOMER_MAIL_LIMITS.perStaff.max],
    );
    const a = await orderWith();
    const b = await orderWith();
    const macros = (await t.as('Night Staff', { method: 'GET', url: '/api/admin/macros' })).json().data as {
      id: number;
      name: string;
    }[];
    const macro = macros.find((m) => m.name === 'Request clearer passport photo')!;
    const res = await t.as('Night Staff', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: macro.id, orderIds: [a.orderId, b.orderId] },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const o of res.json().data.orders) {
      expect(o.result).toBe('refused');
      expect(o.message).toMatch(/You have mailed customers 300 times in the last hour/);
    }
    expect(await mails(a.orderId)).toEqual([]);
    expect(await statusOf(a.orderId)).toBe('New');
    // Someone else is not held by Night Staff's count.
    const other = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: macro.id, orderIds: [a.orderId] },
    });
    expect(other.json().data.orders[0].result).toBe('done');
  });

  it('a mail-only macro step: no mail to Deleted, Completed Refunds, or orders held by others', async () => {
    const tpl = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/macros',
      payload: {
        name: 'Just mail',
        remark: null,
        moveTo: null,
        templateKey: 'contact-customer',
        whatsappText: null,
        requiresDocument: false,
      },
    });
    expect(tpl.statusCode, tpl.body).toBe(200);
    const deleted = await orderWith({ process_status: 'Deleted' });
    const refunded = await orderWith({ process_status: 'Refunded' });
    const held = await orderWith({ assigned_to: ids['Demo Manager'] });
    const res = await t.as('Night Staff', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: tpl.json().data.id, orderIds: [deleted.orderId, refunded.orderId, held.orderId] },
    });
    const out = res.json().data.orders as { orderId: number; result: string; message: string }[];
    expect(out.map((o) => o.result)).toEqual(['refused', 'refused', 'refused']);
    expect(out[0]!.message).toMatch(/deleted/);
    expect(out[1]!.message).toMatch(/Completed Refunds/);
    expect(out[2]!.message).toMatch(/Demo Manager/);
    for (const o of [deleted, refunded, held]) expect(await mails(o.orderId)).toEqual([]);
  });
});

describe('upload-visa-document follows the rules', () => {
  it('refuses a Deleted order and an order held by someone else; nothing stored', async () => {
    const deleted = await orderWith({ process_status: 'Deleted' });
    const res = await upload('Night Staff', deleted.orderId, { email: deleted.email });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/deleted/);
    const held = await orderWith({ assigned_to: ids['Demo Manager'] });
    const byOther = await upload('Night Staff', held.orderId, { email: held.email });
    expect(byOther.statusCode).toBe(409);
    expect(byOther.json().message).toMatch(/Demo Manager/);
    const stored = await q<{ n: number }>(
      'select count(*)::int n from documents where order_id in ($1, $2)',
      [deleted.orderId, held.orderId],
    );
    expect(stored[0]!.n).toBe(0);
    expect(await mails(held.orderId)).toEqual([]);
  });

  it("mails only the order's address unless an Admin or Manager confirms another", async () => {
    const o = await orderWith();
    const outside = await upload('Night Staff', o.orderId, { email: 'attacker@evil.test' });
    expect(outside.statusCode).toBe(403);
    const outsideConfirmed = await upload('Night Staff', o.orderId, {
      email: 'attacker@evil.test',
      confirmOtherAddress: 'true',
    });
    expect(outsideConfirmed.statusCode).toBe(403);
    const unconfirmed = await upload('Manager', o.orderId, { email: 'agent@travel.test' });
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json().data.confirmOtherAddress).toBe(true);
    expect(await mails(o.orderId)).toEqual([]);
    const confirmed = await upload('Manager', o.orderId, {
      email: 'agent@travel.test',
      confirmOtherAddress: 'true',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const resend = await t.as('Night Staff', {
      method: 'POST',
      url: '/api/admin/resend-mail',
      payload: { orderId: o.orderId, email: 'attacker@evil.test', mailServiceProvider: 'AWS' },
    });
    expect(resend.statusCode).toBe(403);
    const hostile = await upload('Manager', o.orderId, { email: o.email, confirmOtherAddress: 'yes\u0000' });
    expect(hostile.statusCode).toBe(400);
  });

  it('stops at the card limit (uploads and resends together) with 429', async () => {
    const o = await orderWith();
    for (let i = 0; i < 5; i++) {
      const res = await upload('Team', o.orderId, { email: o.email });
      expect(res.statusCode, res.body).toBe(200);
    }
    const sixth = await upload('Team', o.orderId, { email: o.email });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.headers['retry-after']).toMatch(/^\d+$/);
    expect(sixth.json().message).toMatch(/The card of this order has been mailed 5 times/);
    const docs = await q<{ n: number }>('select count(*)::int n from documents where order_id = $1', [
      o.orderId,
    ]);
    expect(docs[0]!.n).toBe(5);
  });
});

describe('the approval mail goes before bulk mail', () => {
  it('dispatches the card first although it was queued last', async () => {
    await queue.stop();
    smtp.messages.length = 0;
    const bulk = [];
    for (let i = 0; i < 12; i++) bulk.push(await orderWith({ email: `bulk${i}@example.com` }));
    for (const o of bulk) {
      await t.database.sql.query(
        `insert into mail_log (order_id, kind, to_email, provider, status, requested_by, template_id, template_version)
         select $1, 'notification', $2, 'AWS', 'queued', $3, t.id, t.current_version
           from mail_templates t where t.key = 'awaiting-customer' and t.language = 'en'`,
        [o.orderId, o.email, ids['Demo Team']],
      );
    }
    const card = await orderWith({ email: 'card-first@example.com' });
    expect((await upload('Team', card.orderId, { email: card.email })).statusCode).toBe(200);
    queue = await startMailQueue(t.app, {
      retryDelaySeconds: 1,
      retryLimit: 1,
      pollingIntervalSeconds: 0.5,
      dispatchIntervalMs: 300,
      reminderCron: null,
    });
    const ours = () =>
      smtp.messages
        .map((m) => (m.to as { text: string }).text)
        .filter((to) => to === 'card-first@example.com' || to.startsWith('bulk'));
    await eventually(async () => (ours().length >= 13 ? true : undefined), 30_000);
    expect(ours()[0]).toBe('card-first@example.com');
  }, 45_000);
});
