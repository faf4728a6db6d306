import { beforeAll, describe, expect, it } from 'vitest';
import { signCustomerToken } from '../customer/tokens.js';
import type { TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf, TINY_PNG } from '../test/fixtures.js';
import { INBOUND_DOMAIN, INBOUND_TOKEN, inboundMailApp, postInbound } from '../test/inbound.js';
import { eventually, multipart } from '../test/smtp.js';
import { ourMessageId, replyAddress } from '../mail/reply-tokens.js';

/**
 * The mail side of the fourth hardening round (docs/security.md): bounces count only by names we signed,
 * an unauthenticated sender moves nothing, erased and Deleted orders take nothing, staff replies and
 * attaching unmatched mail follow the rules, truncated forms answer 400.
 */
const AUTHSERV = 'mx.ed-card.test';
let n = 0;
const uniq = () => `${Date.now()}${++n}`;

interface Sent {
  orderId: number;
  email: string;
  mailId: number;
  signedId: string;
  providerId: string;
}

describe('inbound mail hardening (round 4)', () => {
  const app = inboundMailApp({ INBOUND_AUTHSERV_ID: AUTHSERV });
  let t: TestApp;
  beforeAll(() => {
    t = app.t;
  });

  /** An order and a mail the outbox sent it (to `to`, the order's address unless given). */
  async function sentMail(overrides: Record<string, unknown> = {}, to?: string): Promise<Sent> {
    const email = `hardening${uniq()}@example.com`;
    const order = await createOrder(t.database, { email, re_enter_email: email, ...overrides });
    const { rows } = await t.database.sql.query<{ id: string }>(
      `insert into mail_log (order_id, kind, to_email, provider, status, requested_by)
       values ($1, 'notification', $2, 'AWS', 'sent', null) returning id`,
      [order.orderId, to ?? email],
    );
    const mailId = Number(rows[0]!.id);
    const signedId = ourMessageId(t.config.JWT_SECRET, t.config.APP_MAIL_DOMAIN, mailId);
    const providerId = `0100018c${mailId}abcdef${n}`;
    await t.database.sql.query(
      'update mail_log set message_id = $2, our_message_id = $2, provider_message_id = $3 where id = $1',
      [mailId, signedId, providerId],
    );
    return { orderId: order.orderId, email, mailId, signedId, providerId };
  }

  /** A delivery report (RFC 3464, 5.1.1) with the returned headers given. */
  const dsn = (opts: { to?: string; finalRecipient: string; returned: string }) =>
    `From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.net>
To: ${opts.to ?? 'no-reply@ed-card.test'}
Subject: Delivery Status Notification (Failure)
Message-ID: <dsn.${uniq()}@mx.example.net>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="BOUNDARY_R4"
Auto-Submitted: auto-replied

--BOUNDARY_R4
Content-Type: text/plain; charset=us-ascii

Please call the customer at +1 555 0100 (attacker's text).

--BOUNDARY_R4
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net

Action: failed
Final-Recipient: rfc822; ${opts.finalRecipient}
Diagnostic-Code: smtp; 550 5.1.1 user unknown
Status: 5.1.1

--BOUNDARY_R4
Content-Type: text/rfc822-headers

${opts.returned}

--BOUNDARY_R4--
`;

  const statusOf = async (orderId: number) =>
    (
      await t.database.sql.query<{ process_status: string }>(
        'select process_status from orders where order_id = $1',
        [orderId],
      )
    ).rows[0]!.process_status;
  const failing = async (...emails: string[]) =>
    (
      await t.database.sql.query<{ email: string }>(
        'select email from failing_addresses where email = any($1::text[]) order by email',
        [emails],
      )
    ).rows.map((r) => r.email);
  const remarksOf = async (orderId: number) =>
    (
      await t.database.sql.query<{ remark: string }>('select remark from order_remarks where order_id = $1', [
        orderId,
      ])
    ).rows;
  const mailRow = async (mailId: number) =>
    (
      await t.database.sql.query<{ bounced_at: Date | null; bounce_reason: string | null }>(
        'select bounced_at, bounce_reason from mail_log where id = $1',
        [mailId],
      )
    ).rows[0]!;

  describe('1. a bounce counts only when it names a mail we signed', () => {
    it('a forged report (any sender, X-ED-Card-Order, a provider id, an address of its choice) is unmatched and changes nothing', async () => {
      for (const status of ['Completed', 'AwaitingGovt', 'New']) {
        const sent = await sentMail({ process_status: status });
        const res = await postInbound(
          t,
          dsn({
            finalRecipient: 'victim@example.org',
            returned: `From: ED-Card <no-reply@ed-card.test>\nTo: victim@example.org\nMessage-ID: <${sent.providerId}@email.amazonses.com>\nX-ED-Card-Order: ${sent.orderId}\nX-ED-Card-Message-Id: <edc.${sent.mailId}.0000000000000000000a@ed-card.test>`,
          }),
        );
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data).toEqual({ orderId: null, disposition: 'unmatched' });
        expect(await statusOf(sent.orderId)).toBe(status);
        expect(await remarksOf(sent.orderId)).toEqual([]);
        expect(await failing('victim@example.org', sent.email)).toEqual([]);
        expect((await mailRow(sent.mailId)).bounced_at).toBeNull();
      }
    });

    it('a report naming our signed Message-ID marks exactly that mail bounced (Email History says so), flags only its address; a closed order never moves', async () => {
      // The mail went to another address than the order's (a resend); the report names a third one.
      const other = `other${uniq()}@example.net`;
      const sent = await sentMail({ process_status: 'Completed' }, other);
      const untouched = await t.database.sql.query<{ id: string }>(
        `insert into mail_log (order_id, kind, to_email, provider, status, requested_by)
         values ($1, 'notification', $2, 'AWS', 'sent', null) returning id`,
        [sent.orderId, sent.email],
      );
      const res = await postInbound(
        t,
        dsn({
          finalRecipient: 'chosen@example.org',
          returned: `From: ED-Card <no-reply@ed-card.test>\nTo: ${other}\nMessage-ID: ${sent.signedId}`,
        }),
      );
      expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'bounce' });
      expect((await mailRow(sent.mailId)).bounce_reason).toContain('5.1.1');
      expect((await mailRow(Number(untouched.rows[0]!.id))).bounced_at).toBeNull();
      expect(await failing(other, sent.email, 'chosen@example.org')).toEqual([other]);
      expect(await statusOf(sent.orderId)).toBe('Completed');
      expect(await remarksOf(sent.orderId)).toEqual([]);
      const detail = await t.as('Admin', {
        method: 'GET',
        url: `/api/admin/get-orders-details/${sent.orderId}`,
      });
      expect(detail.statusCode, detail.body).toBe(200);
      const history = detail.json().data.mailHistory as {
        id: number;
        status: string;
        bounce_reason: string;
      }[];
      expect(history.find((m) => m.id === sent.mailId)).toMatchObject({ status: 'bounced' });
      expect(history.find((m) => m.id === sent.mailId)!.bounce_reason).toContain('5.1.1');
      expect(history.find((m) => m.id === Number(untouched.rows[0]!.id))!.status).toBe('sent');
    });

    it('a report sent to our signed reply address names that order’s mail to the reported recipient; an open order goes to Contact Customer', async () => {
      const sent = await sentMail({ process_status: 'New' });
      const res = await postInbound(
        t,
        dsn({
          to: replyAddress(t.config.JWT_SECRET, INBOUND_DOMAIN, sent.orderId),
          finalRecipient: sent.email,
          returned: `From: ED-Card <no-reply@ed-card.test>\nTo: ${sent.email}\nSubject: Your application`,
        }),
      );
      expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'bounce' });
      expect((await mailRow(sent.mailId)).bounced_at).not.toBeNull();
      expect(await statusOf(sent.orderId)).toBe('Contact Customer');
      expect((await remarksOf(sent.orderId))[0]!.remark).toContain('did not arrive');
      // A forged reply address (altered signature) names nothing.
      const forged = await sentMail({ process_status: 'New' });
      const bad = replyAddress(t.config.JWT_SECRET, INBOUND_DOMAIN, forged.orderId).replace(
        /-[0-9a-f]/,
        '-0',
      );
      const refused = await postInbound(
        t,
        dsn({ to: bad, finalRecipient: forged.email, returned: `To: ${forged.email}` }),
      );
      expect(refused.json().data.disposition).toBe('unmatched');
      expect(await statusOf(forged.orderId)).toBe('New');
    });
  });

  describe('6. a sender matched by address alone moves nothing unless our server authenticated it', () => {
    const reply = (email: string, orderId: number, headers = '') =>
      `${headers}From: Customer <${email}>\nTo: support@ed-card.test\nSubject: Re: order #${orderId}\nMessage-ID: <sender.${uniq()}@example.com>\n\nHere is my answer.\n`;

    it('From: the customer’s address, sent from anywhere: attached, "sender not verified", the order stays, the failing flag stays', async () => {
      for (const headers of [
        '',
        // Another server's header, and ours saying it failed.
        `Authentication-Results: evil.example; dkim=pass header.d=example.com; dmarc=pass header.from=example.com\n`,
        `Authentication-Results: ${AUTHSERV}; dkim=fail header.d=example.com; dmarc=fail header.from=example.com\n`,
      ]) {
        const sent = await sentMail({ process_status: 'Awaiting' });
        await t.database.sql.query(`insert into failing_addresses (email, reason) values ($1, '5.1.1')`, [
          sent.email,
        ]);
        // By #id and sender, and by the sender alone.
        for (const raw of [
          reply(sent.email, sent.orderId, headers),
          reply(sent.email, 0, headers).replace(/order #0/, 'my order'),
        ]) {
          const res = await postInbound(t, raw);
          expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
        }
        expect(await statusOf(sent.orderId)).toBe('Awaiting');
        expect(await failing(sent.email)).toEqual([sent.email]);
        const conversation = await t.as('Team', {
          method: 'GET',
          url: `/api/admin/orders/${sent.orderId}/conversation`,
        });
        const incoming = conversation
          .json()
          .data.items.filter((i: { direction: string }) => i.direction === 'in');
        expect(incoming).toHaveLength(2);
        for (const i of incoming) expect(i.senderVerified).toBe(false);
      }
    });

    it('with dkim=pass or dmarc=pass from our receiving server the answer moves the order and clears the flag', async () => {
      for (const auth of [
        `${AUTHSERV}; spf=pass; dkim=pass header.d=example.com header.s=s1`,
        `${AUTHSERV}; dmarc=pass (p=reject) header.from=example.com`,
      ]) {
        const sent = await sentMail({ process_status: 'Awaiting' });
        await t.database.sql.query(`insert into failing_addresses (email, reason) values ($1, '5.1.1')`, [
          sent.email,
        ]);
        const res = await postInbound(
          t,
          reply(sent.email, sent.orderId, `Authentication-Results: ${auth}\n`),
        );
        expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
        expect(await statusOf(sent.orderId)).toBe('New');
        expect(await failing(sent.email)).toEqual([]);
      }
    });

    it('the signed reply address still moves the order without authentication', async () => {
      const sent = await sentMail({ process_status: 'Awaiting' });
      const res = await postInbound(
        t,
        `From: <${sent.email}>\nTo: ${replyAddress(t.config.JWT_SECRET, INBOUND_DOMAIN, sent.orderId)}\nSubject: hi\nMessage-ID: <tok.${uniq()}@example.com>\n\nAnswer.\n`,
      );
      expect(res.json().data).toEqual({ orderId: sent.orderId, disposition: 'attached' });
      expect(await statusOf(sent.orderId)).toBe('New');
    });
  });

  describe('5. erased and Deleted orders take nothing', () => {
    const erase = async (orderId: number) => {
      const res = await t.as('Admin', {
        method: 'POST',
        url: `/api/admin/orders/${orderId}/erase`,
        payload: { reason: 'Customer request' },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const replyForm = (token: string, files: { name: string; type: string; content: Buffer }[] = []) => {
      const body = multipart(
        { message: 'Here is my passport again.' },
        files.map((f) => ({ ...f, field: 'files' })),
      );
      return { payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } };
    };

    it('mail to an erased order’s old reply address or thread is unmatched without its content or files', async () => {
      const sent = await sentMail({ process_status: 'Awaiting' });
      const replyTo = replyAddress(t.config.JWT_SECRET, INBOUND_DOMAIN, sent.orderId);
      await erase(sent.orderId);
      const files = await t.database.sql.query<{ n: number }>(
        'select count(*)::int as n from inbound_attachments',
      );
      for (const [to, extra] of [
        [replyTo, ''],
        ['support@ed-card.test', `In-Reply-To: ${sent.signedId}\n`],
      ] as const) {
        const res = await postInbound(
          t,
          `From: Secret Name <${sent.email}>\nTo: ${to}\n${extra}Subject: Secret subject\nMessage-ID: <erased.${uniq()}@example.com>\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="E"\n\n--E\nContent-Type: text/plain\n\nSecret body\n--E\nContent-Type: image/png\nContent-Disposition: attachment; filename="passport.png"\nContent-Transfer-Encoding: base64\n\n${TINY_PNG.toString('base64')}\n--E--\n`,
        );
        expect(res.json().data).toEqual({ orderId: null, disposition: 'unmatched' });
      }
      const { rows } = await t.database.sql.query<{ row: string }>(
        `select m::text as row from inbound_messages m where matched_by = 'erased'`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(2);
      expect(rows.join('\n')).not.toMatch(/Secret|hardening/);
      const after = await t.database.sql.query<{ n: number }>(
        'select count(*)::int as n from inbound_attachments',
      );
      expect(after.rows[0]!.n).toBe(files.rows[0]!.n);
      // Nor its raw source: what an erased order is sent is not kept in any form.
      const { rows: raw } = await t.database.sql.query<{ n: number }>(
        `select count(*)::int as n from inbound_raw_messages r join inbound_messages m on m.id = r.inbound_id
          where m.matched_by = 'erased'`,
      );
      expect(raw[0]!.n).toBe(0);
      expect(await statusOf(sent.orderId)).toBe('Awaiting');
    });

    it('a track-page reply with a token issued before the erasure answers 401, before a Deleted order’s refusal with the cancelled-order message', async () => {
      const erased = await createOrder(t.database, { process_status: 'Awaiting' });
      const erasedToken = await signCustomerToken(t.config.JWT_SECRET, erased.orderId);
      await erase(erased.orderId);
      const deleted = await createOrder(t.database, { process_status: 'Awaiting' });
      const deletedToken = await signCustomerToken(t.config.JWT_SECRET, deleted.orderId);
      await t.database.sql.query(`update orders set process_status = 'Deleted' where order_id = $1`, [
        deleted.orderId,
      ]);
      const png = [{ name: 'p.png', type: 'image/png', content: TINY_PNG }];
      const r1 = await t.app.inject({
        method: 'POST',
        url: `/api/customer/orders/${erased.orderId}/replies`,
        ...replyForm(erasedToken, png),
      });
      expect(r1.statusCode).toBe(401);
      const r2 = await t.app.inject({
        method: 'POST',
        url: `/api/customer/orders/${deleted.orderId}/replies`,
        ...replyForm(deletedToken, png),
      });
      expect(r2.statusCode).toBe(409);
      expect(r2.json().message).toBe('This order was cancelled.');
      const { rows } = await t.database.sql.query(
        'select 1 from inbound_messages where order_id = any($1::bigint[])',
        [[erased.orderId, deleted.orderId]],
      );
      expect(rows).toEqual([]);
    });
  });

  describe('7. staff replies follow the mail rules', () => {
    it('Deleted and Completed Refunds orders answer 409, an order held by another answers 409 naming the holder; nothing is queued', async () => {
      const { rows: admins } = await t.database.sql.query<{ id: number }>(
        "select id from staff_users where role = 'Admin' and deleted_at is null order by id limit 1",
      );
      const cases = [
        { status: 'Deleted', assigned: null, message: /deleted/ },
        { status: 'Refunded', assigned: null, message: /Completed Refunds/ },
        { status: 'New', assigned: admins[0]!.id, message: /is working on this order/ },
      ];
      for (const c of cases) {
        const order = await createOrder(t.database, { process_status: c.status, assigned_to: c.assigned });
        for (const payload of [{ body: 'Hello, please send the photo.' }, { templateId: 'passport-photo' }]) {
          const res = await t.as('Telecaller', {
            method: 'POST',
            url: `/api/admin/orders/${order.orderId}/messages`,
            payload,
          });
          expect(res.statusCode, `${c.status} ${res.body}`).toBe(409);
          expect(res.json().message).toMatch(c.message);
        }
        const { rows } = await t.database.sql.query('select 1 from mail_log where order_id = $1', [
          order.orderId,
        ]);
        expect(rows).toEqual([]);
      }
    });
  });

  describe('8. attaching unmatched mail', () => {
    const unmatched = async () => {
      const res = await postInbound(
        t,
        `From: <stranger${uniq()}@travel.example>\nTo: support@ed-card.test\nSubject: private\nMessage-ID: <um.${uniq()}@travel.example>\n\nPrivate text.\n`,
      );
      const { rows } = await t.database.sql.query<{ id: number }>(
        `select id from inbound_messages where disposition = 'unmatched' order by id desc limit 1`,
      );
      expect(res.json().data.disposition).toBe('unmatched');
      return Number(rows[0]!.id);
    };

    it('needs the permission to read unmatched mail (Telecaller 403, the message stays unmatched)', async () => {
      const id = await unmatched();
      const order = await createOrder(t.database, { process_status: 'Awaiting' });
      const res = await t.as('Telecaller', {
        method: 'POST',
        url: `/api/admin/inbound/${id}/attach`,
        payload: { orderId: order.orderId },
      });
      expect(res.statusCode).toBe(403);
      const { rows } = await t.database.sql.query<{ disposition: string }>(
        'select disposition from inbound_messages where id = $1',
        [id],
      );
      expect(rows[0]!.disposition).toBe('unmatched');
    });

    it('refuses Deleted and erased orders (409), leaving the message unmatched', async () => {
      const deleted = await createOrder(t.database, { process_status: 'Deleted' });
      const erased = await createOrder(t.database, { process_status: 'Completed' });
      const erasing = await t.as('Admin', {
        method: 'POST',
        url: `/api/admin/orders/${erased.orderId}/erase`,
        payload: { reason: 'Customer request' },
      });
      expect(erasing.statusCode).toBe(200);
      for (const orderId of [deleted.orderId, erased.orderId]) {
        const id = await unmatched();
        const res = await t.as('Night Staff', {
          method: 'POST',
          url: `/api/admin/inbound/${id}/attach`,
          payload: { orderId },
        });
        expect(res.statusCode, res.body).toBe(409);
        const { rows } = await t.database.sql.query<{ disposition: string; order_id: number | null }>(
          'select disposition, order_id from inbound_messages where id = $1',
          [id],
        );
        expect(rows[0]).toEqual({ disposition: 'unmatched', order_id: null });
      }
    });
  });

  describe('11. a truncated multipart body answers 400', () => {
    const cut = (body: { payload: Buffer; headers: Record<string, string> }, keep: number) => ({
      payload: body.payload.subarray(0, keep),
      headers: body.headers,
    });

    it('on POST /api/inbound/mail, at every cut', async () => {
      const body = multipart({
        email: `From: <a@example.com>\r\nSubject: cut\r\nMessage-ID: <cut.${uniq()}@example.com>\r\n\r\nhello\r\n`,
        envelope: '{"to":["support@ed-card.test"]}',
      });
      for (const keep of [10, 60, Math.floor(body.payload.length / 2), body.payload.length - 3]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/inbound/mail',
          ...cut(body, keep),
          headers: { ...body.headers, authorization: `Bearer ${INBOUND_TOKEN}` },
        });
        expect(res.statusCode, `${keep}: ${res.body}`).toBe(400);
      }
    });

    it('on the track-page replies, at every cut, storing nothing', async () => {
      const order = await createOrder(t.database, { process_status: 'Awaiting' });
      const token = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
      const body = multipart({ message: 'hello' }, [
        { field: 'files', name: 'card.pdf', type: 'application/pdf', content: await samplePdf('CUT') },
      ]);
      for (const keep of [20, 120, Math.floor(body.payload.length / 2), body.payload.length - 3]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/customer/orders/${order.orderId}/replies`,
          payload: body.payload.subarray(0, keep),
          headers: { ...body.headers, authorization: `Bearer ${token}` },
          remoteAddress: `198.51.100.${keep % 250}`,
        });
        expect(res.statusCode, `${keep}: ${res.body}`).toBe(400);
      }
      const { rows } = await t.database.sql.query('select 1 from inbound_messages where order_id = $1', [
        order.orderId,
      ]);
      expect(rows).toEqual([]);
    });
  });

  describe('16. sent mails in the conversation', () => {
    it('carry the subject they went out with and their Message-ID', async () => {
      const email = `subject${uniq()}@example.com`;
      const order = await createOrder(t.database, {
        email,
        re_enter_email: email,
        process_status: 'Awaiting',
      });
      const res = await t.as('Admin', {
        method: 'POST',
        url: `/api/admin/orders/${order.orderId}/messages`,
        payload: { body: 'Please send a sharper photo.' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const mailId = res.json().data.mailId as number;
      const delivered = await eventually(async () =>
        (await app.smtp.waitFor(0)).find((m) => JSON.stringify(m.to ?? '').includes(email)),
      );
      const item = await eventually(async () => {
        const conv = await t.as('Admin', {
          method: 'GET',
          url: `/api/admin/orders/${order.orderId}/conversation`,
        });
        const out = conv
          .json()
          .data.items.find(
            (i: { direction: string; id: number }) => i.direction === 'out' && i.id === mailId,
          );
        return out?.subject ? out : undefined;
      });
      expect(item.subject).toBe(delivered!.subject);
      expect(item.subject).toBe(`ED-Card #${order.orderId}`);
      expect(item.messageId).toBe(delivered!.messageId);
      expect(item.messageId).toMatch(/^<edc\.\d+\.[0-9a-f]+@/);
    });
  });
});
