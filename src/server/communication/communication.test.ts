import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MailQueue, startMailQueue } from '../mail/queue.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { endUndoWindow } from '../test/mail-hold.js';
import { eventually, multipart, startSmtp, type TestSmtp } from '../test/smtp.js';

const FAST = {
  retryDelaySeconds: 1,
  retryLimit: 2,
  pollingIntervalSeconds: 0.5,
  dispatchIntervalMs: 300,
  reminderCron: null,
};

let t: TestApp;
let smtp: TestSmtp;
let queue: MailQueue;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ MAIL_AWS_SMTP_URL: smtp.url, MAIL_SENDGRID_SMTP_URL: smtp.url });
  queue = await startMailQueue(t.app, FAST);
});
afterAll(async () => {
  await queue.stop();
  await t.close();
  await smtp.close();
});

interface MailRow {
  id: number;
  kind: string;
  status: string;
  template_key: string | null;
  template_language: string | null;
  template_version: number | null;
  message_id: string | null;
}

async function mailRows(orderId: number): Promise<MailRow[]> {
  const { rows } = await t.database.sql.query<MailRow>(
    `select m.id, m.kind, m.status, m.template_version, m.message_id, t.key as template_key, t.language as template_language
     from mail_log m left join mail_templates t on t.id = m.template_id where m.order_id = $1 order by m.id`,
    [orderId],
  );
  return rows;
}

async function statusOf(orderId: number) {
  const { rows } = await t.database.sql.query<{ process_status: string }>(
    'select process_status from orders where order_id = $1',
    [orderId],
  );
  return rows[0]?.process_status;
}

async function count(sql: string, params: unknown[]) {
  const { rows } = await t.database.sql.query<{ n: number }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

async function setLanguage(orderId: number, language: string | null) {
  await t.database.sql.query('update orders set language = $2 where order_id = $1', [orderId, language]);
}

const move = (role: 'Team' | 'Admin', orderId: number, updatingStatus: string) =>
  t.as(role, { method: 'PUT', url: '/api/admin/move-order-status', payload: { orderId, updatingStatus } });

/** The mail to an address, through the real SMTP server; held mails go at once (endUndoWindow). */
const mailTo = async (to: string) => {
  await endUndoWindow(t.database);
  return eventually(async () => smtp.messages.find((m) => (m.to as { text: string }).text === to), 20_000);
};

describe('status notifications', () => {
  it('entering Awaiting mails the customer in their language through the real SMTP server', async () => {
    const es = await createOrder(t.database, {
      first_name: 'Ana',
      last_name: 'Pérez',
      email: 'ana@example.com',
    });
    await setLanguage(es.orderId, 'es');
    expect((await move('Team', es.orderId, 'Awaiting')).statusCode).toBe(200);
    const mail = await mailTo('ana@example.com');
    expect(mail.subject).toBe(`Necesitamos algo de usted para el pedido ${es.orderId}`);
    expect(mail.text).toContain('Estimado/a Ana Pérez:');
    expect(mail.html).toContain(`/track-order/${es.orderId}`);
    const [row] = await eventually(async () => {
      const rows = await mailRows(es.orderId);
      return rows[0]?.status === 'sent' ? rows : null;
    });
    expect(row).toMatchObject({
      kind: 'notification',
      template_key: 'awaiting-customer',
      template_language: 'es',
      template_version: 1,
      message_id: mail.messageId,
    });
  });

  it('Papiamento for Contact Customer; English when the order has no language; none for Customer Called', async () => {
    const pap = await createOrder(t.database, { email: 'pap@example.com' });
    await setLanguage(pap.orderId, 'pap');
    const en = await createOrder(t.database, { email: 'en@example.com' });
    const quiet = await createOrder(t.database, { email: 'quiet@example.com' });
    expect((await move('Team', pap.orderId, 'Contact Customer')).statusCode).toBe(200);
    // Completed needs the approved card (decision 296).
    await t.database.sql.query(
      `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256)
       values ($1, 'none', 'card.pdf', 'application/pdf', 1, 'x')`,
      [en.orderId],
    );
    expect((await move('Team', en.orderId, 'Completed')).statusCode).toBe(200);
    expect((await move('Team', quiet.orderId, 'Customer Called')).statusCode).toBe(200);
    expect((await mailTo('pap@example.com')).subject).toBe(
      `Por fabor tuma contacto cu nos tocante orden ${pap.orderId}`,
    );
    expect((await mailTo('en@example.com')).subject).toBe(
      `Your Aruba ED Card order ${en.orderId} is complete`,
    );
    expect(await mailRows(quiet.orderId)).toEqual([]);
  });

  it('a refund mails the refund confirmation once, from its template', async () => {
    const order = await createOrder(t.database, { email: 'refund@example.com', amount: 59, currency: 'USD' });
    await t.database.sql.query(`update orders set process_status = 'Refunds' where order_id = $1`, [
      order.orderId,
    ]);
    expect((await move('Team', order.orderId, 'Refunded')).statusCode).toBe(200);
    const mail = await mailTo('refund@example.com');
    expect(mail.subject).toBe(`Your refund for order ${order.orderId} has been processed`);
    expect(mail.text).toContain('Your refund of 59.00 USD');
    const rows = await mailRows(order.orderId);
    expect(rows.map((r) => [r.kind, r.template_key])).toEqual([['refund', 'refund-confirmation']]);
  });

  it('settings: Admin and Manager change them (audited); a status turned off mails nobody', async () => {
    const get = await t.as('Manager', { method: 'GET', url: '/api/admin/status-notifications' });
    expect(get.statusCode).toBe(200);
    expect(get.json().data).toContainEqual({
      status: 'Awaiting',
      enabled: true,
      templateKey: 'awaiting-customer',
    });
    expect((await t.as('Team', { method: 'GET', url: '/api/admin/status-notifications' })).statusCode).toBe(
      403,
    );

    const off = { settings: [{ status: 'Awaiting', enabled: false, templateKey: 'awaiting-customer' }] };
    expect(
      (await t.as('Team', { method: 'PUT', url: '/api/admin/status-notifications', payload: off }))
        .statusCode,
    ).toBe(403);
    const hostile = [
      { settings: [{ status: 'Deleted', enabled: true, templateKey: 'awaiting-customer' }] },
      { settings: [{ status: 'Awaiting', enabled: false, templateKey: 'awaiting\u0000customer' }] },
      { settings: [{ status: 'Awaiting', enabled: true, templateKey: 'approval-notice' }] },
      { settings: [{ status: 'Awaiting', enabled: true, templateKey: 'no-such-template' }] },
      { settings: [{ status: 'Awaiting', enabled: true, templateKey: null }] },
      { settings: [{ status: 'Awaiting', enabled: 'yes', templateKey: 'awaiting-customer' }] },
    ];
    for (const payload of hostile) {
      const res = await t.as('Admin', { method: 'PUT', url: '/api/admin/status-notifications', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      (await t.as('Admin', { method: 'GET', url: '/api/admin/status-notifications' })).json().data,
    ).toEqual(get.json().data);

    const saved = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/status-notifications',
      payload: off,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const order = await createOrder(t.database);
    expect((await move('Team', order.orderId, 'Awaiting')).statusCode).toBe(200);
    expect(await mailRows(order.orderId)).toEqual([]);
    const audit = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/audit-log?action=notifications.update',
    });
    expect(audit.json().data.entries[0]).toMatchObject({
      action: 'notifications.update',
      target: 'Awaiting Customer',
    });
    await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/status-notifications',
      payload: { settings: [{ status: 'Awaiting', enabled: true, templateKey: 'awaiting-customer' }] },
    });
  });
});

