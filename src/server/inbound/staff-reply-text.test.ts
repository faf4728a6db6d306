import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { INBOUND_DOMAIN, inboundMailApp, postInbound } from '../test/inbound.js';
import type { TestSmtp } from '../test/smtp.js';

/** A staff reply written as free text: through a real SMTP server, threaded, in the conversation. */
describe('staff reply with free text', () => {
  const app = inboundMailApp();
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(() => {
    ({ t, smtp } = app);
  });

  it('mails the text threaded to the customer, records it in Email History and the conversation, moves the order', async () => {
    const email = 'textreply@example.com';
    const order = await createOrder(t.database, {
      email,
      re_enter_email: email,
      process_status: 'Contact Customer',
    });
    // The customer writes first (by mail, with the order number in the subject).
    const inbound = await postInbound(
      t,
      `From: Customer <${email}>\r\nTo: help@${INBOUND_DOMAIN}\r\nSubject: Question #${order.orderId}\r\nMessage-ID: <q.${Date.now()}@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nWhen is my card ready?\r\n`,
    );
    expect(inbound.json().data.disposition).toBe('attached');
    const text = 'Hello,\nyour card is being processed today.\n\tThank you';
    const res = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/messages`,
      payload: { body: text, provider: 'Sendgrid', moveTo: 'Awaiting' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.processStatus).toBe('Awaiting');
    const [sent] = await smtp.waitFor(1);
    expect(sent!.to).toMatchObject({ value: [{ address: email }] });
    expect(sent!.subject).toBe(`Re: Question #${order.orderId}`);
    expect(sent!.text?.trim()).toBe(text);
    expect(sent!.inReplyTo).toMatch(/^<q\.\d+@example\.com>$/);
    expect(sent!.replyTo!.value[0]!.address).toMatch(new RegExp(`^reply\\+${order.orderId}-`));

    const conv = (
      await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order.orderId}/conversation` })
    ).json().data;
    const out = conv.items.filter((i: { direction: string }) => i.direction === 'out');
    expect(out.at(-1)).toMatchObject({ kind: 'macro', text, provider: 'Sendgrid' });
    const detail = (
      await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${order.orderId}` })
    ).json().data;
    expect(
      detail.mailHistory.some(
        (m: { id?: number; mail_id?: number }) => (m.id ?? m.mail_id) === res.json().data.mailId,
      ),
    ).toBe(true);
    const { rows } = await t.database.sql.query<{ to_value: string }>(
      "select to_value from order_events where order_id = $1 and action = 'mail'",
      [order.orderId],
    );
    expect(rows.map((r) => r.to_value)).toContain(`macro staff reply (text) via Sendgrid to ${email}`);
  });

  it('refuses hostile or ambiguous bodies with a 400 and sends nothing', async () => {
    const order = await createOrder(t.database, { process_status: 'Awaiting' });
    const before = await t.database.sql.query('select count(*)::int as n from mail_log');
    for (const payload of [
      { body: 'hello\u0000world' },
      { body: 'bell\u0007' },
      { body: 'x'.repeat(5001) },
      { body: '   ' },
      { body: 'text', templateId: 'awaiting-customer' },
      {},
      { body: 'text', extra: true },
      { body: 42 },
    ]) {
      const res = await t.as('Team', {
        method: 'POST',
        url: `/api/admin/orders/${order.orderId}/messages`,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    const after = await t.database.sql.query('select count(*)::int as n from mail_log');
    expect(after.rows).toEqual(before.rows);
  });
  it('a stray mail from another address: the reply names who gets it, asks before mailing the customer, never borrows the stray subject', async () => {
    const email = 'owner.reply@example.com';
    const order = await createOrder(t.database, { email, re_enter_email: email, process_status: 'New' });
    const other = await createOrder(t.database);
    const stray = await postInbound(
      t,
      `From: Someone Else <stray.sender@example.com>\r\nTo: help@${INBOUND_DOMAIN}\r\nSubject: My own trip #${order.orderId}\r\nMessage-ID: <stray.${Date.now()}@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nWhere is my card?\r\n`,
    );
    expect(stray.json().data.disposition).toBe('unmatched');
    const { rows: strays } = await t.database.sql.query<{ id: number }>(
      "select id::int as id from inbound_messages where from_email = 'stray.sender@example.com' order by id desc limit 1",
    );
    const strayId = strays[0]!.id;
    // A member attaches the stray mail to this order from Unmatched Mail.
    const attach = await t.as('Manager', {
      method: 'POST',
      url: `/api/admin/inbound/${strayId}/attach`,
      payload: { orderId: order.orderId },
    });
    expect(attach.statusCode, attach.body).toBe(200);
    const url = `/api/admin/orders/${order.orderId}/messages`;
    const mails = async () =>
      (
        await t.database.sql.query<{ to_email: string }>(
          'select to_email from mail_log where order_id = $1 order by id',
          [order.orderId],
        )
      ).rows.map((r) => r.to_email);
    const before = smtp.messages.length;

    const unconfirmed = await t.as('Team', {
      method: 'POST',
      url,
      payload: { body: 'Hello', inReplyTo: strayId },
    });
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json().message).toContain('came from stray.sender@example.com');
    const foreign = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${other.orderId}/messages`,
      payload: { body: 'Hello', inReplyTo: strayId, recipient: 'sender' },
    });
    expect(foreign.statusCode).toBe(404);
    const noMessage = await t.as('Team', {
      method: 'POST',
      url,
      payload: { body: 'Hello', recipient: 'sender' },
    });
    expect(noMessage.statusCode).toBe(400);
    const hostile = await t.as('Team', {
      method: 'POST',
      url,
      payload: { body: 'Hello', inReplyTo: strayId, recipient: 'sender\u0000' },
    });
    expect(hostile.statusCode).toBe(400);
    expect(await mails()).toEqual([]);

    const toSender = await t.as('Team', {
      method: 'POST',
      url,
      payload: { body: 'This order is not yours.', inReplyTo: strayId, recipient: 'sender' },
    });
    expect(toSender.statusCode, toSender.body).toBe(200);
    expect(toSender.json().data.to).toBe('stray.sender@example.com');
    expect(toSender.json().message).toContain('The reply to stray.sender@example.com is on its way');
    const [first] = (await smtp.waitFor(before + 1)).slice(before);
    expect(first!.to).toMatchObject({ value: [{ address: 'stray.sender@example.com' }] });
    expect(first!.subject).toBe(`Re: My own trip #${order.orderId}`);

    const toCustomer = await t.as('Team', {
      method: 'POST',
      url,
      payload: { body: 'Your card is on its way.', inReplyTo: strayId, confirmCustomer: true },
    });
    expect(toCustomer.statusCode, toCustomer.body).toBe(200);
    const [second] = (await smtp.waitFor(before + 2)).slice(before + 1);
    expect(second!.to).toMatchObject({ value: [{ address: email }] });
    expect(second!.subject).toBe(`ED-Card #${order.orderId}`);
    expect(second!.inReplyTo).toBeUndefined();
    expect(await mails()).toEqual(['stray.sender@example.com', email]);
  });
});
