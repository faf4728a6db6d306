import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCustomerToken } from '../customer/tokens.js';
import { startMailQueue, type MailQueue } from '../mail/queue.js';
import { outboxDir } from '../mail/transports.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf, TINY_PNG } from '../test/fixtures.js';
import { INBOUND_DOMAIN, INBOUND_TOKEN, postInbound } from '../test/inbound.js';
import { ourMessageId, replyAddress } from '../mail/reply-tokens.js';
import { eventually, multipart, pdfText } from '../test/smtp.js';

/**
 * After an erasure none of the customer's values is left anywhere the application writes: every table of
 * the database dumped as text, the data folder (documents, the mail outbox) and the request log. The
 * database engine's own files are not searched (they keep dead rows until vacuum).
 */
const lines: string[] = [];
let t: TestApp;
let queue: MailQueue;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await createTestApp(
    { INBOUND_TOKEN, INBOUND_REPLY_DOMAIN: INBOUND_DOMAIN },
    { logger: { level: 'info', stream } },
  );
  queue = await startMailQueue(t.app, {
    retryDelaySeconds: 1,
    retryLimit: 2,
    pollingIntervalSeconds: 0.5,
    dispatchIntervalMs: 300,
    reminderCron: null,
  });
});
afterAll(async () => {
  await queue.stop();
  await t.close();
});

const CUSTOMER = {
  first_name: 'Quirinus',
  last_name: 'Zebedee',
  email: 'quirinus.zebedee@example.com',
  re_enter_email: 'quirinus.zebedee@example.com',
  passport_number: 'XQ7734921',
  telephone_number: '5557771234',
  name_of_place_of_stay: 'Villa Marigoldia',
  other_hotel_name: 'Casa Brandywine',
  address: '17 Wobbleton Lane',
  local_address: 'Kaya Flamboyan 99',
  process_status: 'Completed',
};
const IPV4 = '203.0.113.77';
const FILE_NAME = 'Quirinus Zebedee approval.pdf';
const TRANSACTION = 'txn_QZ_998877';
/** What must be gone after the erasure (the IP's last part goes; its network may stay). */
const ERASED_VALUES = [
  'Quirinus',
  'Zebedee',
  'quirinus.zebedee',
  'XQ7734921',
  '5557771234',
  'Marigoldia',
  'Brandywine',
  'Wobbleton',
  'Flamboyan',
  TRANSACTION,
  IPV4,
  // The conversation, the dispute, the merchant and a withdrawal's free-text reason.
  'Glimmerwhisk',
  'Marchpane',
  'pi_QZ4455667788',
  'ch_QZ5566778899',
  'Snorkelwing',
];

async function databaseDump(): Promise<string> {
  const { rows: tables } = await t.database.sql.query<{ schema: string; name: string }>(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  const parts: string[] = [];
  for (const { schema, name } of tables) {
    const { rows } = await t.database.sql.query<{ row: string }>(
      `select r::text as row from "${schema}"."${name}" r`,
    );
    parts.push(`${schema}.${name}\n${rows.map((r) => r.row).join('\n')}`);
  }
  return parts.join('\n');
}

async function dataFolderText(dir: string): Promise<string> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(await dataFolderText(full));
    else out.push(`${full}\n${(await readFile(full)).toString('latin1')}`);
  }
  return out.join('\n');
}

/**
 * The whole conversation of an order before its erasure: a mail with a file to the signed reply
 * address, a track-page answer with a file, a staff reply (delivered to the outbox), the customer's
 * out-of-office, a bounce of that reply, unmatched mail attached by an Admin and a closed dispute.
 * Answers the ids of the files kept.
 */
