import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { signCustomerToken } from '../customer/tokens.js';
import { startMailQueue } from '../mail/queue.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { startS3, type TestS3 } from '../test/s3.js';
import { multipart, pdfText, startSmtp, type TestSmtp } from '../test/smtp.js';
import { closeDocumentStorage, documentStorage, documentsDir } from './storage.js';
import type { DocumentStorage } from './stored-file.js';

let s3: TestS3;
let localDir: string;
beforeAll(async () => {
  s3 = await startS3();
  localDir = mkdtempSync(path.join(os.tmpdir(), 'edcard-local-'));
});
afterAll(async () => {
  await s3?.close();
  rmSync(localDir, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

const s3Config = () =>
  loadConfig({ NODE_ENV: 'test', DATA_DIR: localDir, JWT_SECRET: 'x'.repeat(40), ...s3.env });

describe.each([
  ['local disk', () => documentStorage(localDir)],
  ['S3 (s3rver)', () => documentStorage(s3Config())],
] as const)('document storage on %s', (_name, make) => {
  let storage: DocumentStorage;
  beforeAll(() => {
    storage = make();
  });
  afterAll(() => storage.close());

  it('streams a 12 MB document in (several parts) and gives back the same bytes', async () => {
    const data = Buffer.alloc(12 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4096) data.writeUInt32BE(i, i);
    const chunks = Array.from({ length: 48 }, (_, i) => data.subarray(i * 262_144, (i + 1) * 262_144));
    const stored = await storage.put(Readable.from(chunks), 'pdf');
    expect(stored).toEqual({
      key: expect.stringMatching(/^[a-f0-9]{32}\.pdf$/),
      size: data.length,
      sha256: sha(data),
    });
    expect(await storage.exists(stored.key)).toBe(true);
    expect(sha((await storage.read(stored.key))!)).toBe(sha(data));
    expect(sha(await collect((await storage.open(stored.key))!))).toBe(sha(data));
    expect(await storage.keys()).toContain(stored.key);
    await storage.remove(stored.key);
    expect(await storage.exists(stored.key)).toBe(false);
    expect(await storage.read(stored.key)).toBeNull();
    expect(await storage.open(stored.key)).toBeNull();
    expect(await storage.keys()).not.toContain(stored.key);
  });

  it('keeps nothing of an upload whose stream fails half way', async () => {
    const before = await storage.keys();
    async function* failing() {
      yield Buffer.alloc(6 * 1024 * 1024, 1);
      throw new Error('client went away');
    }
    await expect(storage.put(Readable.from(failing()), 'png')).rejects.toThrow('client went away');
    expect(await storage.keys()).toEqual(before);
  });

  it('refuses anything that is not a storage key (no paths, no other prefixes)', async () => {
    for (const key of ['../jwt-secret', 'documents/../../x.pdf', 'ABC.pdf', `${'a'.repeat(32)}.exe`, '']) {
      await expect(storage.read(key)).rejects.toThrow('invalid storage key');
      await expect(storage.remove(key)).rejects.toThrow('invalid storage key');
    }
  });
});

describe('configuration', () => {
  it('refuses DOCUMENT_STORAGE=s3 without a bucket, naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: localDir, DOCUMENT_STORAGE: 's3' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: localDir, DOCUMENT_STORAGE: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ DATA_DIR: localDir, DOCUMENT_STORAGE: 'ftp' })).toThrow(/DOCUMENT_STORAGE/);
  });
});

describe('the app with documents in S3', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ ...s3.env, MAIL_AWS_SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    closeDocumentStorage(t.config);
    await t?.close();
    await smtp?.close();
  });

  const upload = (orderId: number, content: Buffer, email = 'card@example.com') =>
    t.as('Team', {
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      ...multipart(
        { orderId: String(orderId), email, mailServiceProvider: 'AWS' },
        { name: 'card.pdf', type: 'application/pdf', content },
      ),
    });

  it('an upload lands in the bucket and every reader gets it from there: staff download, mail attachment, Defence Pack, customer download', async () => {
    const order = await createOrder(t.database, { process_status: 'Completed', email: 'card@example.com' });
    const bytes = await samplePdf('S3-STORED-CARD', 1);
    const res = await upload(order.orderId, bytes);
    expect(res.statusCode, res.body).toBe(200);
    const { documentId } = res.json().data;
    const { rows } = await t.database.sql.query<{ storage_key: string }>(
      'select storage_key from documents where id = $1',
      [documentId],
    );
    const key = rows[0]!.storage_key;
    expect(await documentStorage(t.config).keys()).toContain(key);
    expect(existsSync(path.join(documentsDir(t.config.DATA_DIR), key))).toBe(false);

    const staff = await t.as('Team', { method: 'GET', url: `/api/admin/order-document/${documentId}` });
    expect(staff.statusCode).toBe(200);
    expect(sha(staff.rawPayload)).toBe(sha(bytes));

    const queue = await startMailQueue(t.app, {
      dispatchIntervalMs: 200,
      pollingIntervalSeconds: 0.5,
      reminderCron: null,
    });
    try {
      await queue.dispatch();
      const [mail] = await smtp.waitFor(1);
      expect(mail!.attachments).toHaveLength(1);
      expect(sha(mail!.attachments[0]!.content)).toBe(sha(bytes));
    } finally {
      await queue.stop();
    }

    const pack = await t.as('Night Staff', {
      method: 'POST',
      url: '/api/admin/get-defence-pack-pdf',
      payload: { orderId: order.orderId, defencePackType: 1 },
    });
    expect(pack.statusCode).toBe(200);
    expect((await pdfText(pack.rawPayload)).text).toContain('S3-STORED-CARD');

    const token = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
    const link = await t.app.inject({
      method: 'POST',
      url: '/api/front/download-passport-doc-pdf',
      headers: { authorization: `Bearer ${token}` },
      payload: { orderId: order.orderId, customername: 'x', file1: `${documentId}.pdf` },
    });
    expect(link.statusCode, link.body).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: link.json().data.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment');
    expect(sha(file.rawPayload)).toBe(sha(bytes));
  });

  it('a hostile upload (NUL in the e-mail) is refused with 400 and leaves nothing in the bucket', async () => {
    const order = await createOrder(t.database, { email: 'card@example.com' });
    const before = await documentStorage(t.config).keys();
    const res = await upload(order.orderId, await samplePdf('HOSTILE', 1), 'a\u0000b@example.com');
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('at ');
    expect(await documentStorage(t.config).keys()).toEqual(before);
    const { rows } = await t.database.sql.query('select id from documents where order_id = $1', [
      order.orderId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('a document missing from the bucket answers 404, not a stack trace', async () => {
    const order = await createOrder(t.database, { email: 'card@example.com' });
    const res = await upload(order.orderId, await samplePdf('VANISHING', 1));
    const { documentId } = res.json().data;
    const { rows } = await t.database.sql.query<{ storage_key: string }>(
      'select storage_key from documents where id = $1',
      [documentId],
    );
    await documentStorage(t.config).remove(rows[0]!.storage_key);
    const staff = await t.as('Team', { method: 'GET', url: `/api/admin/order-document/${documentId}` });
    expect(staff.statusCode).toBe(404);
    expect(staff.json()).toEqual({ status: 0, message: 'Document not found' });
  });
});

describe('presigned downloads (S3_PRESIGNED_DOWNLOADS=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...s3.env, S3_PRESIGNED_DOWNLOADS: '1', S3_PRESIGNED_SECONDS: '30' });
  });
  afterAll(async () => {
    closeDocumentStorage(t.config);
    await t?.close();
  });

  it('the signed customer URL records the download, then redirects to a short-lived URL of the store', async () => {
    const order = await createOrder(t.database, { process_status: 'Completed', email: 'card@example.com' });
    const bytes = await samplePdf('PRESIGNED-CARD', 1);
    const up = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      ...multipart(
        { orderId: String(order.orderId), email: 'card@example.com', mailServiceProvider: 'AWS' },
        { name: 'card.pdf', type: 'application/pdf', content: bytes },
      ),
    });
    const { documentId } = up.json().data;
    const token = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
    const link = await t.app.inject({
      method: 'POST',
      url: '/api/front/download-passport-doc-pdf',
      headers: { authorization: `Bearer ${token}` },
      payload: { orderId: order.orderId, customername: 'x', file1: `${documentId}.pdf` },
    });
    const res = await t.app.inject({ method: 'GET', url: link.json().data.url });
    expect(res.statusCode).toBe(302);
    const location = res.headers.location as string;
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/documents/`)).toBe(true);
    expect(location).toContain('X-Amz-Expires=30');
    const direct = await fetch(location);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('content-disposition')).toBe(
      `attachment; filename="ed-card-${order.orderId}.pdf"`,
    );
    expect(sha(Buffer.from(await direct.arrayBuffer()))).toBe(sha(bytes));
    const { rows } = await t.database.sql.query('select id from download_log where order_id = $1', [
      order.orderId,
    ]);
    expect(rows).toHaveLength(1);
    // The signed URL of the app is single-use whether it streams or redirects.
    expect((await t.app.inject({ method: 'GET', url: link.json().data.url })).statusCode).toBe(410);
  });
});
