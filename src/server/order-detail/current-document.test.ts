import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { multipart, pdfText } from '../test/smtp.js';

/**
 * One current document per order: the newest upload that has not been withdrawn. Staff download, the
 * detail answer, the customer's download, Sent Mail and the Defence Packs all use it; a withdrawn
 * document is kept for the record and never served again.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function upload(orderId: number, marker: string): Promise<number> {
  // The card goes to the order's own address (decision 297).
  const { rows } = await t.database.sql.query<{ email: string }>(
    'select email from orders where order_id = $1',
    [orderId],
  );
  const res = await t.as('Team', {
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    ...multipart(
      { orderId: String(orderId), email: rows[0]!.email, mailServiceProvider: 'AWS' },
      { name: `${marker}.pdf`, type: 'application/pdf', content: await samplePdf(marker, 1) },
    ),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.documentId as number;
}

const detail = async (orderId: number) =>
  (await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${orderId}` })).json().data;

const withdraw = (role: DemoRole, documentId: number | string, payload: unknown) =>
  t.as(role, {
    method: 'DELETE',
    url: `/api/admin/order-document/${documentId}`,
    payload: payload as object,
  });

async function customerDownload(orderId: number, email: string, documentId: number) {
  const tracked = await t.app.inject({
    method: 'POST',
    url: '/api/front/track-order',
    payload: { orderId: String(orderId), email },
  });
  expect(tracked.statusCode).toBe(200);
  const token = tracked.json().data.token as string;
  return t.app.inject({
    method: 'POST',
    url: '/api/front/download-passport-doc-pdf',
    headers: { authorization: token },
    payload: { orderId, file1: `${documentId}.pdf` },
  });
}

describe('the current document', () => {
  it('is the newest upload everywhere; the superseded one is not served to the customer', async () => {
    const order = await createOrder(t.database, { email: 'traveller@example.com' });
    const first = await upload(order.orderId, 'FIRST-CARD');
    const second = await upload(order.orderId, 'SECOND-CARD');
    const d = await detail(order.orderId);
    expect(d.uploadDoc.map((u: { id: number; current: boolean }) => [u.id, u.current])).toEqual([
      [first, false],
      [second, true],
    ]);
    expect((await customerDownload(order.orderId, 'traveller@example.com', first)).statusCode).toBe(404);
    expect((await customerDownload(order.orderId, 'traveller@example.com', second)).statusCode).toBe(200);
    // Staff keep access to every upload that was not withdrawn.
    const staffFirst = await t.as('Team', { method: 'GET', url: `/api/admin/order-document/${first}` });
    expect(staffFirst.statusCode).toBe(200);
  });

  it('Admin and Manager withdraw a wrong upload: kept for the record, never served or mailed again', async () => {
    const order = await createOrder(t.database, { email: 'withdraw@example.com' });
    const good = await upload(order.orderId, 'GOOD-CARD');
    const wrong = await upload(order.orderId, 'WRONG-CARD');

    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await withdraw(role, wrong, { reason: 'Wrong passenger' })).statusCode, role).toBe(403);
    }
    const res = await withdraw('Manager', wrong, { reason: 'Card of another passenger' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ id: wrong, order_id: order.orderId, current_document_id: good });

    const staffGet = await t.as('Admin', { method: 'GET', url: `/api/admin/order-document/${wrong}` });
    expect(staffGet.statusCode).toBe(404);
    expect((await customerDownload(order.orderId, 'withdraw@example.com', wrong)).statusCode).toBe(404);
    expect((await customerDownload(order.orderId, 'withdraw@example.com', good)).statusCode).toBe(200);

    const d = await detail(order.orderId);
    const listed = d.uploadDoc.find((u: { id: number }) => u.id === wrong);
    expect(listed).toMatchObject({ current: false, withdraw_reason: 'Card of another passenger' });
    expect(listed.withdrawn_at).toMatch(/^\d{4}-/);
    expect(d.events.map((e: { action: string }) => e.action)).toContain('withdraw');
    const audit = await t.database.sql.query<{ action: string }>(
      `select action from audit_log where action = 'document.withdraw' and target like $1`,
      [`order ${order.orderId},%`],
    );
    expect(audit.rows).toHaveLength(1);

    // Sent Mail (resend) attaches the current document, never the withdrawn one.
    const resend = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/resend-mail',
      payload: { orderId: order.orderId, email: 'withdraw@example.com', mailServiceProvider: 'AWS' },
    });
    expect(resend.statusCode, resend.body).toBe(200);
    expect(resend.json().data.documentId).toBe(good);

    // The Defence Pack embeds the current document.
    const pack = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/get-defence-pack-pdf',
      payload: { orderId: order.orderId, defencePackType: 1 },
    });
    expect(pack.statusCode, pack.body.slice(0, 200)).toBe(200);
    const { text } = await pdfText(pack.rawPayload);
    expect(text).toContain('File GOOD-CARD.pdf');
    expect(text).not.toContain('File WRONG-CARD.pdf');

    // A second withdrawal is a conflict; withdrawing the last one leaves no current document.
    expect((await withdraw('Admin', wrong, { reason: 'again please' })).statusCode).toBe(409);
    const last = await withdraw('Admin', good, { reason: 'Government cancelled the card' });
    expect(last.json().data.current_document_id).toBeNull();
    const noDoc = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/resend-mail',
      payload: { orderId: order.orderId, email: 'withdraw@example.com', mailServiceProvider: 'AWS' },
    });
    expect(noDoc.statusCode).toBe(409);
  });

  it('refuses hostile withdrawals with a clear 4xx and changes nothing', async () => {
    const order = await createOrder(t.database);
    const doc = await upload(order.orderId, 'KEEP-CARD');
    const hostile: [string | number, unknown][] = [
      [doc, { reason: 'bad\u0000reason' }],
      [doc, { reason: 'x'.repeat(501) }],
      [doc, { reason: '  ' }],
      [doc, {}],
      [doc, { reason: 'fine reason', orderId: 1 }],
      ['abc', { reason: 'fine reason' }],
      [Number.MAX_SAFE_INTEGER + 10, { reason: 'fine reason' }],
    ];
    for (const [id, body] of hostile) {
      const res = await withdraw('Admin', id, body);
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toMatch(/\.ts:\d+/);
    }
    expect((await withdraw('Admin', 999_999_999, { reason: 'fine reason' })).statusCode).toBe(404);
    expect((await detail(order.orderId)).uploadDoc[0]).toMatchObject({ id: doc, current: true });
  });
});
