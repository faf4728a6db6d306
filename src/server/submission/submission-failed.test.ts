import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setClockForTests } from '../auth/clock.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { readSse, type SseEvent } from '../test/sse.js';

/**
 * A machine's failed submission: the screenshot kept with the order's files, the check carrying the
 * error, the "Submission failed" list filter, and the live notices of claims and results.
 */

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ PASSPORT_MIN_VALIDITY_DAYS: '0' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const json = { 'content-type': 'application/json' };
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('a tiny screenshot'),
]);

const createKey = async (name: string) => {
  const res = await t.as('Admin', {
    method: 'POST',
    url: '/api/admin/api-keys',
    headers: json,
    payload: JSON.stringify({ name, scopes: ['submission'], maxPerMinute: 600 }),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.key as string;
};
const claim = (key: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/submission-jobs/claim',
    headers: { authorization: `Bearer ${key}` },
  });
const result = (key: string, jobId: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/submission-jobs/${jobId}/result`,
    headers: { ...json, authorization: `Bearer ${key}` },
    payload: JSON.stringify(body),
  });

/** Nothing else is claimable: every open New order is held by the Admin except the ones a test makes. */
beforeEach(async () => {
  await t.database.sql.query(
    `update orders set assigned_to = (select id from staff_users where role = 'Admin' order by id limit 1)
     where process_status = 'New' and assigned_to is null`,
  );
});

function openStream(token: string): Promise<{ events: SseEvent[]; close: () => void }> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const req = http.get(
      { host: '127.0.0.1', port, path: '/api/admin/events', headers: { authorization: token } },
      (res) => {
        readSse(res, (e) => events.push(e));
        res.on('error', () => {});
        resolve({ events, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
  });
}

async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

const fileCount = async () =>
  Number(
    (await t.database.sql.query<{ n: string }>('select count(*)::text as n from order_files')).rows[0]!.n,
  );

describe('a failed machine submission', () => {
  it('keeps the screenshot with the order, the check carries the error, the filter lists the order', async () => {
    const key = await createKey('Portal robot F');
    const order = await createOrder(t.database);
    const other = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    const { jobId, orderId } = (await claim(key)).json().data;
    expect(orderId).toBe(order.orderId);
    const res = await result(key, jobId, {
      ok: false,
      error: 'The portal refused the passport number',
      screenshot: PNG.toString('base64'),
    });
    expect(res.statusCode).toBe(200);
    const screenshotId = res.json().data.screenshotId as number;
    expect(screenshotId).toBeGreaterThan(0);

    const files = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order.orderId}/files` });
    expect(files.statusCode).toBe(200);
    expect(files.json().data).toEqual([
      expect.objectContaining({
        id: screenshotId,
        kind: 'submission_screenshot',
        mime_type: 'image/png',
        size_bytes: PNG.length,
        note: 'The portal refused the passport number',
        created_by: 'Portal robot F (machine)',
        download_url: `/api/admin/orders/${order.orderId}/files/${screenshotId}`,
      }),
    ]);
    const download = await t.as('Team', { method: 'GET', url: files.json().data[0].download_url });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    // The screenshot is not a card: the order's documents stay empty.
    const docs = await t.database.sql.query('select id from documents where order_id = $1', [order.orderId]);
    expect(docs.rows).toEqual([]);

    const checks = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order.orderId}/checks` });
    const failed = checks
      .json()
      .data.checks.find((c: { code: string }) => c.code === 'submission_failed') as { message: string };
    expect(failed.message).toContain('The portal refused the passport number');

    const list = await t.as('Team', {
      method: 'GET',
      url: '/api/admin/get-orders-list/allOrder?limit=500&submissionFailed=true',
    });
    expect(list.statusCode).toBe(200);
    const ids = list.json().data.map((r: { order_id: number }) => r.order_id);
    expect(ids).toContain(order.orderId);
    expect(ids).not.toContain(other.orderId);
  });

  it('refuses hostile reads: another order’s file, huge and garbage ids, a bad filter value, no login', async () => {
    const key = await createKey('Portal robot G');
    const order = await createOrder(t.database);
    const stranger = await createOrder(t.database, { process_status: 'AwaitingGovt' });
    const { jobId } = (await claim(key)).json().data;
    const res = await result(key, jobId, {
      ok: false,
      error: 'Timed out',
      screenshot: PNG.toString('base64'),
    });
    const fileId = res.json().data.screenshotId as number;
    const before = await fileCount();
    for (const [url, status] of [
      [`/api/admin/orders/${stranger.orderId}/files/${fileId}`, 404],
      [`/api/admin/orders/${order.orderId}/files/99999999999999999999`, 400],
      [`/api/admin/orders/${order.orderId}/files/1%00`, 400],
      [`/api/admin/orders/${order.orderId}/files/-1`, 400],
      ['/api/admin/orders/999999999/files', 404],
      ['/api/admin/get-orders-list/allOrder?submissionFailed=yes', 400],
      ['/api/admin/get-orders-list/allOrder?submissionFailed=true%01', 400],
    ] as const) {
      expect((await t.as('Team', { method: 'GET', url })).statusCode, url).toBe(status);
    }
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/admin/orders/${order.orderId}/files/${fileId}`,
    });
    expect(anonymous.statusCode).toBe(401);
    // A machine key is not a staff login.
    const asMachine = await t.app.inject({
      method: 'GET',
      url: `/api/admin/orders/${order.orderId}/files`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(asMachine.statusCode).toBe(401);
    expect(await fileCount()).toBe(before);
  });

  it('a whole valid failure with one hostile field stores no file and changes nothing', async () => {
    const key = await createKey('Portal robot H');
    const order = await createOrder(t.database);
    const { jobId } = (await claim(key)).json().data;
    const before = await fileCount();
    for (const body of [
      { ok: false, error: 'Refused\u0007', screenshot: PNG.toString('base64') },
      { ok: false, error: 'Refused', screenshot: `${PNG.toString('base64')}\u0000` },
      { ok: false, error: 'Refused', screenshot: PNG.toString('base64'), orderId: order.orderId + 1 },
    ]) {
      expect((await result(key, jobId, body)).statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect(await fileCount()).toBe(before);
    const row = await t.database.sql.query<{ assigned_to: number | null; check_flags: string[] }>(
      'select assigned_to, check_flags from orders where order_id = $1',
      [order.orderId],
    );
    expect(row.rows[0]!.check_flags).toEqual([]);
    expect(row.rows[0]!.assigned_to).not.toBeNull();
    // An answer for a job already answered stores no file either.
    expect((await result(key, jobId, { ok: false, error: 'First' })).statusCode).toBe(200);
    expect(
      (await result(key, jobId, { ok: false, error: 'Again', screenshot: PNG.toString('base64') }))
        .statusCode,
    ).toBe(409);
    expect(await fileCount()).toBe(before);
  });
});

