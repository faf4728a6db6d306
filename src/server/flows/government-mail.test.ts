import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { INBOUND_TOKEN, postInbound } from '../test/inbound.js';

const AUTHSERV = 'mx.edcard.test';
let t: TestApp;
let uniq = 0;
beforeAll(async () => {
  t = await createTestApp({
    INBOUND_TOKEN,
    GOV_SENDER_DOMAINS: 'gov.aw, immigration.aw',
    INBOUND_AUTHSERV_ID: AUTHSERV,
  });
});
afterAll(() => t.close());

interface MailOptions {
  orderId: number;
  from?: string;
  auth?: string[];
  pdf?: Buffer | null;
  messageId?: string;
  text?: string;
  header?: 'To' | 'Cc' | 'Delivered-To' | 'X-Original-To';
}

/** A government mail as our receiving server hands it on: real MIME, parsed by the real parser. */
function governmentMail(o: MailOptions): Buffer {
  const boundary = `b${++uniq}`;
  const to = `${o.orderId}@${t.config.APP_MAIL_DOMAIN}`;
  const header = o.header ?? 'To';
  const lines = [
    ...(o.auth ?? [`${AUTHSERV}; dkim=pass header.d=gov.aw header.s=s1; dmarc=pass header.from=gov.aw`]).map(
      (a) => `Authentication-Results: ${a}`,
    ),
    `From: Immigration <${o.from ?? 'edcard@gov.aw'}>`,
    header === 'To' ? `To: ${to}` : 'To: someone@example.com',
    ...(header !== 'To' ? [`${header}: ${to}`] : []),
    `Subject: ED card application ${o.orderId}`,
    `Message-ID: <${o.messageId ?? `gov-${Date.now()}-${uniq}@gov.aw`}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    o.text ?? 'Your application has been approved.',
  ];
  if (o.pdf) {
    lines.push(
      `--${boundary}`,
      'Content-Type: application/pdf; name="edcard.pdf"',
      'Content-Disposition: attachment; filename="edcard.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      o.pdf.toString('base64').replace(/(.{76})/g, '$1\n'),
    );
  }
  lines.push(`--${boundary}--`, '');
  return Buffer.from(lines.join('\r\n'));
}

/** A card naming another passport number than the order's (the card check finds a mismatch). */
async function wrongCard(orderId: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setKeywords([`wrong-${orderId}-${Math.random()}`]);
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('ARUBA EMBARKATION AND DISEMBARKATION CARD - APPROVED', { x: 50, y: 780, size: 12, font });
  page.drawText('Passport No.: Z9999999   Nationality: USA', { x: 50, y: 758, size: 12, font });
  return Buffer.from(await pdf.save());
}

const setAutoSend = async (autoSendCard: boolean) =>
  expect(
    (
      await t.as('Admin', {
        method: 'PUT',
        url: '/api/admin/submission-policy',
        payload: { windowHours: null, jobMinutes: 15, autoSendCard },
      })
    ).statusCode,
  ).toBe(200);

const state = async (orderId: number) => {
  const { rows } = await t.database.sql.query<{
    process_status: string;
    check_flags: string[];
    docs: number;
    approvals: number;
    remarks: string[];
  }>(
    `select o.process_status, o.check_flags,
            (select count(*)::int from documents d where d.order_id = o.order_id) as docs,
            (select count(*)::int from mail_log m where m.order_id = o.order_id and m.kind = 'approval') as approvals,
            coalesce((select array_agg(r.remark) from order_remarks r where r.order_id = o.order_id), '{}') as remarks
     from orders o where o.order_id = $1`,
    [orderId],
  );
  return rows[0]!;
};
const inbound = async (messageId: string) =>
  (
    await t.database.sql.query<{
      disposition: string;
      order_id: string | null;
      unmatched_reason: string | null;
      matched_by: string | null;
    }>(
      'select disposition, order_id, unmatched_reason, matched_by from inbound_messages where message_id = $1',
      [`<${messageId}>`],
    )
  ).rows[0];

describe('government mail', () => {
  it('a PDF from the authenticated government becomes the card; autoSendCard off: it waits, flagged card_arrived_unsent', async () => {
    await setAutoSend(false);
    const o = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    const pdf = await samplePdf(`CARD-${o.orderId}`);
    const res = await postInbound(
      t,
      governmentMail({ orderId: o.orderId, pdf, messageId: `card-${o.orderId}@gov.aw` }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const s = await state(o.orderId);
    expect(s).toMatchObject({ process_status: 'AwaitingGovt', docs: 1, approvals: 0 });
    expect(s.check_flags).toContain('card_arrived_unsent');
    expect(await inbound(`card-${o.orderId}@gov.aw`)).toMatchObject({
      disposition: 'attached',
      matched_by: 'government',
    });
    // The same mail again, and the same PDF in another mail: applied once.
    await postInbound(t, governmentMail({ orderId: o.orderId, pdf, messageId: `card-${o.orderId}@gov.aw` }));
    await postInbound(t, governmentMail({ orderId: o.orderId, pdf, header: 'Delivered-To' }));
    expect((await state(o.orderId)).docs).toBe(1);
  });

  it('autoSendCard on: the approval mail goes to the customer and the order is Completed', async () => {
    await setAutoSend(true);
    const o = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    const res = await postInbound(
      t,
      governmentMail({
        orderId: o.orderId,
        pdf: await samplePdf(`AUTO-${o.orderId}`),
        header: 'X-Original-To',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await state(o.orderId)).toMatchObject({ process_status: 'Completed', docs: 1, approvals: 1 });
    await setAutoSend(false);
  });

  it('autoSendCard on with a card that does not match the order: stored, not sent, card_arrived_unsent and card_mismatch', async () => {
    await setAutoSend(true);
    const o = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    const res = await postInbound(t, governmentMail({ orderId: o.orderId, pdf: await wrongCard(o.orderId) }));
    expect(res.statusCode, res.body).toBe(200);
    const s = await state(o.orderId);
    expect(s).toMatchObject({ process_status: 'AwaitingGovt', docs: 1, approvals: 0 });
    expect(s.check_flags).toEqual(expect.arrayContaining(['card_arrived_unsent', 'card_mismatch']));
    const check = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${o.orderId}/card-check` });
    expect(check.json().data.cardCheck).toMatchObject({ result: 'mismatch', blocked: true });
    await setAutoSend(false);
  });

  it('without a PDF: an Awaiting Govt order moves to Contact Customer with a remark quoting it', async () => {
    const o = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    await postInbound(
      t,
      governmentMail({
        orderId: o.orderId,
        header: 'Cc',
        text: 'The passport photo is unreadable.\nPlease resend.',
      }),
    );
    const s = await state(o.orderId);
    expect(s.process_status).toBe('Contact Customer');
    expect(s.remarks.join('\n')).toContain(
      'Government wrote: The passport photo is unreadable. Please resend.',
    );
    const conversation = await t.as('Team', {
      method: 'GET',
      url: `/api/admin/orders/${o.orderId}/conversation`,
    });
    expect(conversation.statusCode, conversation.body).toBe(200);
    const incoming = conversation
      .json()
      .data.items.filter((i: { direction: string }) => i.direction === 'in');
    expect(incoming).toHaveLength(1);
    expect(incoming[0]).toMatchObject({ government: true, senderVerified: true });
  });

  it.each([
    ['unauthenticated', { auth: [] }],
    ['authenticated by another server', { auth: ['mx.attacker.example; dkim=pass header.d=gov.aw'] }],
    [
      'a sender domain that is not the government',
      { from: 'edcard@attacker.example', auth: [`${AUTHSERV}; dkim=pass header.d=attacker.example`] },
    ],
    [
      'a spoofed From (signed by another domain)',
      { auth: [`${AUTHSERV}; dkim=pass header.d=attacker.example`] },
    ],
  ])('%s: Unmatched Mail with the reason, nothing on the order', async (label, extra) => {
    const o = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    const messageId = `spoof-${o.orderId}-${label.length}@gov.aw`;
    const res = await postInbound(
      t,
      governmentMail({ orderId: o.orderId, pdf: await samplePdf(`X-${o.orderId}`), messageId, ...extra }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await inbound(messageId)).toMatchObject({
      disposition: 'unmatched',
      order_id: null,
      unmatched_reason: 'sender not authenticated as the government',
    });
    expect(await state(o.orderId)).toMatchObject({ process_status: 'AwaitingGovt', docs: 0, approvals: 0 });
    const list = await t.as('Admin', { method: 'GET', url: '/api/admin/inbound/unmatched' });
    expect(
      list.json().data.items.find((i: { subject: string }) => i.subject.includes(String(o.orderId))).reason,
    ).toBe('sender not authenticated as the government');
  });
});

