import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestApp, openTestDatabase, type TestApp } from '../test/app.js';
import { withDatabase } from '../test/global-setup.js';
import { freePort } from '../test/smtp.js';
import { lifecycleOf, STARTING_MESSAGE } from './lifecycle.js';

describe('live and ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('a ready instance: live 200, ready 200 with the database checked; /api/health stays', async () => {
    expect((await get('/api/health/live')).json()).toEqual({ status: 1, message: 'Live' });
    const ready = await get('/api/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 1,
      message: 'Ready',
      data: { ready: true, phase: 'ready', db: 'ok' },
    });
    expect((await get('/api/health')).json()).toEqual({ status: 1, message: 'OK', data: { db: 'ok' } });
  });

  it('while migrating: not ready, and every other request answers 503 without touching the database', async () => {
    const life = lifecycleOf(t.app);
    life.phase = 'migrating';
    try {
      const ready = await get('/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().data).toEqual({ ready: false, phase: 'migrating', db: 'unchecked' });
      expect((await get('/api/health/live')).statusCode).toBe(200);
      // Health says OK only once the instance serves: a client waiting for it never meets a 503 after.
      const health = await get('/api/health');
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ status: 0, message: STARTING_MESSAGE, data: { db: 'starting' } });
      const api = await t.as('Admin', { method: 'GET', url: '/api/admin/get-folder-count' });
      expect(api.statusCode).toBe(503);
      expect(api.json()).toEqual({ status: 0, message: STARTING_MESSAGE });
      expect(api.headers['retry-after']).toBe('5');
    } finally {
      life.phase = 'ready';
    }
  });

  it('while draining: not ready, but requests still arriving are served', async () => {
    const life = lifecycleOf(t.app);
    life.phase = 'draining';
    try {
      const ready = await get('/api/health/ready');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 0,
        message: 'Shutting down',
        data: { phase: 'draining' },
      });
      expect((await get('/api/health')).statusCode).toBe(200);
    } finally {
      life.phase = 'ready';
    }
  });

  it('refuses anything but GET/HEAD and ignores a hostile query', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/health/ready', payload: {} })).statusCode).toBe(
      404,
    );
    const odd = await get('/api/health/ready?phase=draining&%00=x');
    expect(odd.statusCode).toBe(200);
  });
});

describe('ready when the database is unreachable', () => {
  it('answers 503 db down (and live stays 200)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edcard-health-'));
    const { loadConfig } = await import('../config.js');
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dir,
      JWT_SECRET: 'x'.repeat(40),
      LOG_LEVEL: 'silent',
    });
    const { database, drop } = await openTestDatabase();
    const app = await buildApp({ config, database, logger: false });
    try {
      await drop();
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 0,
        message: 'Database unreachable',
        data: { ready: false, phase: 'ready', db: 'down' },
      });
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the real server process', () => {
  let child: ChildProcess | undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edcard-main-'));
  const admin = process.env.TEST_DATABASE_URL;
  const emptyDb = `edcard_h_${randomBytes(5).toString('hex')}`;
  let pgUrl: string | undefined;
  beforeAll(async () => {
    if (!admin) return;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`create database ${emptyDb}`);
    await client.end();
    pgUrl = withDatabase(admin, emptyDb);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    if (!admin) return;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`drop database if exists ${emptyDb} with (force)`);
    await client.end();
  });

  it('is not ready while migrating, ready after, and drains on SIGTERM (not ready, still serving) before it exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        DATABASE_URL: pgUrl ?? '',
        // The first start seeds the demo set: the window where health must not yet say OK.
        SEED_DEMO: '1',
        SHUTDOWN_DRAIN_SECONDS: '2',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => {
      output += d;
    });
    child.stderr!.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));

    // Each round asks an API route first, then readiness: an API answer followed by "migrating" was
    // given while migrating, so it must be the 503.
    const phases: string[] = [];
    const whileMigrating: number[] = [];
    // Every answer given after /api/health first said OK: none may be a 503.
    const afterHealthOk: string[] = [];
    let healthOk = false;
    const until = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > until || child.exitCode !== null)
        throw new Error(`server did not get ready:\n${output}`);
      const health = await fetch(`${base}/api/health`).catch(() => null);
      if (health?.status === 200) healthOk = true;
      const api = await fetch(`${base}/api/admin/get-folder-count`).catch(() => null);
      // (Pages are served from the client build, which `npm start` makes first; here it may be missing.)
      const login = await fetch(`${base}/api/admin/admin-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'x' }),
      }).catch(() => null);
      if (healthOk) for (const r of [api, login]) if (r) afterHealthOk.push(`${r.status} ${r.url}`);
      const res = await fetch(`${base}/api/health/ready`).catch(() => null);
      if (res && api) {
        const body = (await res.json()) as { data: { phase: string } };
        if (phases.at(-1) !== body.data.phase) phases.push(body.data.phase);
        if (res.status === 200) break;
        if (body.data.phase === 'migrating') whileMigrating.push(api.status);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    // Health and readiness turn OK at the same moment: readiness may be the first to be seen saying it.
    if (!healthOk) healthOk = (await fetch(`${base}/api/health`)).status === 200;
    expect(phases.at(-1)).toBe('ready');
    // PGlite migrates on the main thread, so nothing is answered meanwhile; on PostgreSQL (a fresh,
    // empty database) the window is seen.
    if (pgUrl) {
      expect(phases).toEqual(['migrating', 'ready']);
      expect(whileMigrating.length).toBeGreaterThan(0);
    }
    expect(whileMigrating.every((status) => status === 503)).toBe(true);
    expect(healthOk).toBe(true);
    expect(afterHealthOk.filter((s) => s.startsWith('503'))).toEqual([]);

    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const draining = await fetch(`${base}/api/health/ready`);
    expect(draining.status).toBe(503);
    expect(((await draining.json()) as { data: { phase: string } }).data.phase).toBe('draining');
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(await exited).toBe(0);
  }, 180_000);
});
