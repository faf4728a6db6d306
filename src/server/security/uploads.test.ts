import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { multipart } from '../test/smtp.js';

/** Issue 9 "Uploads": disguised and polyglot files never come back as something a browser would run. */
let t: TestApp;
let orderId: number;
beforeAll(async () => {
  t = await createTestApp();
  orderId = (await createOrder(t.database)).orderId;
});
afterAll(() => t.close());

const upload = (name: string, type: string, content: Buffer) =>
  t.as('Team', {
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    ...multipart(
      { orderId: String(orderId), email: 'card@example.com', mailServiceProvider: 'AWS' },
      { name, type, content },
    ),
  });

describe('disguised and polyglot uploads', () => {
  it('refuses HTML and SVG dressed up as a PDF or an image (415)', async () => {
    const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    for (const [name, type, content] of [
      ['card.pdf', 'application/pdf', html],
      ['card.png', 'image/png', svg],
      ['card.jpg', 'image/jpeg', Buffer.from('GIF89a\x01\x00\x01\x00')],
    ] as const) {
      const res = await upload(name, type, content);
      expect(res.statusCode, name).toBe(415);
    }
    const { rows } = await t.database.sql.query('select id from documents where order_id = $1', [orderId]);
    expect(rows).toEqual([]);
  });

  it('serves a PDF/HTML polyglot only as a PDF attachment with nosniff and a safe name', async () => {
    const polyglot = Buffer.from(
      '%PDF-1.4\n%<html><body><script>alert(1)</script></body></html>\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n',
    );
    const res = await upload('..\\..\\evil\r\n.html.pdf', 'text/html', polyglot);
    expect(res.statusCode).toBe(200);
    const { rows } = await t.database.sql.query<{ id: number; mime_type: string; original_name: string }>(
      'select id, mime_type, original_name from documents where order_id = $1',
      [orderId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.mime_type).toBe('application/pdf');
    const file = await t.as('Team', { method: 'GET', url: `/api/admin/order-document/${rows[0]!.id}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const disposition = String(file.headers['content-disposition']);
    expect(disposition.startsWith('attachment;')).toBe(true);
    expect(disposition).not.toMatch(/[\r\n\\/]|\.\./);
    expect(file.rawPayload.equals(polyglot)).toBe(true);
  });
});
