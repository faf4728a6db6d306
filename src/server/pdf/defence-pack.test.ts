import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defencePackDetails } from '../../shared/contracts/defence-pack.js';
import { storeBuffer } from '../documents/storage.js';
import { samplePdf, TINY_PNG } from '../test/fixtures.js';
import { pdfText } from '../test/smtp.js';
import { createOrder } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An order with a stored document, two sent mails with message ids, two downloads and a remark. */
async function caseFile(document: { bytes: Buffer; mime: string; ext: string; name: string }) {
  const order = await createOrder(t.database, {
    first_name: 'Zoë',
    last_name: 'Ñúñez 王',
    transaction_id: 'pi_DEF123',
    merchant_name: 'Stripe',
  });
  const id = order.orderId;
  const stored = await storeBuffer(t.config.DATA_DIR, document.bytes, document.ext);
  const sql = t.database.sql;
  const { rows } = await sql.query<{ id: number }>(
    `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256, mail_service_provider, created_at)
     values ($1, $2, $3, $4, $5, $6, 'AWS', now() - interval '3 days') returning id`,
    [id, stored.key, document.name, document.mime, stored.size, stored.sha256],
  );
  const docId = rows[0]!.id;
  await sql.query(
    `insert into mail_log (order_id, kind, to_email, provider, document_id, status, attempts, message_id, created_at, updated_at) values
     ($1, 'approval', $2, 'AWS', $3, 'sent', 2, '<first-${id}@mail.test>', now() - interval '3 days', now() - interval '3 days'),
     ($1, 'resend', $2, 'Sendgrid', $3, 'sent', 1, '<second-${id}@mail.test>', now() - interval '2 days', now() - interval '2 days'),
     ($1, 'invoice', $2, 'AWS', null, 'sent', 1, '<invoice-${id}@mail.test>', now() - interval '1 day', now() - interval '1 day')`,
    [id, order.email, docId],
  );
  await sql.query(
    `insert into download_log (order_id, document_id, ip, browser, os, device_type, location, created_at) values
     ($1, $2, '203.0.113.44', 'Chrome-126', 'Windows-10', 'desktop', 'Oranjestad, AW', now() - interval '40 hours'),
     ($1, $2, '198.51.100.23', 'Safari-17', 'iOS-17', 'mobile', 'Miami, US', now() - interval '20 hours')`,
    [id, docId],
  );
  await t.as('Team', {
    method: 'POST',
    url: '/api/admin/add-new-remark',
    payload: { orderId: id, remark: 'Customer confirmed receipt by phone', telephone: 'Y' },
  });
  await t.as('Team', {
    method: 'PUT',
    url: '/api/admin/move-order-status',
    payload: { orderId: id, updatingStatus: 'Completed' },
  });
  return id;
}

const pack = (orderId: number, type: 1 | 2) =>
  t.as('Night Staff', {
    method: 'POST',
    url: '/api/admin/get-defence-pack-pdf',
    payload: { orderId, defencePackType: type },
  });

