import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '../../shared/constants.js';
import { bombPdf, bombPng, jpegHeader } from '../test/bombs.js';
import { samplePdf, TINY_PNG } from '../test/fixtures.js';
import { multipart } from '../test/smtp.js';
import { createOrder } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { documentsDir } from './storage.js';
import { sanitizeFileName } from './upload.js';

let t: TestApp;
let orderId: number;
beforeAll(async () => {
  t = await createTestApp();
  orderId = (await createOrder(t.database, { email: 'card@example.com' })).orderId;
});
afterAll(() => t.close());

const fields = (over: Record<string, string> = {}) => ({
  orderId: String(orderId),
  email: 'card@example.com',
  mailServiceProvider: 'AWS',
  ...over,
});

const post = (
  body: { payload: Buffer; headers: Record<string, string> },
  role: 'Team' | 'Telecaller' = 'Team',
) => t.as(role, { method: 'POST', url: '/api/admin/upload-visa-document', ...body });

async function state() {
  const { rows } = await t.database.sql.query<{ docs: number; mails: number; events: number }>(
    `select (select count(*)::int from documents where order_id = $1) docs,
            (select count(*)::int from mail_log where order_id = $1) mails,
            (select count(*)::int from order_events where order_id = $1) events`,
    [orderId],
  );
  let files: string[] = [];
  try {
    files = (await readdir(documentsDir(t.config.DATA_DIR))).filter((f) => !f.startsWith('.'));
  } catch {}
  let partial: string[] = [];
  try {
    partial = await readdir(`${documentsDir(t.config.DATA_DIR)}/.partial`);
  } catch {}
  return { ...rows[0]!, files: files.length, partial: partial.length };
}

describe('upload-visa-document rejections (nothing stored, nothing logged)', () => {
  it('refuses a file that is not PDF/PNG/JPEG/WebP by content, whatever its name says (415)', async () => {
    const before = await state();
    const res = await post(
      multipart(fields(), {
        name: 'card.pdf',
        type: 'application/pdf',
        content: Buffer.from('MZ\x90\x00 not a pdf at all, an exe'),
      }),
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      status: 0,
      message: 'Only PDF, PNG, JPEG or WebP files are accepted.',
    });
    const html = await post(
      multipart(fields(), { name: 'x.png', content: Buffer.from('<html><script>alert(1)</script></html>') }),
    );
    expect(html.statusCode).toBe(415);
    expect(await state()).toEqual(before);
  });

  it('refuses a file over 10 MB with 413 and leaves no partial file', async () => {
    const before = await state();
    const big = Buffer.concat([await samplePdf('BIG', 1), Buffer.alloc(MAX_UPLOAD_BYTES + 1024, 0x20)]);
    const res = await post(multipart(fields(), { name: 'big.pdf', type: 'application/pdf', content: big }));
    expect(res.statusCode).toBe(413);
    expect(res.json().status).toBe(0);
    expect(res.json().message).toContain('10 MB');
    expect(await state()).toEqual(before);
  });

  it('refuses an empty file (400) and a missing file with the product message', async () => {
    const before = await state();
    const empty = await post(
      multipart(fields(), { name: 'empty.pdf', type: 'application/pdf', content: Buffer.alloc(0) }),
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The file is empty.');
    const none = await post(multipart(fields()));
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('File is required');
    expect(await state()).toEqual(before);
  });

  it('validates the fields with the product messages and removes the stored file', async () => {
    const before = await state();
    const pdf = await samplePdf('FIELDS', 1);
    const noEmail = await post(multipart(fields({ email: '' }), { name: 'a.pdf', content: pdf }));
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().message).toBe('Please enter your email');
    const badProvider = await post(
      multipart(fields({ mailServiceProvider: 'Mailchimp' }), { name: 'a.pdf', content: pdf }),
    );
    expect(badProvider.statusCode).toBe(400);
    expect(badProvider.json().message).toContain('mailServiceProvider');
    const unknownOrder = await post(
      multipart(fields({ orderId: '999999997' }), { name: 'a.pdf', content: pdf }),
    );
    expect(unknownOrder.statusCode).toBe(404);
    expect(await state()).toEqual(before);
  });

  it('refuses a JSON body (415) and a stranger (401)', async () => {
    const json = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      payload: fields(),
    });
    expect(json.statusCode).toBe(415);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      ...multipart(fields(), { name: 'a.pdf', content: TINY_PNG }),
    });
    expect(anon.statusCode).toBe(401);
  });
});

