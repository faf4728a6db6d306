import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../shared/constants.js';
import { setClockForTests } from '../auth/clock.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder, createOrders } from '../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PASSPORT_MIN_VALIDITY_DAYS: '0' });
});
afterAll(() => t.close());
afterEach(() => setClockForTests(null));

const json = { 'content-type': 'application/json' };
const createKey = async (body: Record<string, unknown> = {}) => {
  const res = await t.as('Admin', {
    method: 'POST',
    url: '/api/admin/api-keys',
    headers: json,
    payload: JSON.stringify({ name: 'Portal robot', scopes: ['submission'], maxPerMinute: 600, ...body }),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as { id: number; key: string; name: string };
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
const row = async (orderId: number) =>
  (
    await t.database.sql.query<{
      process_status: string;
      assigned_to: number | null;
      government_reference: string | null;
      check_flags: string[];
    }>(
      'select process_status, assigned_to, government_reference, check_flags from orders where order_id = $1',
      [orderId],
    )
  ).rows[0]!;
/** Nothing else is claimable: every open New order is held by the Admin except the ones a test makes. */
const holdEverything = () =>
  t.database.sql.query(
    `update orders set assigned_to = (select id from staff_users where role = 'Admin' order by id limit 1)
     where process_status = 'New' and assigned_to is null`,
  );

beforeEach(holdEverything);

describe('API keys', () => {
  it('an Admin creates a key (answered once, stored hashed, audited), lists and revokes it', async () => {
    const created = await createKey({ name: 'Lister' });
    expect(created.key).toMatch(/^edc_[A-Za-z0-9_-]{43}$/);
    const stored = await t.database.sql.query<{ key_hash: string }>(
      'select key_hash from api_keys where id = $1',
      [created.id],
    );
    expect(stored.rows[0]!.key_hash).not.toContain(created.key.slice(4, 20));
    expect(stored.rows[0]!.key_hash).toHaveLength(64);
    const list = await t.as('Admin', { method: 'GET', url: '/api/admin/api-keys' });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.key);
    expect(list.json().data.find((k: { id: number }) => k.id === created.id)).toMatchObject({
      name: 'Lister',
      scopes: ['submission'],
      revokedAt: null,
    });
    expect((await claim(created.key)).statusCode).toBe(204);
    const revoked = await t.as('Admin', { method: 'DELETE', url: `/api/admin/api-keys/${created.id}` });
    expect(revoked.statusCode).toBe(200);
    expect((await claim(created.key)).statusCode).toBe(401);
    expect(
      (await t.as('Admin', { method: 'DELETE', url: `/api/admin/api-keys/${created.id}` })).statusCode,
    ).toBe(404);
    const audit = await t.database.sql.query<{ action: string }>(
      `select action from audit_log where target = $1 order by id`,
      [`api-key:${created.id}`],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['api-key.create', 'api-key.revoke']);
  });

  it.each(ROLES.filter((r) => r !== 'Admin'))(
    '%s may not create, list or revoke keys (403)',
    async (role) => {
      const res = await t.as(role, {
        method: 'POST',
        url: '/api/admin/api-keys',
        headers: json,
        payload: JSON.stringify({ name: 'x', scopes: ['submission'] }),
      });
      expect(res.statusCode).toBe(403);
      expect((await t.as(role, { method: 'GET', url: '/api/admin/api-keys' })).statusCode).toBe(403);
      expect((await t.as(role, { method: 'DELETE', url: '/api/admin/api-keys/1' })).statusCode).toBe(403);
    },
  );

  it('refuses hostile bodies (400, nothing stored)', async () => {
    const before = await t.database.sql.query<{ n: number }>('select count(*)::int as n from api_keys');
    for (const body of [
      { name: 'bad\u0000name', scopes: ['submission'] },
      { name: 'x'.repeat(5000), scopes: ['submission'] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['submission'], maxPerMinute: 1e9 },
      { name: 'x', scopes: ['submission'], extra: 1 },
    ]) {
      const res = await t.as('Admin', {
        method: 'POST',
        url: '/api/admin/api-keys',
        headers: json,
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    const after = await t.database.sql.query<{ n: number }>('select count(*)::int as n from api_keys');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('a key is not a staff login, a staff token is not a key, garbage is nobody', async () => {
    const { key } = await createKey({ name: 'Outsider' });
    for (const url of [
      '/api/admin/api-keys',
      '/api/admin/submission-policy',
      '/api/admin/orders/1/submission-packet',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode, url).toBe(401);
    }
    const staff = await t.tokenFor('Admin');
    expect((await claim(staff)).statusCode).toBe(401);
    for (const bad of ['edc_', 'edc_short', `edc_${'A'.repeat(43)}`, 'garbage', `${key}x`]) {
      expect((await claim(bad)).statusCode, bad).toBe(401);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/submission-jobs/claim' })).statusCode).toBe(401);
  });
});

describe('the job API', () => {
  it('claims the next open order by due time, holds it for the machine, answers its packet; 204 when none', async () => {
    const { key } = await createKey({ name: 'Robot A' });
    // Arriving in a month: due later than one arriving today (the due time is capped by the arrival).
    const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const later = await createOrder(t.database, { arrival_date: inAMonth, departure_date: null });
    const sooner = await createOrder(t.database);
    const risky = await createOrder(t.database);
    const future = await createOrder(t.database, { processing_date: '2099-01-01' });
    await t.database.sql.query(`update orders set check_flags = array['risk_hold'] where order_id = $1`, [
      risky.orderId,
    ]);
    const first = await claim(key);
    expect(first.statusCode).toBe(200);
    const job = first.json().data;
    expect(job.orderId).toBe(sooner.orderId);
    expect(job.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(job.packet.fields.length).toBeGreaterThan(5);
    const holder = await t.database.sql.query<{ name: string }>(
      'select s.name from orders o join staff_users s on s.id = o.assigned_to where o.order_id = $1',
      [sooner.orderId],
    );
    expect(holder.rows[0]!.name).toBe('Robot A (machine)');
    expect((await claim(key)).json().data.orderId).toBe(later.orderId);
    expect((await claim(key)).statusCode).toBe(204);
    expect((await row(risky.orderId)).assigned_to).toBeNull();
    expect((await row(future.orderId)).assigned_to).toBeNull();
  });

  it('with more than a handful due, walks the queue by due time: the most urgent first, a tie to the lower order number', async () => {
    const { key } = await createKey({ name: 'Robot W' });
    // Over a hundred due, all later than today's arrivals: the claim walks the queue's index.
    const inTwoMonths = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const fillers = await createOrders(t.database, 101, { arrival_date: inTwoMonths, departure_date: null });
    const sooner = await createOrder(t.database);
    const tied = await createOrder(t.database);
    const { rows } = await t.database.sql.query<{ same: boolean; earlier: boolean }>(
      `select a.due_at = b.due_at as same, a.due_at < (select min(due_at) from orders where order_id = any($3::bigint[])) as earlier
       from orders a, orders b where a.order_id = $1 and b.order_id = $2`,
      [sooner.orderId, tied.orderId, fillers.map((f) => f.orderId)],
    );
    expect(rows[0]).toEqual({ same: true, earlier: true });
    const firstFiller = Math.min(...fillers.map((f) => f.orderId));
    const got = [];
    for (let i = 0; i < 3; i++) got.push((await claim(key)).json().data.orderId);
    expect(got).toEqual([sooner.orderId, tied.orderId, firstFiller]);
  });

  it('10 concurrent claimers never get the same order', async () => {
    const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => createKey({ name: `Racer ${i}` })));
    const made = await Promise.all(Array.from({ length: 15 }, () => createOrder(t.database)));
    const answers = await Promise.all(keys.flatMap((k) => [claim(k.key), claim(k.key)]));
    const ids = answers.filter((a) => a.statusCode === 200).map((a) => a.json().data.orderId as number);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 204)).toBe(true);
    expect(ids).toHaveLength(15);
    expect(new Set(ids).size).toBe(15);
    expect([...ids].sort()).toEqual(made.map((o) => o.orderId).sort());
  });

  it('a result with the reference moves the order to Awaiting Govt; a second result is 409', async () => {
    const { key } = await createKey({ name: 'Robot B' });
    const order = await createOrder(t.database);
    const { jobId } = (await claim(key)).json().data;
    const res = await result(key, jobId, { ok: true, governmentReference: ' ED-2026-0042 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ orderId: order.orderId, state: 'submitted' });
    expect(await row(order.orderId)).toMatchObject({
      process_status: 'AwaitingGovt',
      government_reference: 'ED-2026-0042',
    });
    expect((await result(key, jobId, { ok: true, governmentReference: 'ED-2026-0043' })).statusCode).toBe(
      409,
    );
  });

  it("another key's job is not found; hostile result bodies are 400 and change nothing", async () => {
    const { key } = await createKey({ name: 'Robot C' });
    const other = await createKey({ name: 'Robot D' });
    const order = await createOrder(t.database);
    const { jobId } = (await claim(key)).json().data;
    expect((await result(other.key, jobId, { ok: true, governmentReference: 'ABCD-1' })).statusCode).toBe(
      404,
    );
    for (const body of [
      { ok: true, governmentReference: 'AB' },
      { ok: true, governmentReference: 'ABCD\u0000' },
      { ok: false, error: 'x\u0000y' },
      { ok: false, error: 'x'.repeat(10_000) },
      { ok: false, error: 'bad', screenshot: Buffer.from('GIF89a not a png').toString('base64') },
      { ok: false, error: 'bad', screenshot: 'not base64 at all!' },
      { ok: 'yes' },
      { ok: true, governmentReference: 'ABCD-1', orderId: 1 },
    ]) {
      const res = await result(key, jobId, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect((await result(key, 'not-a-uuid', { ok: true, governmentReference: 'ABCD-1' })).statusCode).toBe(
      400,
    );
    expect(await row(order.orderId)).toMatchObject({ process_status: 'New', government_reference: null });
  });

  it('a failure returns the order unheld with submission_failed and the error; the screenshot must be a PNG', async () => {
    const { key } = await createKey({ name: 'Robot E' });
    const order = await createOrder(t.database);
    const { jobId } = (await claim(key)).json().data;
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(100),
    ]);
    const huge = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]).toString('base64');
    expect((await result(key, jobId, { ok: false, error: 'x', screenshot: huge })).statusCode).toBe(400);
    const res = await result(key, jobId, {
      ok: false,
      error: 'The portal refused the passport number',
      screenshot: png.toString('base64'),
    });
    expect(res.statusCode).toBe(200);
    expect(await row(order.orderId)).toMatchObject({
      process_status: 'New',
      assigned_to: null,
      check_flags: ['submission_failed'],
    });
    const remark = await t.database.sql.query<{ remark: string }>(
      'select remark from order_remarks where order_id = $1',
      [order.orderId],
    );
    expect(remark.rows[0]!.remark).toContain('The portal refused the passport number');
    expect((await result(key, jobId, { ok: false, error: 'again' })).statusCode).toBe(409);
    // Submitting it later clears the check.
    const again = (await claim(key)).json().data;
    expect(again.orderId).toBe(order.orderId);
    expect((await result(key, again.jobId, { ok: true, governmentReference: 'ABCD-77' })).statusCode).toBe(
      200,
    );
    expect((await row(order.orderId)).check_flags).toEqual([]);
  });

  it('a job not answered after jobMinutes returns its order; its result is then 409', async () => {
    const { key } = await createKey({ name: 'Robot F' });
    const order = await createOrder(t.database);
    const { jobId } = (await claim(key)).json().data;
    // Only this job is open: the earlier tests' jobs are done with.
    await t.database.sql.query(
      `update submission_jobs set state = 'failed' where state = 'open' and id <> $1`,
      [jobId],
    );
    const start = Date.now();
    setClockForTests(() => new Date(start + 16 * 60_000));
    expect((await claim(key)).json().data.orderId).toBe(order.orderId);
    setClockForTests(null);
    expect((await result(key, jobId, { ok: true, governmentReference: 'ABCD-1' })).statusCode).toBe(409);
    const state = await t.database.sql.query<{ state: string }>(
      'select state from submission_jobs where id = $1',
      [jobId],
    );
    expect(state.rows[0]!.state).toBe('expired');
  });

  it('a key over its rate answers 429 with Retry-After', async () => {
    const { key } = await createKey({ name: 'Robot G', maxPerMinute: 2 });
    expect((await claim(key)).statusCode).toBe(204);
    expect((await claim(key)).statusCode).toBe(204);
    const limited = await claim(key);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a key without the submission scope is refused (403)', async () => {
    const { id, key } = await createKey({ name: 'Robot H' });
    await t.database.sql.query(`update api_keys set scopes = array['other'] where id = $1`, [id]);
    expect((await claim(key)).statusCode).toBe(403);
  });
});
