import { beforeAll, describe, expect, it } from 'vitest';
import { signCustomerToken } from '../customer/tokens.js';
import type { TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf, TINY_PNG } from '../test/fixtures.js';
import { INBOUND_DOMAIN, inboundMailApp, postInbound } from '../test/inbound.js';
import { multipart, type TestSmtp } from '../test/smtp.js';

let n = 0;

/** The customer's answer form of the track page: fields and files, with the customer token. */
const form = (
  fields: Record<string, string>,
  files: { name: string; type: string; content: Buffer }[],
  authorization?: string,
) => {
  const body = multipart(
    fields,
    files.map((f) => ({ ...f, field: 'files' })),
  );
  return { payload: body.payload, headers: { ...body.headers, ...(authorization ? { authorization } : {}) } };
};

describe('the conversation: the loop through a real SMTP server, staff routes, the track-page answer', () => {
  const app = inboundMailApp();
  let t: TestApp;
  let smtp: TestSmtp;
  let teamId: number;
  beforeAll(async () => {
    ({ t, smtp } = app);
    const { rows } = await t.database.sql.query<{ id: number }>(
      "select id from staff_users where role = 'Team' and deleted_at is null order by id limit 1",
    );
    teamId = rows[0]!.id;
  });

  const inbound = (raw: string) => postInbound(t, raw);
  const counts = async () =>
    (await t.as('Team', { method: 'GET', url: '/api/admin/get-folder-count' })).json().data;

  it('the mail we sent -> a reply built from it -> attached, moved back to New, counted, read', async () => {
    const email = `loop${++n}@example.com`;
    const order = await createOrder(t.database, {
      email,
      re_enter_email: email,
      process_status: 'Awaiting',
      assigned_to: teamId,
    });
    const body = multipart(
      { orderId: String(order.orderId), email, mailServiceProvider: 'AWS' },
      { name: 'card.pdf', type: 'application/pdf', content: await samplePdf('CARD') },
    );
    const up = await t.as('Team', { method: 'POST', url: '/api/admin/upload-visa-document', ...body });
    expect(up.statusCode).toBe(200);
    const [sent] = await smtp.waitFor(1);
    const replyTo = sent!.replyTo!.value[0]!.address!;
    expect(replyTo).toMatch(
      new RegExp(`^reply\\+${order.orderId}-[0-9a-f]+@${INBOUND_DOMAIN.replace(/\./g, '\\.')}$`),
    );
    expect(sent!.messageId).toMatch(/^<edc\.\d+\.[0-9a-f]+@/);
    expect(sent!.headers.get('x-ed-card-message-id')).toBe(sent!.messageId);
    // Asked for by a staff member: not an automatic mail.
    expect(sent!.headers.get('auto-submitted')).toBeUndefined();
    const before = (await counts()).repliedCount;

    const res = await inbound(
      `From: Customer <${email}>\nTo: ${replyTo}\nSubject: Re: ${sent!.subject}\nMessage-ID: <loop.${Date.now()}@example.com>\nIn-Reply-To: ${sent!.messageId}\nReferences: ${sent!.messageId}\nContent-Type: text/plain; charset=utf-8\n\nThank you, got it. One question about the dates.\n\nOn Tue, ED-Card wrote:\n> Your card is attached.\n`,
    );
    expect(res.json().data).toEqual({ orderId: order.orderId, disposition: 'attached' });
    const { rows } = await t.database.sql.query<{ process_status: string }>(
      'select process_status from orders where order_id = $1',
      [order.orderId],
    );
    expect(rows[0]!.process_status).toBe('New');
    expect((await counts()).repliedCount).toBe(before + 1);

    const conv = await t.as('Team', {
      method: 'GET',
      url: `/api/admin/orders/${order.orderId}/conversation`,
    });
    expect(conv.statusCode).toBe(200);
    const items = conv.json().data.items;
    expect(items.map((i: { direction: string }) => i.direction)).toEqual(['out', 'in']);
    expect(items[1]).toMatchObject({
      unread: true,
      text: 'Thank you, got it. One question about the dates.',
    });
    expect(items[1].quoted).toContain('Your card is attached.');
    // Reading the conversation does not mark it read: it has to be on screen (or "Mark read").
    expect((await counts()).repliedCount).toBe(before + 1);
    const hostile = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/conversation/read`,
      payload: { read: 'a\u0000' },
    });
    expect(hostile.statusCode).toBe(400);
    const noOrder = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/orders/999999999/conversation/read',
      payload: {},
    });
    expect(noOrder.statusCode).toBe(404);
    expect((await counts()).repliedCount).toBe(before + 1);
    const read = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/conversation/read`,
      payload: {},
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual({ orderId: order.orderId, read: 1 });
    expect((await counts()).repliedCount).toBe(before);
    const again = await t.as('Team', {
      method: 'GET',
      url: `/api/admin/orders/${order.orderId}/conversation`,
    });
    expect(again.json().data.items[1].unread).toBe(false);

    // The staff reply: a template mail threaded to the customer's message, the order back to Awaiting.
    const { rows: ids } = await t.database.sql.query<{ message_id: string }>(
      'select message_id from inbound_messages where id = $1',
      [items[1].id],
    );
    const reply = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/messages`,
      payload: { templateId: 'awaiting-customer', moveTo: 'Awaiting' },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.json().data.processStatus).toBe('Awaiting');
    const mails = await smtp.waitFor(2);
    const threaded = mails.find((m) => m.inReplyTo === ids[0]!.message_id);
    expect(threaded).toBeTruthy();
    expect(threaded!.replyTo!.value[0]!.address).toBe(replyTo);
    for (const [payload, code] of [
      [{ templateId: 'no-such-template' }, 404],
      [{ templateId: 'awaiting\u0000' }, 400],
      [{ templateId: 'awaiting-customer', moveTo: 'New' }, 400],
      [{ templateId: 'awaiting-customer', extra: 1 }, 400],
    ] as const) {
      const res = await t.as('Team', {
        method: 'POST',
        url: `/api/admin/orders/${order.orderId}/messages`,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(code);
    }
    const missing = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/orders/999999999/messages',
      payload: { templateId: 'awaiting-customer' },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('a file the customer sent: downloaded by staff, used as the approved card (upload rules, approval mail)', async () => {
    const email = `card${++n}@example.com`;
    const order = await createOrder(t.database, { email, re_enter_email: email, process_status: 'Awaiting' });
    const token = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/customer/orders/${order.orderId}/replies`,
      ...form(
        { message: 'Here is the photo' },
        [{ name: 'photo.png', type: 'image/png', content: TINY_PNG }],
        `Bearer ${token}`,
      ),
    });
    expect(res.statusCode).toBe(200);
    const conv = (
      await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order.orderId}/conversation` })
    ).json().data;
    const file = conv.items.find((i: { direction: string }) => i.direction === 'in').attachments[0];
    expect(file).toMatchObject({ name: 'photo.png', mimeType: 'image/png' });
    const dl = await t.as('Team', {
      method: 'GET',
      url: `/api/admin/orders/${order.orderId}/conversation/attachments/${file.id}`,
    });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(TINY_PNG)).toBe(true);
    // Another order's id with this file: not found.
    const other = await createOrder(t.database);
    const wrong = await t.as('Team', {
      method: 'GET',
      url: `/api/admin/orders/${other.orderId}/conversation/attachments/${file.id}`,
    });
    expect(wrong.statusCode).toBe(404);

    const use = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/conversation/attachments/${file.id}/use-as-card`,
      payload: { mailServiceProvider: 'AWS', confirmCustomerFile: true },
    });
    expect(use.statusCode).toBe(200);
    const { rows } = await t.database.sql.query<{ mime_type: string; original_name: string }>(
      'select mime_type, original_name from documents where order_id = $1',
      [order.orderId],
    );
    expect(rows).toEqual([{ mime_type: 'image/png', original_name: 'photo.png' }]);
    const hostile = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/conversation/attachments/${file.id}/use-as-card`,
      payload: { mailServiceProvider: 'AWS', email: 'a\u0000@example.com' },
    });
    expect(hostile.statusCode).toBe(400);
  });

  it('the track-page answer: moves the order, refuses another order, control characters, too many or wrong files', async () => {
    const order = await createOrder(t.database, { process_status: 'Contact Customer' });
    const token = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
    const url = `/api/customer/orders/${order.orderId}/replies`;
    const other = await createOrder(t.database, { process_status: 'Awaiting' });
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/api/customer/orders/${other.orderId}/replies`,
      ...form({ message: 'hello' }, [], `Bearer ${token}`),
    });
    expect(foreign.statusCode).toBe(401);
    const staffToken = await t.tokenFor('Admin');
    const asStaff = await t.app.inject({
      method: 'POST',
      url,
      ...form({ message: 'hello' }, [], staffToken),
    });
    expect(asStaff.statusCode).toBe(401);
    const nul = await t.app.inject({
      method: 'POST',
      url,
      ...form({ message: 'bad \u0000 text' }, [], `Bearer ${token}`),
    });
    expect(nul.statusCode).toBe(400);
    const six = await t.app.inject({
      method: 'POST',
      url,
      ...form(
        { message: 'many' },
        Array.from({ length: 6 }, (_, i) => ({ name: `p${i}.png`, type: 'image/png', content: TINY_PNG })),
        `Bearer ${token}`,
      ),
    });
    expect(six.statusCode).toBe(400);
    const exe = await t.app.inject({
      method: 'POST',
      url,
      ...form(
        { message: 'a program' },
        [{ name: 'photo.png', type: 'image/png', content: Buffer.from('MZ\x90\x00 not an image') }],
        `Bearer ${token}`,
      ),
    });
    expect(exe.statusCode).toBe(422);
    const { rows: none } = await t.database.sql.query('select 1 from inbound_messages where order_id = $1', [
      order.orderId,
    ]);
    expect(none).toHaveLength(0);
    const good = await t.app.inject({
      method: 'POST',
      url,
      ...form({ message: 'My new e-mail is fine, please continue.' }, [], `Bearer ${token}`),
    });
    expect(good.statusCode).toBe(200);
    expect(good.json().data).toEqual({ received: true });
    const { rows } = await t.database.sql.query<{ process_status: string }>(
      'select process_status from orders where order_id = $1',
      [order.orderId],
    );
    expect(rows[0]!.process_status).toBe('New');
  });

  it('unmatched mail: listed for staff, attached to an order with the same effects, once', async () => {
    const order = await createOrder(t.database, { process_status: 'Customer Called' });
    const res = await inbound(
      `From: Agent <agent${++n}@travel.example>\nTo: support@ed-card.test\nSubject: about my client\nMessage-ID: <unmatched.${Date.now()}@travel.example>\n\nPlease check the booking of my client.\n`,
    );
    expect(res.json().data).toEqual({ orderId: null, disposition: 'unmatched' });
    const list = await t.as('Manager', { method: 'GET', url: '/api/admin/inbound/unmatched' });
    expect(list.statusCode).toBe(200);
    const item = list.json().data.items.find((i: { subject: string }) => i.subject === 'about my client');
    expect(item).toBeTruthy();
    expect(
      (await t.as('Telecaller', { method: 'GET', url: '/api/admin/inbound/unmatched' })).statusCode,
    ).toBe(403);
    const missing = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/inbound/${item.id}/attach`,
      payload: { orderId: 999_999_999 },
    });
    expect(missing.statusCode).toBe(404);
    const huge = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/inbound/${item.id}/attach`,
      payload: { orderId: '9'.repeat(40) },
    });
    expect(huge.statusCode).toBe(400);
    const attach = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/inbound/${item.id}/attach`,
      payload: { orderId: order.orderId },
    });
    expect(attach.statusCode).toBe(200);
    expect(attach.json().data).toEqual({ orderId: order.orderId, processStatus: 'New' });
    const twice = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/inbound/${item.id}/attach`,
      payload: { orderId: order.orderId },
    });
    expect(twice.statusCode).toBe(409);
  });
});