// Before the macros: the 50-order macro queues mails that the one delivery worker sends in turn.
describe('upload, mail and complete', () => {
  const upload = async (orderId: number, email: string, complete?: string) => {
    const fields: Record<string, string> = { orderId: String(orderId), email, mailServiceProvider: 'AWS' };
    if (complete !== undefined) fields.complete = complete;
    const body = multipart(fields, {
      name: 'approved.pdf',
      type: 'application/pdf',
      content: await samplePdf('DONE'),
    });
    return t.as('Team', { method: 'POST', url: '/api/admin/upload-visa-document', ...body });
  };
  const documents = (orderId: number) =>
    count('select count(*) n from documents where order_id = $1', [orderId]);

  it('uploads, mails the approval notice with the card and moves to Completed in one step', async () => {
    const order = await createOrder(t.database, { email: 'complete@example.com' });
    const res = await upload(order.orderId, 'complete@example.com', 'true');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toContain('completed');
    expect(await statusOf(order.orderId)).toBe('Completed');
    // The approval notice is the customer's mail: no Completed notification besides it.
    expect((await mailRows(order.orderId)).map((r) => [r.kind, r.template_key])).toEqual([
      ['approval', 'approval-notice'],
    ]);
    const { rows } = await t.database.sql.query<{ action: string }>(
      `select action from order_events where order_id = $1 and action <> 'created' order by id`,
      [order.orderId],
    );
    expect(rows.map((r) => r.action)).toEqual(['upload', 'mail', 'status']);
    const mail = await mailTo('complete@example.com');
    expect(mail.subject).toBe(`Your Aruba ED Card has been approved (order ${order.orderId})`);
    expect(mail.attachments[0]?.filename).toBe('approved.pdf');
  }, 60_000);

  it('upload only keeps the status; a refused completion stores nothing; a bad flag is refused', async () => {
    const only = await createOrder(t.database, { email: 'only@example.com' });
    expect((await upload(only.orderId, 'only@example.com')).statusCode).toBe(200);
    expect(await statusOf(only.orderId)).toBe('New');

    const done = await createOrder(t.database, { email: 'done@example.com' });
    await t.database.sql.query(`update orders set process_status = 'Completed' where order_id = $1`, [
      done.orderId,
    ]);
    const refused = await upload(done.orderId, 'done@example.com', 'true');
    expect(refused.statusCode).toBe(409);
    expect(await documents(done.orderId)).toBe(0);
    expect(await mailRows(done.orderId)).toEqual([]);

    const bad = await createOrder(t.database, { email: 'bad@example.com' });
    const hostile = await upload(bad.orderId, 'bad@example.com', 'yes\u0000');
    expect(hostile.statusCode).toBe(400);
    expect(await documents(bad.orderId)).toBe(0);
    expect(await statusOf(bad.orderId)).toBe('New');
  });
});