describe('an erasure', () => {
  it("removes the order's screenshots and the errors of its jobs", async () => {
    const key = await createKey('Portal robot E');
    const order = await createOrder(t.database);
    const { jobId } = (await claim(key)).json().data;
    const res = await result(key, jobId, {
      ok: false,
      error: 'Passport X1234567 refused',
      screenshot: PNG.toString('base64'),
    });
    const fileId = res.json().data.screenshotId as number;
    await t.database.sql.query(`update orders set process_status = 'Completed' where order_id = $1`, [
      order.orderId,
    ]);
    const erased = await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/erase`,
      payload: { reason: 'Customer asked for erasure' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const files = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order.orderId}/files` });
    expect(files.json().data).toEqual([]);
    expect(
      (await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order.orderId}/files/${fileId}` }))
        .statusCode,
    ).toBe(404);
    const jobs = await t.database.sql.query<{ error: string }>(
      'select error from submission_jobs where order_id = $1',
      [order.orderId],
    );
    expect(jobs.rows.map((r) => r.error).join(' ')).not.toContain('X1234567');
    const row = await t.database.sql.query<{ checks: unknown }>(
      'select checks from orders where order_id = $1',
      [order.orderId],
    );
    expect(JSON.stringify(row.rows[0]!.checks)).not.toContain('X1234567');
  });
});

describe('live notices of machine claims and results', () => {
  it('managers hear a claim and a failure, Team does not; every stream sees the machine hold the order', async () => {
    const manager = await openStream(await t.tokenFor('Manager'));
    const team = await openStream(await t.tokenFor('Team'));
    try {
      const key = await createKey('Portal robot L');
      const order = await createOrder(t.database);
      const { jobId } = (await claim(key)).json().data;
      const notices = (s: { events: SseEvent[] }) =>
        s.events.filter(
          (e) =>
            e.event === 'notice' &&
            String(e.data.kind).startsWith('submission_') &&
            e.data.orderId === order.orderId,
        );
      await eventually(() =>
        expect(notices(manager).map((e) => e.data)).toEqual([
          {
            kind: 'submission_claimed',
            text: `Portal robot L (machine) claimed order ${order.orderId} to submit it.`,
            orderId: order.orderId,
          },
        ]),
      );
      await eventually(() =>
        expect(
          team.events.some(
            (e) =>
              e.event === 'order' &&
              e.data.orderId === order.orderId &&
              e.data.action === 'assign' &&
              e.data.assignTo === 'Portal robot L (machine)',
          ),
        ).toBe(true),
      );
      await result(key, jobId, { ok: false, error: 'Captcha' });
      await eventually(() =>
        expect(notices(manager).map((e) => e.data.kind)).toEqual(['submission_claimed', 'submission_failed']),
      );
      expect(notices(manager)[1]!.data.text).toContain('Captcha');
      await eventually(() =>
        expect(
          team.events.some(
            (e) =>
              e.event === 'order' &&
              e.data.orderId === order.orderId &&
              e.data.action === 'assign' &&
              e.data.assignTo === '',
          ),
        ).toBe(true),
      );
      const again = (await claim(key)).json().data;
      await result(key, again.jobId, { ok: true, governmentReference: 'GOV-123' });
      await eventually(() =>
        expect(notices(manager).map((e) => e.data.kind)).toContain('submission_submitted'),
      );
      expect(notices(team)).toEqual([]);
    } finally {
      manager.close();
      team.close();
    }
  });
  it('a job not answered in time: managers hear that its order went back to the queue', async () => {
    const manager = await openStream(await t.tokenFor('Manager'));
    try {
      const key = await createKey('Portal robot X');
      const order = await createOrder(t.database);
      expect((await claim(key)).statusCode).toBe(200);
      const later = Date.now() + 16 * 60_000;
      setClockForTests(() => new Date(later));
      expect((await claim(key)).statusCode).toBe(200);
      await eventually(() =>
        expect(
          manager.events.some(
            (e) =>
              e.event === 'notice' &&
              e.data.kind === 'submission_failed' &&
              e.data.text ===
                `Portal robot X (machine) did not answer in time: order ${order.orderId} went back to its queue.`,
          ),
        ).toBe(true),
      );
    } finally {
      setClockForTests(null);
      manager.close();
    }
  });
});