async function conversation(id: number, customerToken: string): Promise<number[]> {
  const pdf = (await samplePdf('Quirinus Snorkelwing passport', 1)).toString('base64');
  const mailed = await postInbound(
    t,
    `From: Quirinus Zebedee <${CUSTOMER.email}>\nTo: ${replyAddress(t.config.JWT_SECRET, INBOUND_DOMAIN, id)}\nSubject: Quirinus passport Snorkelwing\nMessage-ID: <qz.mail.${id}@example.com>\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="QZ"\n\n--QZ\nContent-Type: text/plain\n\nHere is my passport XQ7734921. Quirinus\n--QZ\nContent-Type: application/pdf\nContent-Disposition: attachment; filename="Quirinus Snorkelwing.pdf"\nContent-Transfer-Encoding: base64\n\n${pdf.replace(/(.{76})/g, '$1\n')}\n--QZ--\n`,
  );
  expect(mailed.json().data).toEqual({ orderId: id, disposition: 'attached' });
  const form = multipart({ message: 'Quirinus here, call me on 5557771234' }, [
    { field: 'files', name: 'Zebedee Snorkelwing.png', type: 'image/png', content: TINY_PNG },
  ]);
  const tracked = await t.app.inject({
    method: 'POST',
    url: `/api/customer/orders/${id}/replies`,
    payload: form.payload,
    headers: { ...form.headers, authorization: `Bearer ${customerToken}` },
    remoteAddress: '198.51.100.40',
  });
  expect(tracked.statusCode, tracked.body).toBe(200);
  const reply = await t.as('Admin', {
    method: 'POST',
    url: `/api/admin/orders/${id}/messages`,
    payload: { body: 'Dear Quirinus Zebedee, thank you for the Snorkelwing passport.' },
  });
  expect(reply.statusCode, reply.body).toBe(200);
  const mailId = reply.json().data.mailId as number;
  await eventually(async () => {
    const { rows } = await t.database.sql.query<{ status: string }>(
      'select status from mail_log where id = $1',
      [mailId],
    );
    return rows[0]!.status === 'sent' ? true : undefined;
  }, 30_000);
  const signed = ourMessageId(t.config.JWT_SECRET, t.config.APP_MAIL_DOMAIN, mailId);
  const away = await postInbound(
    t,
    `From: Quirinus Zebedee <${CUSTOMER.email}>\nTo: no-reply@ed-card.test\nIn-Reply-To: ${signed}\nSubject: Out of office: Quirinus Zebedee\nAuto-Submitted: auto-replied\nMessage-ID: <qz.away.${id}@example.com>\n\nQuirinus is away from Snorkelwing.\n`,
  );
  expect(away.json().data).toEqual({ orderId: id, disposition: 'auto-reply' });
  const bounce = await postInbound(
    t,
    `From: MAILER-DAEMON@mx.example.net\nTo: no-reply@ed-card.test\nSubject: Undelivered\nMessage-ID: <qz.dsn.${id}@mx.example.net>\nMIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary="R"\n\n--R\nContent-Type: text/plain\n\nThe mail to ${CUSTOMER.email} failed.\n--R\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.net\n\nAction: failed\nFinal-Recipient: rfc822; ${CUSTOMER.email}\nDiagnostic-Code: smtp; 550 5.1.1 <${CUSTOMER.email}> Quirinus unknown\nStatus: 5.1.1\n\n--R\nContent-Type: text/rfc822-headers\n\nTo: ${CUSTOMER.email}\nMessage-ID: ${signed}\n\n--R--\n`,
  );
  expect(bounce.json().data).toEqual({ orderId: id, disposition: 'bounce' });
  const stray = await postInbound(
    t,
    `From: Travel Agent <agent.qz@travel.example>\nTo: support@ed-card.test\nSubject: About Quirinus Zebedee\nMessage-ID: <qz.agent.${id}@travel.example>\n\nMy client Quirinus Zebedee (XQ7734921) asks about Snorkelwing.\n`,
  );
  expect(stray.json().data.disposition).toBe('unmatched');
  const { rows: unmatched } = await t.database.sql.query<{ id: number }>(
    `select id from inbound_messages where message_id = $1`,
    [`<qz.agent.${id}@travel.example>`],
  );
  const attached = await t.as('Admin', {
    method: 'POST',
    url: `/api/admin/inbound/${unmatched[0]!.id}/attach`,
    payload: { orderId: id },
  });
  expect(attached.statusCode, attached.body).toBe(200);
  await t.database.sql.query(
    `insert into payment_disputes (provider, dispute_id, order_id, charge_id, payment_intent_id, amount,
       currency, reason, status, closed_at)
     values ('stripe', $2, $1, 'ch_QZ5566778899', 'pi_QZ4455667788', 4900, 'usd', 'fraudulent', 'won', now())`,
    [id, `dp_qz_${id}`],
  );
  const { rows: files } = await t.database.sql.query<{ id: number }>(
    `select a.id from inbound_attachments a join inbound_messages m on m.id = a.inbound_id
      where m.order_id = $1 order by a.id`,
    [id],
  );
  expect(files).toHaveLength(2);
  const file = await t.as('Admin', {
    method: 'GET',
    url: `/api/admin/orders/${id}/conversation/attachments/${files[0]!.id}`,
  });
  expect(file.statusCode).toBe(200);
  return files.map((f) => Number(f.id));
}