describe('documents no approved card needs (422, nothing stored)', () => {
  it('refuses an image above 25 megapixels, read from its header, with the size in the message', async () => {
    const before = await state();
    const png = await post(multipart(fields(), { name: 'card.png', content: bombPng(8000, 8000) }));
    expect(png.statusCode).toBe(422);
    expect(png.json()).toEqual({
      status: 0,
      message:
        'The image is 8000 x 8000 pixels (64 megapixels). Images up to 25 megapixels are accepted: save it at a lower resolution.',
    });
    const jpeg = await post(multipart(fields(), { name: 'card.jpg', content: jpegHeader(9000, 7000) }));
    expect(jpeg.statusCode).toBe(422);
    expect(jpeg.json().message).toContain('9000 x 7000 pixels (63 megapixels)');
    const wide = await post(multipart(fields(), { name: 'card.png', content: bombPng(25_001, 1000) }));
    expect(wide.statusCode).toBe(422);
    expect(await state()).toEqual(before);
  });

  it('refuses a PDF above 50 pages (the 20,000-page bomb too), an unreadable PDF and an animated PNG (415)', async () => {
    const before = await state();
    const bomb = await post(multipart(fields(), { name: 'card.pdf', content: bombPdf(20_000) }));
    expect(bomb.statusCode).toBe(422);
    expect(bomb.json().message).toBe(
      'The PDF has 20000 pages. An approved card has at most 50 pages: upload the card alone.',
    );
    const fifty1 = await post(multipart(fields(), { name: 'card.pdf', content: await samplePdf('P', 51) }));
    expect(fifty1.statusCode).toBe(422);
    expect(fifty1.json().message).toContain('51 pages');
    const broken = await post(
      multipart(fields(), { name: 'card.pdf', content: Buffer.from('%PDF-1.7\n1 0 obj<<>>endobj\n%%EOF\n') }),
    );
    expect(broken.statusCode).toBe(422);
    expect(broken.json().message).toBe('The PDF could not be read. Save it again as a PDF and upload it.');
    // An animated PNG (each frame would be decoded) is not a PNG to file-type: refused as a type.
    const animated = await post(multipart(fields(), { name: 'card.png', content: bombPng(100, 100, 500) }));
    expect(animated.statusCode).toBe(415);
    for (const res of [bomb, fifty1, broken]) expect(res.body).not.toMatch(/\bat .*\.(ts|js):\d+/);
    expect(await state()).toEqual(before);
  });

  it('accepts the limits themselves: a 50-page PDF and a 5000 x 5000 (25 megapixel) image', async () => {
    const other = String((await createOrder(t.database, { email: 'card@example.com' })).orderId);
    const before = await state();
    const pdf = await post(
      multipart(fields({ orderId: other }), { name: 'card.pdf', content: await samplePdf('L', 50) }),
    );
    expect(pdf.statusCode).toBe(200);
    const png = await post(
      multipart(fields({ orderId: other }), { name: 'card.png', content: bombPng(5000, 5000) }),
    );
    expect(png.statusCode).toBe(200);
    const { rows } = await t.database.sql.query('select id from documents where order_id = $1', [other]);
    expect(rows).toHaveLength(2);
    expect(await state()).toMatchObject({ files: before.files + 2, partial: 0 });
  });
});

describe('upload-visa-document success', () => {
  it('stores a path-like, control-character name safely under a random key; document + mail + events in one go', async () => {
    const before = await state();
    const res = await post(
      multipart(fields({ mailServiceProvider: 'sendgrid' }), {
        name: '..\\..\\etc/pass\u0007wd\u0000.exe',
        type: 'application/x-msdownload',
        content: TINY_PNG,
      }),
      'Telecaller',
    );
    expect(res.statusCode).toBe(200);
    const { rows } = await t.database.sql.query<{
      original_name: string;
      storage_key: string;
      mime_type: string;
      provider: string;
      kind: string;
    }>(
      `select d.original_name, d.storage_key, d.mime_type, m.provider, m.kind
       from documents d join mail_log m on m.document_id = d.id where d.order_id = $1`,
      [orderId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.original_name).toBe('passwd.png');
    expect(rows[0]!.storage_key).toMatch(/^[a-f0-9]{32}\.png$/);
    expect(rows[0]!.mime_type).toBe('image/png');
    expect(rows[0]).toMatchObject({ provider: 'Sendgrid', kind: 'approval' });
    const after = await state();
    expect(after).toMatchObject({
      docs: before.docs + 1,
      mails: before.mails + 1,
      events: before.events + 2,
      files: before.files + 1,
      partial: 0,
    });
  });

  it('sanitises names', () => {
    expect(sanitizeFileName('../../x.pdf', 'pdf', 'document')).toBe('x.pdf');
    expect(sanitizeFileName('C:\\Users\\me\\card.PDF', 'pdf', 'document')).toBe('card.pdf');
    expect(sanitizeFileName('...', 'pdf', 'document')).toBe('document.pdf');
    expect(sanitizeFileName('\u0000\u001f', 'jpg', 'document')).toBe('document.jpg');
    expect(sanitizeFileName('a<b>:"c".webp', 'webp', 'document')).toBe('a_b___c_.webp');
    expect(sanitizeFileName('x'.repeat(500), 'pdf', 'd')).toHaveLength(124);
  });
});