describe('Defence Packs', () => {
  it('Pack 1: proof of delivery with the download IPs, the message ids, and the document pages embedded', async () => {
    const marker = 'APPROVED-DOC-MARKER';
    const id = await caseFile({
      bytes: await samplePdf(marker, 2),
      mime: 'application/pdf',
      ext: 'pdf',
      name: 'card.pdf',
    });
    const res = await pack(id, 1);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const { text, pages } = await pdfText(res.rawPayload);
    for (const expected of [
      'Defence Pack 1',
      String(id),
      'pi_DEF123',
      '203.0.113.44',
      '198.51.100.23',
      `<first-${id}@mail.test>`,
      `<second-${id}@mail.test>`,
      'Zoë Ñúñez ?',
      `${marker} page 1`,
      `${marker} page 2`,
    ]) {
      expect(text).toContain(expected);
    }
    // Pack 1 is about the document: no invoice mail, no remarks, no timeline.
    expect(text).not.toContain(`<invoice-${id}@mail.test>`);
    expect(text).not.toContain('Customer confirmed receipt');
    // Sections in time order: order, transaction, document, mails (oldest first), downloads.
    const at = (s: string) => text.indexOf(s);
    expect(at('Order and customer')).toBeLessThan(at('Transaction'));
    expect(at('Transaction')).toBeLessThan(at('Approved document'));
    expect(at(`<first-${id}@mail.test>`)).toBeLessThan(at(`<second-${id}@mail.test>`));
    expect(at(`<second-${id}@mail.test>`)).toBeLessThan(at('203.0.113.44'));
    expect(at('203.0.113.44')).toBeLessThan(at('198.51.100.23'));
    expect(at('198.51.100.23')).toBeLessThan(at(`${marker} page 1`));
    const summaryPages = pages - 2;
    expect(summaryPages).toBeGreaterThanOrEqual(1);
    const { PDFDocument } = await import('pdf-lib');
    const parsed = await PDFDocument.load(res.rawPayload);
    for (const page of parsed.getPages()) {
      expect(Math.round(page.getWidth())).toBe(595);
    }
  });

  it('Pack 2: the full case file adds the application, every mail with its content and the status history in words', async () => {
    const id = await caseFile({
      bytes: await samplePdf('P2-DOC', 1),
      mime: 'application/pdf',
      ext: 'pdf',
      name: 'card.pdf',
    });
    const res = await pack(id, 2);
    expect(res.statusCode).toBe(200);
    const { text } = await pdfText(res.rawPayload);
    for (const expected of [
      'Defence Pack 2',
      'Application as submitted',
      'Hyatt Regency Aruba',
      `<invoice-${id}@mail.test>`,
      `Your Aruba ED Card has been approved (order ${id})`,
      'Status history',
      'Order placed',
      'Moved from New to Completed',
      'P2-DOC page 1',
    ]) {
      expect(text).toContain(expected);
    }
    // Customer-facing facts only: no internal remark, no raw event or staff id, no staff name.
    for (const internal of [
      'Customer confirmed receipt',
      'Remark history',
      'remark:',
      'takeover',
      ' -> ',
      'Demo Team',
    ]) {
      expect(text).not.toContain(internal);
    }
  });

  it('carries what was submitted to the government (when, by whom, the reference, the packet) and the card release', async () => {
    const id = await caseFile({
      bytes: await samplePdf('SUB-DOC', 1),
      mime: 'application/pdf',
      ext: 'pdf',
      name: 'card.pdf',
    });
    const sql = t.database.sql;
    const { rows: staff } = await sql.query<{ id: number; name: string }>(
      "select id, name from staff_users where role = 'Manager' order by id limit 1",
    );
    await sql.query(
      `update orders set government_reference = 'GOV-2026-7788', submitted_at = '2026-11-20T14:05:00Z',
              submitted_by = $2, first_name = 'Zoë', last_name = 'Łukasz-Straße' where order_id = $1`,
      [id, staff[0]!.id],
    );
    await sql.query(
      `insert into card_checks (document_id, order_id, result, checked_at, released_at, released_by, release_reason)
       select id, order_id, 'mismatch', now(), '2026-11-21T09:00:00Z', $2, 'Government typo in the flight, confirmed'
       from documents where order_id = $1`,
      [id, staff[0]!.id],
    );
    for (const type of [1, 2] as const) {
      const res = await pack(id, type);
      expect(res.statusCode).toBe(200);
      const { text } = await pdfText(res.rawPayload);
      for (const expected of [
        'Submitted to the government',
        '2026-11-20 14:05:00 UTC',
        'our staff (Manager)',
        'GOV-2026-7788',
        'LUKASZ-STRASSE',
        'ZOE',
        'Government typo in the flight, confirmed',
      ]) {
        expect(text.replace(/\s+/g, ' '), `pack ${type}`).toContain(expected);
      }
      expect(text, 'no staff name in a pack').not.toContain(staff[0]!.name);
    }
    const details = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/defence-pack-details',
      payload: { orderId: id, defencePackType: 1 },
    });
    expect(details.statusCode).toBe(200);
    const data = defencePackDetails.parse(details.json().data);
    expect(data.submission).toMatchObject({
      government_reference: 'GOV-2026-7788',
      submitted_by: staff[0]!.name,
    });
    expect(data.cardRelease).toMatchObject({ reason: 'Government typo in the flight, confirmed' });
  });

  it('embeds an image document as a page', async () => {
    const id = await caseFile({ bytes: TINY_PNG, mime: 'image/png', ext: 'png', name: 'card.png' });
    const res = await pack(id, 1);
    expect(res.statusCode).toBe(200);
    const { text } = await pdfText(res.rawPayload);
    expect(text).toContain('The document image follows');
  });

  it('defence-pack-details answers the same evidence as JSON', async () => {
    const id = await caseFile({
      bytes: await samplePdf('JSON', 1),
      mime: 'application/pdf',
      ext: 'pdf',
      name: 'c.pdf',
    });
    const one = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/defence-pack-details',
      payload: { orderId: id, defencePackType: 1 },
    });
    expect(one.statusCode).toBe(200);
    const data = defencePackDetails.parse(one.json().data);
    expect(data.downloads.map((d) => d.ip)).toEqual(['203.0.113.44', '198.51.100.23']);
    expect(data.mails.map((m) => m.message_id)).toEqual([
      `<first-${id}@mail.test>`,
      `<second-${id}@mail.test>`,
    ]);
    expect(data.document?.file1).toBe('c.pdf');
    expect(data.remarks).toEqual([]);
    const two = defencePackDetails.parse(
      (
        await t.as('Team', {
          method: 'POST',
          url: '/api/admin/defence-pack-details',
          payload: { orderId: id },
        })
      ).json().data,
    );
    expect(two.defencePackType).toBe(2);
    // The two approval notices, the remark's mail, and the status notification of the move to Completed.
    expect(two.mails).toHaveLength(4);
    expect(two.mails.filter((m) => m.kind === 'notification')).toHaveLength(1);
    expect(two.remarks).toEqual([]);
    expect(two.events).toEqual([]);
    expect(two.statusHistory?.map((h) => h.text)).toContain('Moved from New to Completed');
    expect(two.mailContents?.map((c) => c.subject)).toContain(
      `Your Aruba ED Card has been approved (order ${id})`,
    );
  });

  it('an order without a document still gets a readable pack; bad input is a 4xx', async () => {
    const order = await createOrder(t.database);
    const res = await pack(order.orderId, 1);
    expect(res.statusCode).toBe(200);
    expect((await pdfText(res.rawPayload)).text).toContain('No document has been uploaded');
    const badType = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/get-defence-pack-pdf',
      payload: { orderId: order.orderId, defencePackType: 3 },
    });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().message).toContain('defencePackType');
    expect((await pack(999999996, 1)).statusCode).toBe(404);
  });
});
