import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { hasDovecot, startDovecot, type TestImap } from '../test/dovecot.js';
import { createOrder } from '../test/factories.js';
import { eventually } from '../test/smtp.js';
import { type ImapWatcher, startImapWatcher } from './imap.js';

if (!hasDovecot)
  console.warn('dovecot is not installed (apt-get install dovecot-imapd): the IMAP test is skipped');

describe.skipIf(!hasDovecot)('the IMAP way in, against a real dovecot', () => {
  let t: TestApp;
  let imap: TestImap;
  let sender: ImapFlow;
  const watchers: ImapWatcher[] = [];
  beforeAll(async () => {
    imap = await startDovecot();
    t = await createTestApp({ INBOUND_IMAP_URL: imap.url, INBOUND_AUTHSERV_ID: 'mx.ed-card.test' });
    const u = new URL(imap.url);
    sender = new ImapFlow({
      host: u.hostname,
      port: Number(u.port),
      secure: false,
      auth: { user: u.username, pass: u.password },
      logger: false,
    });
    await sender.connect();
  });
  afterAll(async () => {
    for (const w of watchers) await w.stop();
    await sender?.logout().catch(() => {});
    await t?.close();
    await imap?.close();
  });

  it('two instances watching one mailbox take each new message once; it is attached, moved and marked seen', async () => {
    const orders = await Promise.all(
      [1, 2, 3].map((i) =>
        createOrder(t.database, {
          email: `imap${i}.${Date.now()}@example.com`,
          re_enter_email: 'x@example.com',
          process_status: 'Awaiting',
        }),
      ),
    );
    // Two watchers on one database: two instances of the service.
    for (let i = 0; i < 2; i++)
      watchers.push(await startImapWatcher(t.database.db, t.config, { url: imap.url, pollMs: 200 }));
    for (const [i, o] of orders.entries()) {
      await sender.append(
        'INBOX',
        // Matched by the sender alone: it moves the order because our receiving server authenticated it.
        `Authentication-Results: mx.ed-card.test; dkim=pass header.d=example.com\r\nFrom: Customer <${o.email}>\r\nTo: support@ed-card.test\r\nSubject: Re: order ${o.orderId}\r\nMessage-ID: <imap.${i}.${Date.now()}@example.com>\r\n\r\nHere is my answer ${i}.\r\n`,
      );
    }
    // A MIME bomb in the mailbox is refused and marked seen, never retried.
    let nested = 'x\r\n';
    for (let i = 0; i < 40; i++)
      nested = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${nested}\r\n--b${i}--\r\n`;
    await sender.append('INBOX', `From: bomb@example.com\r\nSubject: bomb\r\nMIME-Version: 1.0\r\n${nested}`);

    await eventually(async () => {
      const { rows } = await t.database.sql.query<{ n: string }>(
        "select count(*)::text as n from inbound_messages where source = 'mail'",
      );
      return rows[0]!.n === '3';
    }, 20_000);
    await eventually(async () => {
      const lock = await sender.getMailboxLock('INBOX');
      try {
        const unseen = (await sender.search({ seen: false }, { uid: true })) || [];
        return unseen.length === 0;
      } finally {
        lock.release();
      }
    }, 20_000);
    const { rows: claims } = await t.database.sql.query<{ n: string }>(
      'select count(*)::text as n from inbound_imap_claims',
    );
    expect(claims[0]!.n).toBe('4');
    for (const o of orders) {
      const { rows } = await t.database.sql.query<{ process_status: string }>(
        'select process_status from orders where order_id = $1',
        [o.orderId],
      );
      expect(rows[0]!.process_status).toBe('New');
    }
    // Nothing new: another pass takes nothing.
    expect(await watchers[0]!.poll()).toBe(0);

    // Erasing an order deletes the raw copy of its mail from the mailbox; the others stay.
    const { rows: ids } = await t.database.sql.query<{ order_id: number; message_id: string }>(
      `select order_id, message_id from inbound_messages where source = 'mail' and order_id = any($1::bigint[])
        order by id`,
      [orders.map((o) => o.orderId)],
    );
    expect(ids).toHaveLength(3);
    const erased = await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${ids[0]!.order_id}/erase`,
      payload: { reason: 'Customer request' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const inMailbox = async (messageId: string) => {
      const lock = await sender.getMailboxLock('INBOX');
      try {
        // A session sees another's deletions once it has asked the server anything.
        await sender.noop();
        return ((await sender.search({ header: { 'message-id': messageId } }, { uid: true })) || []).length;
      } finally {
        lock.release();
      }
    };
    expect(await inMailbox(ids[0]!.message_id)).toBe(0);
    expect(await inMailbox(ids[1]!.message_id)).toBe(1);
    expect(await inMailbox(ids[2]!.message_id)).toBe(1);
  });
});
