import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { type Database, migrateDatabase, openDatabase } from '../../db/client.js';
import { buildOrder } from '../factories.js';
import { PrivateCluster, postgresBinDir } from './pg-cluster.js';

/**
 * Faults (docs/security.md): PostgreSQL restarted in the middle of load. Requests fail fast with 503 during the
 * outage, the server recovers by itself, and every write that was acknowledged is still there.
 */
const KEY = 'fault-intake-key-0123456789abcdef';
// Runs its own private cluster: nothing to repeat in the PostgreSQL pass of the suites.
const canRun = !!postgresBinDir() && !process.env.TEST_DATABASE_URL;

describe.skipIf(!canRun)('PostgreSQL restart under load', () => {
  let cluster: PrivateCluster;
  let database: Database;
  let app: FastifyInstance;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edcard-fault-'));

  beforeAll(async () => {
    cluster = new PrivateCluster(55_400 + (process.pid % 500));
    cluster.start();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.url,
      JWT_SECRET: 'fault-test-secret-long-enough-for-hs256',
      INTAKE_API_KEY: KEY,
      LOG_LEVEL: 'silent',
    });
    database = await openDatabase({ databaseUrl: cluster.url, poolSize: 5 });
    await migrateDatabase(database);
    app = await buildApp({ config, database, logger: false });
    await app.ready();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await database?.close();
    cluster?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 fast while down, recovers, and loses no acknowledged order', async () => {
    const acknowledged: number[] = [];
    const outageAnswers: { status: number; ms: number }[] = [];
    let phase: 'before' | 'down' | 'after' = 'before';
    let stop = false;

    const worker = async () => {
      while (!stop) {
        const started = Date.now();
        const res = await app.inject({
          method: 'POST',
          url: '/api/intake/orders',
          headers: { 'x-intake-key': KEY },
          payload: buildOrder(),
        });
        const ms = Date.now() - started;
        if (res.statusCode === 200 && res.json().status === 1) acknowledged.push(res.json().data.order_id);
        else if (phase === 'down') outageAnswers.push({ status: res.statusCode, ms });
        else if (res.statusCode !== 503) throw new Error(`unexpected ${res.statusCode}: ${res.body}`);
        await new Promise((r) => setTimeout(r, phase === 'down' ? 20 : 40));
      }
    };
    const workers = Array.from({ length: 4 }, worker);

    await new Promise((r) => setTimeout(r, 1500));
    const beforeOutage = acknowledged.length;
    cluster.stop();
    phase = 'down';
    await new Promise((r) => setTimeout(r, 2000));
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    cluster.start();
    phase = 'after';
    const restartedAt = acknowledged.length;
    await new Promise((r) => setTimeout(r, 3000));
    stop = true;
    await Promise.all(workers);

    expect(beforeOutage).toBeGreaterThan(0);
    expect(health.statusCode).toBe(503);
    expect(outageAnswers.length).toBeGreaterThan(0);
    for (const answer of outageAnswers) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeLessThan(3500);
    }
    // Recovered by itself: new writes were acknowledged after the restart.
    expect(acknowledged.length).toBeGreaterThan(restartedAt);

    const { rows } = await database.sql.query<{ order_id: number }>(
      'select order_id from orders where order_id = any($1::bigint[])',
      [acknowledged],
    );
    const stored = new Set(rows.map((r) => Number(r.order_id)));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 60_000);
});