describe('POST /api/admin/orders/{id}/send-arrived-card', () => {
  const versionOf = async (orderId: number) =>
    (
      await t.database.sql.query<{ version: number }>('select version from orders where order_id = $1', [
        orderId,
      ])
    ).rows[0]!.version;
  const send = (role: 'Admin' | 'Team' | 'Telecaller', orderId: number, payload: Record<string, unknown>) =>
    t.as(role, { method: 'POST', url: `/api/admin/orders/${orderId}/send-arrived-card`, payload });
  const arrived = async (pdf?: Buffer) => {
    await setAutoSend(false);
    const o = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    const res = await postInbound(
      t,
      governmentMail({ orderId: o.orderId, pdf: pdf ?? (await samplePdf(`ARRIVED-${o.orderId}`)) }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await state(o.orderId)).check_flags).toContain('card_arrived_unsent');
    return o;
  };

  it('one click mails the arrived card and completes the order; card_arrived_unsent clears; a second click is 409', async () => {
    const o = await arrived();
    const res = await send('Team', o.orderId, { expectedVersion: await versionOf(o.orderId) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'queued' });
    const s = await state(o.orderId);
    expect(s).toMatchObject({ process_status: 'Completed', approvals: 1 });
    expect(s.check_flags).not.toContain('card_arrived_unsent');
    const again = await send('Team', o.orderId, { expectedVersion: await versionOf(o.orderId) });
    expect(again.statusCode).toBe(409);
    expect((await state(o.orderId)).approvals).toBe(1);
  });

  it('a card its check blocks: 409 with the check, nothing sent, the order stays', async () => {
    const o = await arrived(await wrongCard(0));
    const res = await send('Admin', o.orderId, { expectedVersion: await versionOf(o.orderId) });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().data.cardCheck).toMatchObject({ blocked: true });
    const s = await state(o.orderId);
    expect(s).toMatchObject({ process_status: 'AwaitingGovt', approvals: 0 });
    expect(s.check_flags).toContain('card_arrived_unsent');
  });

  it('a hostile field, a stale version, an order someone else holds, an unknown order: 4xx, nothing changes', async () => {
    const o = await arrived();
    const version = await versionOf(o.orderId);
    for (const payload of [
      { expectedVersion: 'a\u0000b' },
      { expectedVersion: 1e308 },
      { expectedVersion: version, extra: 'x'.repeat(100_000) },
    ]) {
      const res = await send('Team', o.orderId, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    expect((await send('Team', o.orderId, { expectedVersion: version + 5 })).statusCode).toBe(409);
    const [admin] = (
      await t.database.sql.query<{ id: number }>(
        "select id from staff_users where role = 'Admin' order by id limit 1",
      )
    ).rows;
    await t.database.sql.query('update orders set assigned_to = $2 where order_id = $1', [
      o.orderId,
      admin!.id,
    ]);
    const held = await send('Telecaller', o.orderId, { expectedVersion: await versionOf(o.orderId) });
    expect(held.statusCode, held.body).toBe(409);
    expect(held.json().message).toContain('is working on this order');
    expect((await send('Team', 999_999_999, { expectedVersion: 1 })).statusCode).toBe(404);
    expect(await state(o.orderId)).toMatchObject({ process_status: 'AwaitingGovt', approvals: 0 });
  });
});
