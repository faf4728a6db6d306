import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// A client build of our own (the SPA and the customer page) before app.ts reads CLIENT_DIST_DIR.
const clientDist = vi.hoisted(() => {
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const path = process.getBuiltinModule('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edcard-customer-dist-'));
  fs.mkdirSync(path.join(dir, 'customer'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>staff spa</title>');
  fs.writeFileSync(
    path.join(dir, 'customer', 'index.html'),
    '<!doctype html><head><!--edcard-customer-config--><title>customer page</title></head>',
  );
  process.env.CLIENT_DIST_DIR = dir;
  return dir;
});

import { PDFDocument } from 'pdf-lib';
import { resolveTemplate } from '../communication/templates.js';
import { documents, downloadLog, mailLog, orderEvents } from '../db/schema.js';
import { storeBuffer } from '../documents/storage.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { parseUserAgent } from './device.js';
import { customerCsp } from './page.js';
import { clientNetwork } from '../http/client-network.js';
import { LIMITS, TRACK_MIN_RESPONSE_MS } from './routes.js';
import { signCustomerToken, signDownloadToken } from './tokens.js';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { locateIp } from '../geoip/lookup.js';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WINDOWS_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

let t: TestApp;
let ipCounter = 0;
/** Every test speaks from its own address, so the per-IP limits only bite where a test wants them. */
const nextIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

beforeAll(async () => {
  // Behind a proxy: the client address comes from X-Forwarded-For (TRUST_PROXY).
  t = await createTestApp({ TRUST_PROXY: 'true', ALT_LANDING_HOST: 'aruba-card.example' });
});
afterAll(async () => {
  await t.close();
  const fs = await import('node:fs');
  fs.rmSync(clientDist, { recursive: true, force: true });
});

async function pdfBytes(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage([200, 200]).drawText(text, { x: 20, y: 100, size: 12 });
  return Buffer.from(await pdf.save());
}

/** An order with an uploaded approved document (real file in storage + documents row). */
async function orderWithDocument(overrides: Record<string, unknown> = {}, on: TestApp = t) {
  const order = await createOrder(on.database, { process_status: 'Completed', ...overrides });
  const bytes = await pdfBytes(`Approved ${order.orderId}`);
  const stored = await storeBuffer(on.config.DATA_DIR, bytes, 'pdf');
  const [doc] = await on.database.db
    .insert(documents)
    .values({
      orderId: order.orderId,
      storageKey: stored.key,
      originalName: `../../etc/passwd "evil".pdf`,
      mimeType: 'application/pdf',
      sizeBytes: stored.size,
      sha256: stored.sha256,
      mailServiceProvider: 'AWS',
    })
    .returning();
  return { order, doc: doc!, bytes };
}

const track = (body: unknown, ip = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/front/track-order', payload: body as object, remoteAddress: ip });

const asCustomer = (
  token: string | null,
  url: string,
  payload: object,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: nextIp(),
    headers: { ...(token ? { authorization: token } : {}), ...headers },
  });

async function tokenFor(orderId: number, email: string): Promise<string> {
  const res = await track({ orderId: String(orderId), email });
  expect(res.statusCode).toBe(200);
  return res.json().data.token as string;
}

describe('track-order', () => {
  it('answers a token scoped to the order, comparing the e-mail case-insensitively', async () => {
    const order = await createOrder(t.database, { email: 'Mixed.Case@Example.com' });
    const res = await track({ orderId: order.orderId, email: '  MIXED.case@example.COM ' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe(1);
    expect(body.data.expiresIn).toBe(30 * 60);
    const [, payload] = (body.data.token as string).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims).toMatchObject({ sub: String(order.orderId), aud: 'customer' });
    expect(claims.exp - claims.iat).toBe(30 * 60);
  });

  it('gives a wrong id and a wrong e-mail the same answer in about the same time', async () => {
    const order = await createOrder(t.database);
    const unknownId = order.orderId + 500_000;
    const timed = async (body: object) => {
      const started = performance.now();
      const res = await track(body);
      return { ms: performance.now() - started, code: res.statusCode, body: res.json() };
    };
    const wrongId: Awaited<ReturnType<typeof timed>>[] = [];
    const wrongEmail: Awaited<ReturnType<typeof timed>>[] = [];
    for (let i = 0; i < 6; i++) {
      wrongId.push(await timed({ orderId: String(unknownId + i), email: order.email }));
      wrongEmail.push(await timed({ orderId: String(order.orderId), email: `x${i}-${order.email}` }));
    }
    for (const r of [...wrongId, ...wrongEmail]) {
      expect(r.code).toBe(404);
      expect(r.body).toEqual(wrongId[0]!.body);
      expect(r.ms).toBeGreaterThanOrEqual(TRACK_MIN_RESPONSE_MS - 5);
    }
    expect(wrongId[0]!.body).toEqual({
      status: 0,
      message: 'No order matches this Order ID and e-mail address.',
    });
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const gap = Math.abs(median(wrongId.map((r) => r.ms)) - median(wrongEmail.map((r) => r.ms)));
    expect(gap).toBeLessThan(40);
  });

  it('gives a deleted order no token: its right e-mail learns it was cancelled (stage.test.ts)', async () => {
    const order = await createOrder(t.database, { process_status: 'Deleted' });
    const res = await track({ orderId: order.orderId, email: order.email });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBeUndefined();
    expect(res.json().cancelled.stage).toBe('cancelled');
  });

  it('answers the product messages for missing fields', async () => {
    const res = await track({ orderId: '', email: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter your orderId');
    const fields = res.json().data.errors.map((e: { message: string }) => e.message);
    expect(fields).toEqual(['Please enter your orderId', 'Please enter your email']);
    const letters = await track({ orderId: '12ab56', email: 'a@b.c' });
    expect(letters.statusCode).toBe(400);
    expect(letters.json().message).toBe('orderId: Order ID must be 6 to 15 digits');
  });

  it('limits attempts per IP', async () => {
    const ip = nextIp();
    const codes: number[] = [];
    // Sequential: the in-memory store hands concurrent requests one shared counter object.
    for (let i = 0; i <= LIMITS.trackPerIp.max; i++) {
      codes.push((await track({ orderId: String(900_000 + i), email: 'nobody@example.com' }, ip)).statusCode);
    }
    expect(codes.filter((c) => c === 404)).toHaveLength(LIMITS.trackPerIp.max);
    expect(codes.filter((c) => c === 429)).toHaveLength(1);
    const limited = (await track({ orderId: '900001', email: 'nobody@example.com' }, ip)).json();
    expect(limited).toMatchObject({ status: 0 });
    expect(limited.message).toMatch(/^Too many requests/);
    // Another address is not affected.
    expect((await track({ orderId: '900001', email: 'nobody@example.com' })).statusCode).toBe(404);
  });

  it('limits attempts per order id, from any address', async () => {
    const order = await createOrder(t.database);
    const codes: number[] = [];
    for (let i = 0; i <= LIMITS.trackPerOrder.max; i++) {
      codes.push(
        (await track({ orderId: String(order.orderId), email: `guess${i}@example.com` })).statusCode,
      );
    }
    expect(codes.filter((c) => c === 429)).toHaveLength(1);
    const wrong = await track({ orderId: String(order.orderId), email: 'one-more@example.com' });
    expect(wrong.statusCode).toBe(429);
    expect(wrong.json().message).toMatch(/Too many attempts for this order/);
  });

  it('never refuses the right order id and e-mail because of a flood of wrong guesses', async () => {
    const order = await createOrder(t.database);
    for (let i = 0; i < LIMITS.trackPerOrder.max * 2; i++) {
      await track({ orderId: String(order.orderId), email: `flood${i}@example.com` });
    }
    expect((await track({ orderId: String(order.orderId), email: 'x@example.com' })).statusCode).toBe(429);
    // The customer, from their own address, still gets in — also with the id written with a leading zero.
    const right = await track({ orderId: String(order.orderId), email: order.email });
    expect(right.statusCode).toBe(200);
    expect(right.json().data.token).toEqual(expect.any(String));
    expect((await track({ orderId: `0${order.orderId}`, email: order.email })).statusCode).toBe(200);
  });

  it('counts an order id written with leading zeros in the same bucket', async () => {
    const order = await createOrder(t.database);
    const codes: number[] = [];
    for (let i = 0; i <= LIMITS.trackPerOrder.max; i++) {
      const written = `${'0'.repeat(i % 4)}${order.orderId}`;
      codes.push((await track({ orderId: written, email: `zero${i}@example.com` })).statusCode);
    }
    expect(codes.slice(0, LIMITS.trackPerOrder.max)).toEqual(Array(LIMITS.trackPerOrder.max).fill(404));
    expect(codes.at(-1)).toBe(429);
    expect((await track({ orderId: `000${order.orderId}`, email: 'again@example.com' })).statusCode).toBe(
      429,
    );
  });

  it('counts an IPv6 client by its /64 network', async () => {
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(clientNetwork('10.1.2.3')).toBe('10.1.2.3');
    const codes: number[] = [];
    for (let i = 0; i <= LIMITS.trackPerIp.max; i++) {
      const ip = `2001:db8:77:1:${(i + 1).toString(16)}::${i + 1}`;
      codes.push((await track({ orderId: String(800_000 + i), email: 'nobody@example.com' }, ip)).statusCode);
    }
    expect(codes.at(-1)).toBe(429);
    expect(
      (await track({ orderId: '800001', email: 'nobody@example.com' }, '2001:db8:78::1')).statusCode,
    ).toBe(404);
  });
});

describe('customer token', () => {
  it('reads history only for its own order', async () => {
    const a = await orderWithDocument();
    const b = await orderWithDocument();
    const tokenA = await tokenFor(a.order.orderId, a.order.email);
    const own = await asCustomer(tokenA, '/api/front/get-download-history', { orderId: a.order.orderId });
    expect(own.statusCode).toBe(200);
    const other = await asCustomer(tokenA, '/api/front/get-download-history', { orderId: b.order.orderId });
    expect(other.statusCode).toBe(401);
    expect(other.json()).toEqual({
      status: 401,
      message: 'Your session has expired. Please track your order again.',
    });
    const download = await asCustomer(tokenA, '/api/front/download-passport-doc-pdf', {
      orderId: b.order.orderId,
      customername: 'x',
      file1: `${b.doc.id}.pdf`,
    });
    expect(download.statusCode).toBe(401);
    const rows = await t.database.db
      .select()
      .from(downloadLog)
      .where(eq(downloadLog.orderId, b.order.orderId));
    expect(rows).toHaveLength(0);
  });

  it('refuses no token, a staff token, an expired token and a tampered one with 401', async () => {
    const { order } = await orderWithDocument();
    const url = '/api/front/get-download-history';
    const body = { orderId: order.orderId };
    expect((await asCustomer(null, url, body)).statusCode).toBe(401);
    expect((await asCustomer(await t.tokenFor('Admin'), url, body)).statusCode).toBe(401);
    const expired = await signCustomerToken(t.config.JWT_SECRET, order.orderId, -10);
    expect((await asCustomer(expired, url, body)).statusCode).toBe(401);
    const foreign = await signCustomerToken('another-secret-that-is-long-enough-1234567', order.orderId);
    expect((await asCustomer(foreign, url, body)).statusCode).toBe(401);
    const good = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
    expect((await asCustomer(`Bearer ${good}`, url, body)).statusCode).toBe(200);
    // Unauthenticated callers learn nothing about the contract: 401 before validation.
    expect((await asCustomer(null, url, { nonsense: true })).statusCode).toBe(401);
  });

  it('is not a staff token', async () => {
    const order = await createOrder(t.database);
    const token = await signCustomerToken(t.config.JWT_SECRET, order.orderId);
    const staffRoute = t.app.routeTable.find(
      (r) => r.method === 'GET' && r.permission && !r.url.includes(':'),
    );
    expect(staffRoute).toBeDefined();
    const res = await t.app.inject({
      method: 'GET',
      url: staffRoute!.url,
      headers: { authorization: token },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('download history and download', () => {
  it('lists the summary, the document and the history; the alternate brand follows landing_domain', async () => {
    const { order, doc } = await orderWithDocument({ landing_domain: 'Aruba-Card.example' });
    const token = await tokenFor(order.orderId, order.email);
    const res = await asCustomer(token, '/api/front/get-download-history', {
      orderId: String(order.orderId),
    });
    expect(res.json()).toEqual({
      status: 1,
      message: 'No record found',
      data: [],
      mainResult: {
        order_id: order.orderId,
        first_name: order.firstName,
        last_name: order.lastName,
        process_status: 'Completed',
        brand: 'alt',
        downloadable: true,
        stage: 'approved',
        stageMessage: 'Your card is approved. You can download it on this page.',
        stageRequest: null,
        stageAnswered: false,
        stageSubmitted: null,
      },
      path: { file1: `${doc.id}.pdf` },
    });
    const plain = await createOrder(t.database);
    const plainToken = await tokenFor(plain.orderId, plain.email);
    const none = await asCustomer(plainToken, '/api/front/get-download-history', { orderId: plain.orderId });
    expect(none.json().mainResult).toMatchObject({ brand: 'main', downloadable: false });
    expect(none.json().path).toEqual({ file1: null });
  });

  it('records each delivery when the signed URL is fetched, with IP, device and location; each URL works once', async () => {
    const { order, doc, bytes } = await orderWithDocument();
    const token = await tokenFor(order.orderId, order.email);
    const issue = async () => {
      const res = await asCustomer(token, '/api/front/download-passport-doc-pdf', {
        orderId: order.orderId,
        customername: 'Whatever Name',
        file1: `${doc.id}.pdf`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 1, message: 'Your download will start shortly.' });
      expect(res.json().data.url).toMatch(/^\/api\/front\/download\?token=/);
      return res.json().data.url as string;
    };
    const history = async () =>
      (await asCustomer(token, '/api/front/get-download-history', { orderId: order.orderId })).json().data;
    const events = async () =>
      (await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order.orderId)))
        .map((e) => e.action)
        .filter((a) => a === 'customer_download');
    const fetchFile = (url: string, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') =>
      t.app.inject({ method, url, remoteAddress: nextIp(), headers });

    // Issuing the link records nothing: a link is not a delivery.
    const url = await issue();
    expect(await history()).toEqual([]);
    expect(await events()).toEqual([]);

    // A HEAD probe neither uses the URL up nor counts.
    const head = await fetchFile(url, { 'user-agent': WINDOWS_UA }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(await history()).toEqual([]);

    // A public test address behind the proxy (TRUST_PROXY): Google's resolver, in the United States.
    const file = await fetchFile(url, { 'user-agent': IPHONE_UA, 'x-forwarded-for': '8.8.8.8' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="ed-card-${order.orderId}.pdf"`);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toContain('no-store');
    expect(file.rawPayload.equals(bytes)).toBe(true);
    const [row] = await history();
    expect(await history()).toHaveLength(1);
    expect(row).toMatchObject({
      order_id: order.orderId,
      ip: '8.8.8.8',
      device: 'Apple iPhone',
      device_type: 'mobile',
      browser: 'Safari-17.0',
      os: 'iOS 17.0',
      location: 'United States of America',
    });
    expect(row.date_time).toMatch(/^\d\d-\d\d-\d{4} \d{1,2}:\d\d:\d\d (AM|PM)$/);
    expect(await events()).toEqual(['customer_download']);

    // The same URL again (a replay, a forwarded link): 410, no file, nothing recorded.
    const again = await fetchFile(url, { 'user-agent': WINDOWS_UA, 'x-forwarded-for': '1.1.1.1' });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({
      status: 0,
      message: 'This download link has already been used. Please start the download again.',
    });
    expect(again.headers['content-disposition']).toBeUndefined();
    expect(await history()).toHaveLength(1);
    expect(await events()).toHaveLength(1);

    // A new download is a new URL and a new row, from the device that fetched it.
    const second = await fetchFile(await issue(), { 'user-agent': WINDOWS_UA, 'x-forwarded-for': '1.1.1.1' });
    expect(second.statusCode).toBe(200);
    const rows = await history();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ ip: '1.1.1.1', device: 'Desktop computer', os: 'Windows 10' });
    expect(await events()).toHaveLength(2);
  });

  it('lets only one of four simultaneous fetches of a URL deliver', async () => {
    const { order, doc } = await orderWithDocument();
    const token = await tokenFor(order.orderId, order.email);
    const res = await asCustomer(token, '/api/front/download-passport-doc-pdf', {
      orderId: order.orderId,
      file1: `${doc.id}.pdf`,
    });
    const url = res.json().data.url as string;
    const codes = await Promise.all(
      Array.from({ length: 4 }, () => t.app.inject({ method: 'GET', url, remoteAddress: nextIp() })),
    );
    expect(codes.map((c) => c.statusCode).sort()).toEqual([200, 410, 410, 410]);
    const rows = await t.database.db.select().from(downloadLog).where(eq(downloadLog.orderId, order.orderId));
    expect(rows).toHaveLength(1);
  });

  it('answers hostile track and download input with a clear 4xx, records nothing, shows no stack', async () => {
    const { order, doc } = await orderWithDocument();
    const hostileTracks = [
      { orderId: `0${'9'.repeat(15)}`, email: order.email },
      { orderId: '000000', email: order.email },
      { orderId: `${order.orderId}\u0000`, email: order.email },
      { orderId: String(order.orderId), email: `${order.email}\u0000` },
      { orderId: String(order.orderId), email: `${'a'.repeat(100_000)}@example.com` },
    ];
    for (const body of hostileTracks) {
      const res = await track(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).not.toMatch(/at .+\.ts:\d+|stack/i);
    }
    const signed = await signDownloadToken(t.config.JWT_SECRET, {
      orderId: order.orderId,
      documentId: doc.id,
    });
    for (const token of [`${signed}%00`, 'x'.repeat(5000), `${signed.slice(0, -2)}%0D%0A`, '']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/front/download?token=${token}` });
      expect(res.statusCode, token.slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.body).not.toMatch(/at .+\.ts:\d+|stack/i);
    }
    const rows = await t.database.db.select().from(downloadLog).where(eq(downloadLog.orderId, order.orderId));
    expect(rows).toHaveLength(0);
    // The untouched URL still delivers once: the hostile attempts did not use it up.
    const ok = await t.app.inject({ method: 'GET', url: `/api/front/download?token=${signed}` });
    expect(ok.statusCode).toBe(200);
  });

  it('keeps the download token out of the request log', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const logged = await createTestApp({}, { logger: { level: 'info', stream }, sameDatabaseAs: t });
    try {
      const { order, doc } = await orderWithDocument({}, logged);
      const customerToken = await signCustomerToken(logged.config.JWT_SECRET, order.orderId);
      const issued = await logged.app.inject({
        method: 'POST',
        url: '/api/front/download-passport-doc-pdf',
        payload: { orderId: order.orderId, file1: `${doc.id}.pdf` },
        headers: { authorization: `Bearer ${customerToken}` },
      });
      const url = issued.json().data.url as string;
      const signed = new URL(url, 'http://x').searchParams.get('token')!;
      expect((await logged.app.inject({ method: 'GET', url })).statusCode).toBe(200);
      // Also a failing fetch (bad token) and a staff call with its bearer token.
      await logged.app.inject({ method: 'GET', url: `/api/front/download?token=${signed}x&other=1` });
      const staffToken = await logged.tokenFor('Admin');
      await logged.app.inject({
        method: 'GET',
        url: `/api/admin/get-folder-count?access_token=${staffToken}`,
        headers: { authorization: staffToken },
      });
      const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.req);
      expect(requests.some((l) => l.req.url === '/api/front/download?token=[REDACTED]')).toBe(true);
      expect(requests.some((l) => l.req.url === '/api/front/download?token=[REDACTED]&other=1')).toBe(true);
      const text = lines.join('\n');
      expect(text.length).toBeGreaterThan(0);
      for (const secret of [signed, customerToken, staffToken, signed.split('.')[2]!]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await logged.close();
    }
  });

  it('refuses file1 with a path, another order’s document and a missing document; records nothing', async () => {
    const a = await orderWithDocument();
    const b = await orderWithDocument();
    const token = await tokenFor(a.order.orderId, a.order.email);
    const post = (file1: string) =>
      asCustomer(token, '/api/front/download-passport-doc-pdf', {
        orderId: a.order.orderId,
        customername: 'x',
        file1,
      });
    for (const bad of ['../../etc/passwd', `${a.doc.id}.pdf/../x`, a.doc.storageKey, `${a.doc.id}.exe`]) {
      const res = await post(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('file1: Not a document of this order');
    }
    expect((await post(`${b.doc.id}.pdf`)).statusCode).toBe(404);
    expect((await post(`${a.doc.id}.png`)).statusCode).toBe(404);
    expect((await post('999999999.pdf')).statusCode).toBe(404);
    const rows = await t.database.db
      .select()
      .from(downloadLog)
      .where(eq(downloadLog.orderId, a.order.orderId));
    expect(rows).toHaveLength(0);
  });

  it('never serves another file with a signed URL: tampered, other order, expired', async () => {
    const a = await orderWithDocument();
    const b = await orderWithDocument();
    const token = await tokenFor(a.order.orderId, a.order.email);
    const res = await asCustomer(token, '/api/front/download-passport-doc-pdf', {
      orderId: a.order.orderId,
      file1: `${a.doc.id}.pdf`,
    });
    const url: string = res.json().data.url;
    const signed = new URL(url, 'http://x').searchParams.get('token')!;
    const get = (tok: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/front/download?token=${encodeURIComponent(tok)}`,
        remoteAddress: nextIp(),
      });

    // The same URL pointed at B's document by editing the payload: the signature no longer holds.
    const [header, payload, signature] = signed.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const edited = Buffer.from(JSON.stringify({ ...claims, doc: b.doc.id })).toString('base64url');
    const tampered = await get(`${header}.${edited}.${signature}`);
    expect(tampered.statusCode).toBe(401);
    expect(tampered.headers['content-disposition']).toBeUndefined();

    // A correctly signed grant that pairs order A with B's document finds nothing.
    const mismatched = await signDownloadToken(t.config.JWT_SECRET, {
      orderId: a.order.orderId,
      documentId: b.doc.id,
    });
    expect((await get(mismatched)).statusCode).toBe(404);

    // A customer token is not a download token.
    expect((await get(token)).statusCode).toBe(401);

    // After its minute the URL is dead.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const late = await get(signed);
      expect(late.statusCode).toBe(401);
      expect(late.json().message).toBe(
        'This download link has expired or is invalid. Please start the download again.',
      );
    } finally {
      vi.useRealTimers();
    }
    expect((await get(signed)).statusCode).toBe(200);
  });
});

describe('approval notice preview', () => {
  it('renders the order’s notice for its customer only', async () => {
    const a = await createOrder(t.database, { landing_domain: 'aruba-card.example' });
    const b = await createOrder(t.database);
    const token = await tokenFor(a.orderId, a.email);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/front/approval-notice/${a.orderId}`,
      headers: { authorization: token },
    });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.subject).toContain(String(a.orderId));
    expect(data.html).toContain(a.email);
    expect(data.html).toContain(`/track-order/${a.orderId}`);
    expect(data.text).toContain('Aruba Card');
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/front/approval-notice/${b.orderId}`,
      headers: { authorization: token },
    });
    expect(other.statusCode).toBe(401);
  });
});

describe('approval notice preview language', () => {
  const preview = async (orderId: number, email: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/front/approval-notice/${orderId}`,
      headers: { authorization: await tokenFor(orderId, email) },
    });
    expect(res.statusCode).toBe(200);
    return res.json().data as { subject: string; html: string; text: string };
  };

  it('is the customer’s language when no approval mail went out yet', async () => {
    const order = await createOrder(t.database, { language: 'es' });
    const data = await preview(order.orderId, order.email);
    expect(data.subject).toBe(`Su Aruba ED Card ha sido aprobada (pedido ${order.orderId})`);
  });

  it('is the language of the approval mail actually sent, not the order’s language now', async () => {
    const order = await createOrder(t.database, { language: 'es' });
    const pt = (await resolveTemplate(t.database.db, 'approval-notice', 'pt'))!;
    const sentRow = {
      orderId: order.orderId,
      kind: 'approval' as const,
      toEmail: order.email,
      provider: 'AWS' as const,
      templateId: pt.id,
      templateVersion: pt.version,
    };
    // A queued (not yet sent) mail in Dutch does not count; the sent one in Portuguese does.
    await t.database.db.insert(mailLog).values({ ...sentRow, status: 'sent' });
    const nl = (await resolveTemplate(t.database.db, 'approval-notice', 'nl'))!;
    await t.database.db
      .insert(mailLog)
      .values({ ...sentRow, templateId: nl.id, templateVersion: nl.version, status: 'queued' });
    const data = await preview(order.orderId, order.email);
    expect(data.subject).toMatch(/aprovad/i);
    expect(data.subject).toContain(String(order.orderId));
    expect(data.subject).not.toMatch(/aprobada|goedgekeurd/);
  });
});

describe('customer page', () => {
  it('serves the customer build with its config for the customer paths only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/track-order/100001' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('customer page');
    const meta = /<meta name="edcard-customer" content="([^"]+)"/.exec(res.body)![1]!;
    const config = JSON.parse(meta.replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    expect(config.hostBrand).toBe('main');
    expect(config.brands.main.links.benefits).toMatch(/additional-benefits$/);
    expect(config.brands.alt.name).toBe('Aruba Card');
    expect(config.brands.alt.links.benefits).toBeUndefined();
    expect(config.translateWidgetUrl).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("script-src 'self';");

    for (const url of ['/track-order', '/get-new-order-details/100001', '/track-order/?x=1']) {
      expect((await t.app.inject({ method: 'GET', url })).body).toContain('customer page');
    }
    for (const url of ['/admin', '/track-orders', '/']) {
      expect((await t.app.inject({ method: 'GET', url })).body).toContain('staff spa');
    }
    const alt = await t.app.inject({
      method: 'GET',
      url: '/track-order',
      headers: { host: 'aruba-card.example' },
    });
    expect(alt.body).toContain('&quot;hostBrand&quot;:&quot;alt&quot;');
  });

  it('names the translation widget and allows its origins when configured', async () => {
    const other = await createTestApp(
      { TRANSLATE_WIDGET_URL: 'https://widgets.example.org/translate.js' },
      { sameDatabaseAs: t },
    );
    try {
      const res = await other.app.inject({ method: 'GET', url: '/track-order' });
      expect(res.body).toContain('https://widgets.example.org/translate.js');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self' https://widgets.example.org");
      expect(csp).toContain("frame-src 'self' https://widgets.example.org");
      // Only customer pages carry it.
      const staff = await other.app.inject({ method: 'GET', url: '/admin' });
      expect(staff.headers['content-security-policy']).not.toContain('widgets.example.org');
    } finally {
      await other.close();
    }
  });
});

describe('helpers', () => {
  it('parses user agents into device, type, browser and OS', () => {
    expect(parseUserAgent(WINDOWS_UA)).toEqual({
      device: 'Desktop computer',
      deviceType: 'desktop',
      browser: 'Chrome-120.0.0.0',
      os: 'Windows 10',
    });
    expect(parseUserAgent('')).toEqual({
      device: 'Unknown',
      deviceType: 'Unknown',
      browser: 'Unknown',
      os: 'Unknown',
    });
  });

  it('locates public addresses and not private ones', async () => {
    expect(await locateIp('8.8.8.8')).toBe('United States of America');
    expect(await locateIp('2001:4860:4860::8888')).toBe('United States of America');
    expect(await locateIp('127.0.0.1')).toBe('Unknown');
    expect(await locateIp('192.168.1.20')).toBe('Unknown');
    expect(await locateIp('not-an-ip')).toBe('Unknown');
  });

  it('adds widget origins to the fetch directives of the policy only', () => {
    const base = "default-src 'self';script-src 'self';img-src 'self' data:;object-src 'none'";
    expect(customerCsp(base, [])).toBe(base);
    expect(customerCsp(base, ['https://w.example'])).toBe(
      "default-src 'self';script-src 'self' https://w.example;img-src 'self' data: https://w.example;object-src 'none';frame-src 'self' https://w.example",
    );
  });
});
