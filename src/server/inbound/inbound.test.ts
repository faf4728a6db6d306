import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { TINY_PNG } from '../test/fixtures.js';
import { INBOUND_DOMAIN, INBOUND_TOKEN, postInbound } from '../test/inbound.js';
import { ourMessageId, replyAddress } from '../mail/reply-tokens.js';
import { receiveMail } from '../flows/inbound-mail.js';
import { parseInbound } from './parse.js';

const CORPUS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'corpus');
let uniq = 0;

interface Sent {
  orderId: number;
  email: string;
  mailId: number;
  sentId: string;
  providerId: string;
}

/** A mail the outbox sent for an order (the ids a reply or a report names). */
async function sentMail(t: TestApp, overrides: Record<string, unknown> = {}): Promise<Sent> {
  const email = `customer${++uniq}@example.com`;
  const order = await createOrder(t.database, { email, re_enter_email: email, ...overrides });
  const { rows } = await t.database.sql.query<{ id: string }>(
    `insert into mail_log (order_id, kind, to_email, provider, status, requested_by)
     values ($1, 'notification', $2, 'AWS', 'sent', null) returning id`,
    [order.orderId, email],
  );
  const mailId = Number(rows[0]!.id);
  const sentId = ourMessageId(t.config.JWT_SECRET, t.config.APP_MAIL_DOMAIN, mailId);
  const providerId = `0100018c${mailId}abcdef-${uniq}`;
  await t.database.sql.query(
    'update mail_log set message_id = $2, our_message_id = $2, provider_message_id = $3 where id = $1',
    [mailId, sentId, providerId],
  );
  return { orderId: order.orderId, email, mailId, sentId, providerId };
}

function corpus(name: string, sent: Partial<Sent>, t: TestApp): Buffer {
  let text = readFileSync(path.join(CORPUS, name), 'utf8');
  const values: Record<string, string> = {
    ORDER: String(sent.orderId ?? 0),
    EMAIL: sent.email ?? 'nobody@example.com',
    SENT_ID: sent.sentId ?? '<none@example.com>',
    PROVIDER_ID: sent.providerId ?? 'none',
    REPLY_TO: sent.orderId
      ? replyAddress(t.config.JWT_SECRET, INBOUND_DOMAIN, sent.orderId)
      : 'none@example.com',
    REPLY_DOMAIN: INBOUND_DOMAIN,
    UNIQ: `${Date.now()}${++uniq}`,
    PNG_BASE64: TINY_PNG.toString('base64').replace(/(.{76})/g, '$1\n'),
  };
  text = text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => values[k] ?? '');
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'));
}

async function order(t: TestApp, orderId: number) {
  const { rows } = await t.database.sql.query<{ process_status: string; customer_replied_at: Date | null }>(
    'select process_status, customer_replied_at from orders where order_id = $1',
    [orderId],
  );
  return rows[0]!;
}

async function inbound(t: TestApp, orderId: number) {
  const { rows } = await t.database.sql.query<{
    id: string;
    disposition: string;
    matched_by: string | null;
    body_text: string;
    quoted_text: string;
    from_email: string;
    refused_attachments: { name: string; reason: string }[];
  }>('select * from inbound_messages where order_id = $1 order by id', [orderId]);
  return rows;
}