const macroBody = (over: Record<string, unknown> = {}) => ({
  name: 'Call back please',
  remark: 'Asked the customer to call us.',
  moveTo: 'Contact Customer',
  templateKey: 'contact-customer',
  whatsappText: 'Hi {{first_name}}, please call us about order {{order_id}}.',
  requiresDocument: false,
  ...over,
});

async function macroId(name: string): Promise<number> {
  const res = await t.as('Team', { method: 'GET', url: '/api/admin/macros' });
  return res.json().data.find((m: { name: string }) => m.name === name).id;
}

describe('macros', () => {
  it('CRUD for Admin and Manager, read for everyone, audited; hostile fields refused', async () => {
    const created = await t.as('Manager', { method: 'POST', url: '/api/admin/macros', payload: macroBody() });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id;
    expect(
      (await t.as('Night Staff', { method: 'GET', url: '/api/admin/macros' }))
        .json()
        .data.map((m: { name: string }) => m.name),
    ).toEqual(
      expect.arrayContaining([
        'Call back please',
        'Request clearer passport photo',
        'Sent to government',
        'Approved and sent',
      ]),
    );
    const changed = await t.as('Admin', {
      method: 'PUT',
      url: `/api/admin/macros/${id}`,
      payload: macroBody({ name: 'Call back, please', moveTo: null }),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ name: 'Call back, please', moveTo: null });

    const before = await count('select count(*) n from macros', []);
    const hostile = [
      macroBody({ name: 'Bell\u0007' }),
      macroBody({ name: 'Huge', remark: 'x'.repeat(2001) }),
      macroBody({ name: 'Nul', remark: 'a\u0000b' }),
      macroBody({ name: 'Bad status', moveTo: 'Deleted' }),
      macroBody({ name: 'Bad template', templateKey: 'no-such-template' }),
      macroBody({ name: 'Attachment', templateKey: 'approval-notice' }),
      macroBody({ name: 'Bad variable', whatsappText: 'Hi {{nickname}}' }),
      macroBody({ name: 'Nothing', remark: null, moveTo: null, templateKey: null, whatsappText: null }),
      macroBody({ name: 'Request clearer passport photo' }),
      { ...macroBody({ name: 'Extra' }), sql: 'drop table macros' },
    ];
    for (const payload of hostile) {
      const res = await t.as('Admin', { method: 'POST', url: '/api/admin/macros', payload });
      expect([400, 409], JSON.stringify(payload).slice(0, 80)).toContain(res.statusCode);
    }
    expect(
      (await t.as('Team', { method: 'POST', url: '/api/admin/macros', payload: macroBody({ name: 'Team' }) }))
        .statusCode,
    ).toBe(403);
    expect((await t.as('Telecaller', { method: 'DELETE', url: `/api/admin/macros/${id}` })).statusCode).toBe(
      403,
    );
    expect(await count('select count(*) n from macros', [])).toBe(before);

    expect((await t.as('Admin', { method: 'DELETE', url: `/api/admin/macros/${id}` })).statusCode).toBe(200);
    for (const action of ['macro.create', 'macro.update', 'macro.delete']) {
      const audit = await t.as('Admin', { method: 'GET', url: `/api/admin/audit-log?action=${action}` });
      expect(
        audit.json().data.entries.some((e: { target: string }) => e.target === `macro ${id}`),
        action,
      ).toBe(true);
    }
  });

  it('on 50 orders with one that fails midway: the others done, the failed one unchanged', async () => {
    const orders = [];
    for (let i = 0; i < 50; i++)
      orders.push(await createOrder(t.database, { email: `bulk${i}@example.com` }));
    const failing = orders[24]!;
    // Deleted: the remark step would pass, the move out of Deleted is refused for Team.
    await t.database.sql.query(`update orders set process_status = 'Deleted' where order_id = $1`, [
      failing.orderId,
    ]);
    const eventsBefore = await count('select count(*) n from order_events where order_id = $1', [
      failing.orderId,
    ]);
    const id = await macroId('Request clearer passport photo');
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: id, orderIds: [...orders.map((o) => o.orderId), 999_999_999] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const outcomes = res.json().data.orders as {
      orderId: number;
      result: string;
      message: string;
      whatsappText: string | null;
    }[];
    expect(outcomes).toHaveLength(51);
    const refused = outcomes.filter((o) => o.result === 'refused');
    expect(refused.map((o) => o.orderId)).toEqual([failing.orderId, 999_999_999]);
    expect(refused[0]!.message).toMatch(/Admin or Manager/);
    expect(refused[1]!.message).toBe('Order not found');
    expect(outcomes[0]!.whatsappText).toContain(`order ${orders[0]!.orderId}`);

    expect(await statusOf(failing.orderId)).toBe('Deleted');
    expect(await count('select count(*) n from order_remarks where order_id = $1', [failing.orderId])).toBe(
      0,
    );
    expect(await mailRows(failing.orderId)).toEqual([]);
    expect(await count('select count(*) n from order_events where order_id = $1', [failing.orderId])).toBe(
      eventsBefore,
    );

    for (const o of orders.filter((x) => x !== failing)) {
      expect(await statusOf(o.orderId)).toBe('Awaiting');
      expect(await count('select count(*) n from order_remarks where order_id = $1', [o.orderId])).toBe(1);
      // The macro's own mail, not also the Awaiting notification.
      expect((await mailRows(o.orderId)).map((r) => [r.kind, r.template_key])).toEqual([
        ['macro', 'passport-photo'],
      ]);
      const { rows } = await t.database.sql.query<{ action: string }>(
        `select action from order_events where order_id = $1 and action <> 'created' order by id`,
        [o.orderId],
      );
      expect(rows.map((r) => r.action)).toEqual(['remark', 'status', 'mail']);
    }
    const sample = await mailTo('bulk0@example.com');
    expect(sample.subject).toBe(`Please send a clearer passport photo (order ${orders[0]!.orderId})`);
  }, 120_000);

  it('"Approved and sent" needs the uploaded card, then completes and mails the completion notice', async () => {
    const id = await macroId('Approved and sent');
    const without = await createOrder(t.database);
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: id, orderIds: [without.orderId] },
    });
    expect(res.json().data.orders[0]).toMatchObject({ result: 'refused', processStatus: 'New' });
    expect(res.json().data.orders[0].message).toMatch(/No approved card/);

    const withCard = await createOrder(t.database, { email: 'card@example.com' });
    const body = multipart(
      { orderId: String(withCard.orderId), email: 'card@example.com', mailServiceProvider: 'AWS' },
      { name: 'card.pdf', type: 'application/pdf', content: await samplePdf('CARD') },
    );
    expect(
      (await t.as('Team', { method: 'POST', url: '/api/admin/upload-visa-document', ...body })).statusCode,
    ).toBe(200);
    const applied = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: id, orderIds: [withCard.orderId] },
    });
    expect(applied.json().data.orders[0]).toMatchObject({ result: 'done', processStatus: 'Completed' });
    expect((await mailRows(withCard.orderId)).map((r) => [r.kind, r.template_key])).toEqual([
      ['approval', 'approval-notice'],
      ['notification', 'order-completed'],
    ]);
  });

  it('apply-macro: unknown macro 404, too many orders 400, bad ids 400', async () => {
    const order = await createOrder(t.database);
    expect(
      (
        await t.as('Team', {
          method: 'POST',
          url: '/api/admin/apply-macro',
          payload: { macroId: 999_999, orderIds: [order.orderId] },
        })
      ).statusCode,
    ).toBe(404);
    const id = await macroId('Sent to government');
    const many = Array.from({ length: 501 }, (_, i) => 100_000 + i);
    expect(
      (
        await t.as('Team', {
          method: 'POST',
          url: '/api/admin/apply-macro',
          payload: { macroId: id, orderIds: many },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.as('Team', {
          method: 'POST',
          url: '/api/admin/apply-macro',
          payload: { macroId: id, orderIds: ['1; drop'] },
        })
      ).statusCode,
    ).toBe(400);
    expect(await statusOf(order.orderId)).toBe('New');
  });
});