function leftovers(text: string, values: string[]): string[] {
  const lower = text.toLowerCase();
  return values.filter((v) => lower.includes(v.toLowerCase()));
}

describe('the erasure of an order leaves none of its personal data', () => {
  it('in the database, the data folder, the log and the Defence Pack; the audit log records only that it happened', async () => {
    const order = await createOrder(t.database, CUSTOMER);
    const id = order.orderId;
    const upload = async (name: string, mark: string) =>
      t.as('Admin', {
        method: 'POST',
        url: '/api/admin/upload-visa-document',
        ...multipart(
          { orderId: String(id), email: CUSTOMER.email, mailServiceProvider: 'AWS' },
          { name, type: 'application/pdf', content: await samplePdf(mark, 1) },
        ),
      });
    // A wrong upload, withdrawn with a reason naming the customer, then the right one (mailed).
    expect((await upload('Quirinus wrong file.pdf', 'WRONG')).statusCode).toBe(200);
    const { rows: wrong } = await t.database.sql.query<{ id: number }>(
      'select id from documents where order_id = $1 order by id desc limit 1',
      [id],
    );
    const withdrawn = await t.as('Admin', {
      method: 'DELETE',
      url: `/api/admin/order-document/${wrong[0]!.id}`,
      payload: { reason: 'Belongs to Mr Quirinus, the Glimmerwhisk photo, not this file' },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await upload(FILE_NAME, 'RIGHT')).statusCode).toBe(200);
    const remark = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: {
        orderId: id,
        remark:
          'Called Quirinus Zebedee on 5557771234 about passport XQ7734921; wrote to quirinus.zebedee@example.com',
      },
    });
    expect(remark.statusCode, remark.body).toBe(200);
    const transaction = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/save-transaction-details',
      payload: {
        orderId: id,
        transactionId: TRANSACTION,
        merchantName: 'Marchpane Payments',
        reason: 'intake left it out',
      },
    });
    expect(transaction.statusCode, transaction.body).toBe(200);
    // Staff search for the customer and export what they found (URL and audit log).
    for (const search of ['Zebedee', CUSTOMER.email]) {
      const exported = await t.as('Admin', {
        method: 'GET',
        url: `/api/admin/export-orders/allOrder?search=${encodeURIComponent(search)}`,
      });
      expect(exported.statusCode, exported.body).toBe(200);
      expect(exported.body).toContain('Zebedee');
    }
    // The customer downloads the card from an IPv4 address.
    const customerToken = await signCustomerToken(t.config.JWT_SECRET, id);
    const { rows: current } = await t.database.sql.query<{ id: number }>(
      'select id from documents where order_id = $1 and withdrawn_at is null order by id desc limit 1',
      [id],
    );
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/front/download-passport-doc-pdf',
      payload: { orderId: id, file1: `${current[0]!.id}.pdf` },
      headers: { authorization: `Bearer ${customerToken}` },
      remoteAddress: IPV4,
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const file = await t.app.inject({
      method: 'GET',
      url: issued.json().data.url,
      remoteAddress: IPV4,
      headers: { 'user-agent': 'Mozilla/5.0 (Quirinus-Phone)' },
    });
    expect(file.statusCode).toBe(200);
    // The approval mails reach the outbox folder.
    await eventually(async () => {
      const { rows } = await t.database.sql.query<{ sent: number; open: number }>(
        `select count(*) filter (where status = 'sent')::int as sent,
                count(*) filter (where status in ('queued', 'sending', 'retrying'))::int as open
           from mail_log where order_id = $1`,
        [id],
      );
      return rows[0]!.sent >= 1 && rows[0]!.open === 0 ? true : undefined;
    }, 30_000);
    expect(leftovers(await dataFolderText(outboxDir(t.config.DATA_DIR)), ['quirinus.zebedee'])).toEqual([
      'quirinus.zebedee',
    ]);
    const conversationFiles = await conversation(id, customerToken);

    const before = await databaseDump();
    expect(leftovers(before, ERASED_VALUES)).toEqual(ERASED_VALUES);
    // The raw source of each message that came by mail (the answer, the out-of-office, the bounce and
    // the attached stray mail) is kept until the erasure.
    const rawMessages = async () => {
      const { rows } = await t.database.sql.query<{ n: number }>(
        `select count(*)::int as n from inbound_raw_messages r join inbound_messages m on m.id = r.inbound_id
          where m.order_id = $1`,
        [id],
      );
      return rows[0]!.n;
    };
    expect(await rawMessages()).toBe(4);

    const erased = await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${id}/erase`,
      payload: { reason: 'Quirinus Zebedee asked by e-mail (quirinus.zebedee@example.com)' },
    });
    expect(erased.statusCode, erased.body).toBe(200);

    expect(leftovers(await databaseDump(), ERASED_VALUES)).toEqual([]);
    expect(await rawMessages()).toBe(0);
    // The conversation shows when and how, none of the words; its files are gone (rows and disk).
    const after = await t.as('Admin', { method: 'GET', url: `/api/admin/orders/${id}/conversation` });
    expect(after.statusCode).toBe(200);
    expect(leftovers(after.body, ERASED_VALUES)).toEqual([]);
    expect(after.json().data.items.filter((i: { direction: string }) => i.direction === 'in')).toHaveLength(
      5,
    );
    for (const fileId of conversationFiles) {
      const file = await t.as('Admin', {
        method: 'GET',
        url: `/api/admin/orders/${id}/conversation/attachments/${fileId}`,
      });
      expect(file.statusCode).toBe(404);
    }
    // The detail answer keeps no merchant name.
    const detail = await t.as('Admin', { method: 'GET', url: `/api/admin/get-orders-details/${id}` });
    expect(detail.json().data.merchant_name ?? null).toBeNull();
    // The withdrawal's reason in the audit trail is gone as a whole, not only the customer's name.
    const { rows: withdrawals } = await t.database.sql.query<{ to_value: { reason: string } }>(
      `select to_value from audit_log where action = 'document.withdraw' and target like $1`,
      [`order ${id},%`],
    );
    expect(withdrawals.map((w) => w.to_value.reason)).toEqual(['[erased]']);
    expect(leftovers(await dataFolderText(t.config.DATA_DIR), ERASED_VALUES)).toEqual([]);
    // The request log keeps client addresses for security; names, e-mails and search terms never.
    expect(
      leftovers(
        lines.join(''),
        ERASED_VALUES.filter((v) => v !== IPV4),
      ),
    ).toEqual([]);
    expect(lines.join('')).toContain('/api/admin/export-orders/allOrder?search=[REDACTED]');

    // The download keeps the network of its IPv4 address only.
    const { rows: downloads } = await t.database.sql.query<{ ip: string; user_agent: string | null }>(
      'select ip, user_agent from download_log where order_id = $1',
      [id],
    );
    expect(downloads).toEqual([{ ip: '203.0.113.0', user_agent: null }]);
    // The audit log says that it was erased and why, not what.
    const { rows: audit } = await t.database.sql.query<{ to_value: { reason: string } }>(
      `select to_value from audit_log where action = 'order.erase' and target = $1`,
      [`order:${id}`],
    );
    expect(audit[0]!.to_value.reason).toBe(`[erased] asked by e-mail (erased-${id}@erased.invalid)`);
    const { rows: exports } = await t.database.sql.query<{ detail: string }>(
      `select to_value->>'detail' as detail from audit_log where action = 'export.csv' order by id desc limit 2`,
    );
    for (const e of exports)
      expect(JSON.parse(e.detail)).toMatchObject({ folder: 'allOrder', searched: true });

    // Both Defence Packs print none of it.
    for (const defencePackType of [1, 2]) {
      const pack = await t.as('Admin', {
        method: 'POST',
        url: '/api/admin/get-defence-pack-pdf',
        payload: { orderId: id, defencePackType },
      });
      expect(pack.statusCode).toBe(200);
      const text = (await pdfText(pack.rawPayload)).text.replace(/\s+/g, ' ');
      expect(leftovers(text, ERASED_VALUES)).toEqual([]);
      expect(text).toContain('203.0.113.0');
    }
  }, 90_000);

  it('a short name is erased as a whole word: the history keeps its statuses', async () => {
    const order = await createOrder(t.database, {
      first_name: 'Ed',
      last_name: 'Ted',
      process_status: 'New',
    });
    const moved = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/assign-order-status',
      payload: { orderId: [order.orderId], assignto: 'me' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const { rows: before } = await t.database.sql.query(
      `select action, from_value, to_value from order_events where order_id = $1 order by id`,
      [order.orderId],
    );
    const erased = await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/erase`,
      payload: { reason: 'Ed asked; Completed by Ed Ted' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const { rows: after } = await t.database.sql.query<{ to_value: string }>(
      `select action, from_value, to_value from order_events where order_id = $1 order by id`,
      [order.orderId],
    );
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)!.to_value).toMatch(/Reason: \[erased\] asked; Completed by \[erased\]$/);
  });

  it('an erased order answers tracking exactly like an unknown one, whatever address is given', async () => {
    const order = await createOrder(t.database, { first_name: 'Tracy' });
    const id = order.orderId;
    const track = (orderId: number, email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/front/track-order',
        payload: { orderId: String(orderId), email },
        remoteAddress: '198.51.100.9',
      });
    expect((await track(id, order.email)).statusCode).toBe(200);
    const oldToken = await signCustomerToken(t.config.JWT_SECRET, id);
    expect(
      (
        await t.as('Admin', {
          method: 'POST',
          url: `/api/admin/orders/${id}/erase`,
          payload: { reason: 'Customer request' },
        })
      ).statusCode,
    ).toBe(200);
    const unknown = await track(999_999_901, `erased-999999901@erased.invalid`);
    for (const email of [`erased-${id}@erased.invalid`, order.email]) {
      const res = await track(id, email);
      expect(res.statusCode).toBe(unknown.statusCode);
      expect(res.json()).toEqual(unknown.json());
    }
    expect(unknown.statusCode).toBe(404);
    // A token issued before the erasure reads nothing and changes nothing (not even the language).
    const history = await t.app.inject({
      method: 'POST',
      url: '/api/front/get-download-history',
      headers: { authorization: `Bearer ${oldToken}` },
      payload: { orderId: id, lang: 'es', languageChosen: true },
    });
    expect(history.statusCode).toBe(401);
    const { rows } = await t.database.sql.query<{ language: string | null }>(
      'select language from orders where order_id = $1',
      [id],
    );
    expect(rows[0]!.language).not.toBe('es');
  });

  it('the migration removes the search terms that older exports wrote into the audit log', async () => {
    const detail = (search: string) => JSON.stringify({ folder: 'allOrder', search, sort: 'due' });
    const { rows: inserted } = await t.database.sql.query<{ id: number }>(
      `insert into audit_log (action, target, to_value) values
         ('export.csv', 'screen:orders', $1::jsonb), ('export.csv', 'screen:orders', $2::jsonb),
         ('export.csv', 'screen:orders', $3::jsonb)
       returning id`,
      [
        JSON.stringify({ rows: 1, detail: detail('Quirinus "Q" Zebedee') }),
        JSON.stringify({ rows: 1, detail: detail('cut off at 500 characters').slice(0, 50) }),
        JSON.stringify({ rows: 2, detail: JSON.stringify({ folder: 'newOrder' }) }),
      ],
    );
    const migration = await readFile(
      fileURLToPath(new URL('../../../drizzle/0039_audit_without_search_terms.sql', import.meta.url)),
      'utf8',
    );
    await t.database.sql.query(migration);
    const { rows } = await t.database.sql.query<{ detail: string }>(
      `select to_value->>'detail' as detail from audit_log where id = any($1::bigint[]) order by id`,
      [inserted.map((r) => r.id)],
    );
    expect(rows.map((r) => r.detail)).toEqual([
      '{"folder":"allOrder","searched":true,"sort":"due"}',
      '{"folder":"allOrder","searched":true',
      '{"folder":"newOrder"}',
    ]);
  });
});