describe('inbound mail: the webhook and the corpus of real-shaped messages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ INBOUND_TOKEN, INBOUND_REPLY_DOMAIN: INBOUND_DOMAIN });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 without INBOUND_TOKEN and 401 with a wrong token, storing nothing', async () => {
    const off = await createTestApp({}, { sameDatabaseAs: t });
    try {
      const res = await off.app.inject({
        method: 'POST',
        url: '/api/inbound/mail',
        headers: { authorization: `Bearer ${INBOUND_TOKEN}`, 'content-type': 'message/rfc822' },
        payload: 'Subject: x\r\n\r\nhello',
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
    const wrong = await postInbound(t, Buffer.from('Subject: x\r\n\r\nhello'), {
      authorization: 'Bearer nope-nope-nope-nope',
    });
    expect(wrong.statusCode).toBe(401);
    const none = await postInbound(t, Buffer.from('Subject: x\r\n\r\nhello'), { authorization: '' });
    expect(none.statusCode).toBe(401);
    const basic = (password: string) => `Basic ${Buffer.from(`inbound:${password}`).toString('base64')}`;
    expect(
      (await postInbound(t, Buffer.from('Subject: x\r\n\r\nhello'), { authorization: basic('wrong') }))
        .statusCode,
    ).toBe(401);
    const viaUrl = await postInbound(
      t,
      Buffer.from('Subject: basic\r\nMessage-ID: <basic.1@example.com>\r\n\r\nhello'),
      {
        authorization: basic(INBOUND_TOKEN),
      },
    );
    expect(viaUrl.json().data).toEqual({ orderId: null, disposition: 'unmatched' });
  });

  it('a Gmail reply threads by In-Reply-To: attached, quoted history folded, Awaiting back to New, flagged', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const res = await postInbound(t, corpus('gmail-reply.eml', sent, t));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
    const [msg] = await inbound(t, sent.orderId);
    expect(msg!.matched_by).toBe('thread');
    expect(msg!.body_text).toContain('X1234567');
    expect(msg!.body_text).not.toContain('clearer photo');
    expect(msg!.quoted_text).toContain('clearer photo');
    const o = await order(t, sent.orderId);
    expect(o.process_status).toBe('New');
    expect(o.customer_replied_at).not.toBeNull();
    const { rows: events } = await t.database.sql.query<{
      action: string;
      from_value: string;
      to_value: string;
    }>(
      "select action, from_value, to_value from order_events where order_id = $1 and action in ('status', 'customer_reply') order by id",
      [sent.orderId],
    );
    expect(events.map((e) => e.action)).toEqual(['customer_reply', 'status']);
    expect(events[1]).toMatchObject({ from_value: 'Awaiting', to_value: 'New' });
  });

  it('the same Message-ID twice is one message (duplicate)', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const raw = corpus('gmail-reply.eml', sent, t);
    expect((await postInbound(t, raw)).json().data.disposition).toBe('attached');
    const again = await postInbound(t, raw);
    expect(again.json().data.disposition).toBe('duplicate');
    expect(await inbound(t, sent.orderId)).toHaveLength(1);
  });

  it('two copies at once are one message, and both answers name its order', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const mail = await parseInbound(corpus('gmail-reply.eml', sent, t));
    // Straight into the pipeline, side by side: both look for the Message-ID before either stores it,
    // so one of them loses the insert (as two instances or a provider's retry would).
    const pipeline = { db: t.database.db, config: t.config };
    const answers = await Promise.all([receiveMail(pipeline, mail), receiveMail(pipeline, mail)]);
    expect(answers.map((a) => a.disposition).sort()).toEqual(['attached', 'duplicate']);
    expect(answers.map((a) => a.orderId)).toEqual([sent.orderId, sent.orderId]);
    expect(answers[0]!.inboundId).toBe(answers[1]!.inboundId);
    expect(await inbound(t, sent.orderId)).toHaveLength(1);
  });

  it('keeps the raw source of every message received, byte for byte, once per message', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const raw = corpus('gmail-reply.eml', sent, t);
    expect((await postInbound(t, raw)).json().data.disposition).toBe('attached');
    expect((await postInbound(t, raw)).json().data.disposition).toBe('duplicate');
    const stray = Buffer.from(
      `Subject: nobody's\r\nMessage-ID: <raw.${Date.now()}@example.com>\r\n\r\nhello`,
    );
    expect((await postInbound(t, stray)).json().data.disposition).toBe('unmatched');
    const { rows } = await t.database.sql.query<{ source: Uint8Array; order_id: number | null }>(
      `select r.source, m.order_id from inbound_raw_messages r join inbound_messages m on m.id = r.inbound_id
        where m.order_id = $1 or m.message_id = $2 order by m.id`,
      [sent.orderId, /<raw\.\d+@example\.com>/.exec(stray.toString())![0]],
    );
    expect(rows.map((r) => Buffer.from(r.source).equals(r.order_id === null ? stray : raw))).toEqual([
      true,
      true,
    ]);
  });

  it('an Outlook reply to the signed reply address matches by token, history folded', async () => {
    const sent = await sentMail(t, { process_status: 'Contact Customer' });
    const res = await postInbound(t, corpus('outlook-reply.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
    const [msg] = await inbound(t, sent.orderId);
    expect(msg!.matched_by).toBe('token');
    expect(msg!.body_text).toContain('KL 0733');
    expect((await order(t, sent.orderId)).process_status).toBe('New');
  });

  it('an Apple Mail reply matches by #order in the subject and its sender; the photo is kept, the .docx refused', async () => {
    const sent = await sentMail(t, { process_status: 'Customer Called' });
    // A second open order of the same address: the sender rule alone would not decide.
    await createOrder(t.database, { email: sent.email, re_enter_email: sent.email });
    const res = await postInbound(t, corpus('apple-mail-reply.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
    const [msg] = await inbound(t, sent.orderId);
    expect(msg!.matched_by).toBe('subject');
    expect(msg!.body_text).toContain('Here is the new photo.');
    expect(msg!.refused_attachments).toEqual([
      { name: 'notes.docx', reason: 'Only PDF, PNG, JPEG or WebP files are accepted.' },
    ]);
    const { rows } = await t.database.sql.query<{ mime_type: string; original_name: string }>(
      'select mime_type, original_name from inbound_attachments where inbound_id = $1',
      [msg!.id],
    );
    expect(rows).toEqual([{ mime_type: 'image/png', original_name: 'passport.png' }]);
  });

  it('an out-of-office is recorded as auto-reply and moves nothing', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const res = await postInbound(t, corpus('out-of-office.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'auto-reply' });
    const o = await order(t, sent.orderId);
    expect(o.process_status).toBe('Awaiting');
    expect(o.customer_replied_at).toBeNull();
  });

  it('a 5.1.1 report marks the mail bounced, flags the address and moves the order to Contact Customer with a remark', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const res = await postInbound(t, corpus('dsn-5.1.1.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'bounce' });
    const { rows: mail } = await t.database.sql.query<{ bounced_at: Date | null; bounce_reason: string }>(
      'select bounced_at, bounce_reason from mail_log where id = $1',
      [sent.mailId],
    );
    expect(mail[0]!.bounced_at).not.toBeNull();
    expect(mail[0]!.bounce_reason).toContain('5.1.1');
    const { rows: failing } = await t.database.sql.query(
      'select email from failing_addresses where email = $1',
      [sent.email],
    );
    expect(failing).toHaveLength(1);
    expect((await order(t, sent.orderId)).process_status).toBe('Contact Customer');
    const { rows: remarks } = await t.database.sql.query<{ remark: string }>(
      'select remark from order_remarks where order_id = $1',
      [sent.orderId],
    );
    expect(remarks[0]!.remark).toContain('did not arrive');
  });

  it('a 4.x delay is recorded as a bounce on the order without flagging or moving anything', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const res = await postInbound(t, corpus('dsn-4.4.7.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'bounce' });
    expect((await order(t, sent.orderId)).process_status).toBe('Awaiting');
    const { rows } = await t.database.sql.query('select 1 from failing_addresses where email = $1', [
      sent.email,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('a reply to the id the provider gave our mail (rewritten Message-ID) still threads', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const res = await postInbound(t, corpus('rewritten-message-id.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
    expect((await inbound(t, sent.orderId))[0]!.body_text).toContain('dirección');
  });

  it('a forwarded mail from an unknown address is unmatched and listed for staff', async () => {
    const res = await postInbound(t, corpus('forwarded.eml', {}, t));
    expect(res.json().data).toEqual({ orderId: null, disposition: 'unmatched' });
  });

  it('an unmatched mail without files is listed with 0 files (its own id is not its message id)', async () => {
    const stamp = `${Date.now()}${Math.random()}`.replace('.', '');
    for (let i = 0; i < 3; i++) {
      const raw = `From: Nobody <nobody.${stamp}.${i}@example.com>\r\nTo: help@example.com\r\nSubject: Plain ${stamp} ${i}\r\nMessage-ID: <plain.${stamp}.${i}@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nNo files here.\r\n`;
      expect((await postInbound(t, raw)).json().data.disposition).toBe('unmatched');
    }
    const list = await t.as('Manager', { method: 'GET', url: '/api/admin/inbound/unmatched?size=100' });
    const mine = list
      .json()
      .data.items.filter((m: { subject: string | null }) => m.subject?.startsWith(`Plain ${stamp}`));
    expect(mine).toHaveLength(3);
    expect(mine.map((m: { attachments: number }) => m.attachments)).toEqual([0, 0, 0]);
  });

  it('a reply from another address threads by In-Reply-To', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const res = await postInbound(t, corpus('other-address.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
  });

  it('an HTML-only mail is kept as text: no script, no style, no remote image address', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const res = await postInbound(t, corpus('html-script.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
    const [msg] = await inbound(t, sent.orderId);
    expect(msg!.matched_by).toBe('sender');
    expect(msg!.body_text).toContain('2 December');
    expect(msg!.body_text).not.toMatch(/steal-the-token|tracker\.example|color:red|<\w/);
  });

  it('a forged reply token never matches', async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const res = await postInbound(t, corpus('forged-token.eml', sent, t));
    expect(res.json().data).toEqual({ orderId: null, disposition: 'unmatched' });
    expect((await order(t, sent.orderId)).process_status).toBe('Awaiting');
  });

  it('our own mail coming back is dropped (loop guard)', async () => {
    const sent = await sentMail(t);
    const raw = Buffer.from(
      `From: ED-Card <no-reply@ed-card.test>\r\nTo: ${sent.email}\r\nMessage-ID: ${sent.sentId}\r\nX-ED-Card-Order: ${sent.orderId}\r\nSubject: Your ED-Card application\r\n\r\nDear customer\r\n`,
    );
    const res = await postInbound(t, raw);
    expect(res.json().data).toEqual({ orderId: null, disposition: 'auto-reply' });
    expect(await inbound(t, sent.orderId)).toHaveLength(0);
  });

  it('a MIME bomb (deep nesting, thousands of parts) is refused with 422, quickly', async () => {
    let nested = 'text/plain body\r\n';
    for (let i = 0; i < 60; i++)
      nested = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${nested}\r\n--b${i}--\r\n`;
    const deep = Buffer.from(`From: a@example.com\r\nSubject: deep\r\nMIME-Version: 1.0\r\n${nested}`);
    const started = Date.now();
    const res = await postInbound(t, deep);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The message has too many parts or nests them too deeply.');
    const parts = Array.from({ length: 5000 }, () => '--w\r\nContent-Type: text/plain\r\n\r\nx\r\n').join('');
    const wide = Buffer.from(
      `From: a@example.com\r\nSubject: wide\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="w"\r\n\r\n${parts}--w--\r\n`,
    );
    const res2 = await postInbound(t, wide);
    expect(res2.statusCode).toBe(422);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a 30 MB message answers 413 and stores nothing', async () => {
    const before = await t.database.sql.query<{ n: string }>(
      'select count(*)::text as n from inbound_messages',
    );
    const big = Buffer.concat([
      Buffer.from('From: big@example.com\r\nSubject: big\r\n\r\n'),
      Buffer.alloc(30 * 1024 * 1024, 'a'),
    ]);
    const res = await postInbound(t, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().status).toBe(0);
    const after = await t.database.sql.query<{ n: string }>(
      'select count(*)::text as n from inbound_messages',
    );
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it("SendGrid Inbound Parse's form (raw message in `email`) goes through the same pipeline", async () => {
    const sent = await sentMail(t, { process_status: 'Awaiting' });
    const boundary = 'xYzZY';
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body =
      field('envelope', JSON.stringify({ to: ['support@ed-card.test'], from: sent.email })) +
      field('email', corpus('gmail-reply.eml', sent, t).toString('utf8')) +
      `--${boundary}--\r\n`;
    const res = await postInbound(t, Buffer.from(body), {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
  });

  it('hostile bodies: not an e-mail, control characters, wrong content type -> 4xx, nothing stored', async () => {
    const before = await t.database.sql.query<{ n: string }>(
      'select count(*)::text as n from inbound_messages',
    );
    expect((await postInbound(t, Buffer.alloc(0))).statusCode).toBeGreaterThanOrEqual(400);
    const json = await postInbound(t, Buffer.from('{"a":1}'), { 'content-type': 'application/json' });
    expect(json.statusCode).toBe(415);
    const nul = await postInbound(
      t,
      Buffer.from('From: x\u0000@example.com\r\nSubject: \u0000\u0001\r\n\r\n\u0000body'),
    );
    expect(nul.statusCode).toBeLessThan(500);
    const after = await t.database.sql.query<{ n: string }>(
      'select count(*)::text as n from inbound_messages',
    );
    expect(Number(after.rows[0]!.n)).toBeLessThanOrEqual(Number(before.rows[0]!.n) + 1);
  });
});
