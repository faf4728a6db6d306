import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError, openDatabase } from './db/client.js';
import { buildOrder } from './test/factories.js';
import { createTestApp, type TestApp } from './test/app.js';

const KEY = 'intake-key-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INTAKE_API_KEY: KEY });
});
afterAll(() => t.close());

describe('health and envelope', () => {
  it('reports the database state', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1, message: 'OK', data: { db: 'ok' } });
  });
  it('answers 404 with the envelope for an unknown API path', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 0, message: 'Not found' });
  });
  it('sends security headers and no version header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    // A JSON answer carries the short API set (decision 348); pages carry the long one.
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
  it('serves the OpenAPI document outside production', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/intake/orders']).toBeDefined();
  });
  it('declares a permission or public on every API route', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(1);
    for (const route of t.app.routeTable) expect(route.permission || route.public).toBeTruthy();
  });
});

describe('intake', () => {
  const post = (body: unknown, key: string | null = KEY, raw?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/intake/orders',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-intake-key': key } : {}) },
      payload: raw ?? JSON.stringify(body),
    });

  it('refuses a missing or wrong key with 401', async () => {
    expect((await post(buildOrder(), null)).statusCode).toBe(401);
    expect((await post(buildOrder(), 'wrong-key-wrong-key-wrong')).statusCode).toBe(401);
  });
  it('answers malformed JSON with 400, not 500', async () => {
    const res = await post(null, KEY, '{"email": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 0, message: 'Malformed JSON body' });
  });
  it('names the bad fields and writes nothing', async () => {
    const before = await t.database.sql.query<{ n: string }>('select count(*)::text n from orders');
    const res = await post({ ...buildOrder(), email: 'not-an-email', amount: 'lots' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.status).toBe(0);
    const fields = body.data.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'amount']));
    const after = await t.database.sql.query<{ n: string }>('select count(*)::text n from orders');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });
  it('rejects unknown fields', async () => {
    const res = await post({ ...buildOrder(), process_status: 'Completed' });
    expect(res.statusCode).toBe(400);
  });
  it('creates the order once per client reference', async () => {
    const order = buildOrder({ client_reference: 'site-ref-42', email: 'Guest@Example.com' });
    const first = await post(order);
    expect(first.statusCode).toBe(200);
    const id = first.json().data.order_id;
    expect(id).toBeGreaterThanOrEqual(100001);
    const second = await post(order);
    expect(second.json().data.order_id).toBe(id);
    const { rows } = await t.database.sql.query<{ n: string; status: string }>(
      "select count(*)::text n, min(process_status) status from orders where client_reference = 'site-ref-42'",
    );
    expect(rows[0]).toEqual({ n: '1', status: 'New' });
    const events = await t.database.sql.query('select * from order_events where order_id = $1', [id]);
    expect(events.rows).toHaveLength(1);
  });
});

describe('intake switched off', () => {
  it('answers 404 when INTAKE_API_KEY is unset', async () => {
    const off = await createTestApp({}, { sameDatabaseAs: t });
    try {
      const res = await off.app.inject({ method: 'POST', url: '/api/intake/orders', payload: buildOrder() });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('configuration', () => {
  it('names the wrong variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'nonsense' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ REMINDER_AFTER_HOURS: '-1' })).toThrow(/REMINDER_AFTER_HOURS/);
  });
  it('requires JWT_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
  });
  it('generates and keeps a local secret outside production', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edcard-cfg-'));
    try {
      const a = loadConfig({ DATA_DIR: dir });
      const b = loadConfig({ DATA_DIR: dir });
      expect(a.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
      expect(b.JWT_SECRET).toBe(a.JWT_SECRET);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('PGlite folder lock', () => {
  it('refuses a second process-level open of the same data folder', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edcard-lock-'));
    const first = await openDatabase({ dataDir: dir });
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirLockedError);
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by another ED-Card process/);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir: dir });
    await again.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('PGlite folder lock after a crash', () => {
  it('takes over a lock whose owner process is gone', async () => {
    const { spawnSync } = await import('node:child_process');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edcard-stale-'));
    mkdirSync(path.join(dir, 'pglite.lock'), { recursive: true });
    // A pid that certainly is not running any more: a child that has exited.
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    writeFileSync(path.join(dir, 'pglite.owner-pid'), String(dead));
    const db = await openDatabase({ dataDir: dir });
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
