import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../test/global-setup.js';
import { type Database, migrateDatabase, openDatabase } from './client.js';
import { demoSeedDecision, seedDemoOnStart } from './seed-policy.js';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edcard-seed-policy-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const staffCount = async (database: Database) =>
  Number((await database.sql.query<{ n: string }>('select count(*)::text as n from staff_users')).rows[0]!.n);
const orderCount = async (database: Database) =>
  Number((await database.sql.query<{ n: string }>('select count(*)::text as n from orders')).rows[0]!.n);

describe('demo seed at start-up', () => {
  it('seeds unasked only the embedded database outside production; SEED_DEMO decides otherwise', () => {
    const dev = { NODE_ENV: 'development' as const, SEED_DEMO: undefined };
    expect(demoSeedDecision('pglite', dev).seed).toBe(true);
    expect(demoSeedDecision('postgres', dev)).toEqual({
      seed: false,
      reason: 'empty PostgreSQL database: no demo data (set SEED_DEMO=1 or run `npm run db:seed` to add it)',
    });
    expect(demoSeedDecision('pglite', { ...dev, NODE_ENV: 'production' }).seed).toBe(false);
    expect(demoSeedDecision('postgres', { ...dev, NODE_ENV: 'production' }).seed).toBe(false);
    expect(demoSeedDecision('postgres', { ...dev, SEED_DEMO: true }).seed).toBe(true);
    expect(demoSeedDecision('pglite', { ...dev, NODE_ENV: 'production', SEED_DEMO: true }).seed).toBe(true);
    expect(demoSeedDecision('pglite', { ...dev, SEED_DEMO: false }).seed).toBe(false);
  });

  it('seeds a fresh embedded database on its first start, and never a second time', async () => {
    const database = await openDatabase({ memory: true });
    try {
      await migrateDatabase(database);
      const lines: string[] = [];
      const config = { NODE_ENV: 'development' as const, SEED_DEMO: undefined, DATA_DIR: dataDir };
      expect(await seedDemoOnStart(database, config, (l) => lines.push(l), 20)).toBe(true);
      expect(await staffCount(database)).toBeGreaterThan(0);
      const orders = await orderCount(database);
      expect(orders).toBeGreaterThan(0);
      expect(await seedDemoOnStart(database, config, (l) => lines.push(l), 20)).toBe(false);
      expect(await orderCount(database)).toBe(orders);
      expect(lines[0]).toMatch(/^Empty database: seeding the demo set/);
    } finally {
      await database.close();
    }
  });

  // A real, empty PostgreSQL database (the server suites run on PostgreSQL in CI with TEST_DATABASE_URL).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'leaves an empty PostgreSQL database empty unless SEED_DEMO=1 asks for the demo set',
    async () => {
      const url = process.env.TEST_DATABASE_URL!;
      const name = `edcard_seed_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const database = await openDatabase({ databaseUrl: withDatabase(url, name), poolSize: 2 });
      try {
        await migrateDatabase(database);
        const lines: string[] = [];
        const dev = { NODE_ENV: 'development' as const, SEED_DEMO: undefined, DATA_DIR: dataDir };
        expect(await seedDemoOnStart(database, dev, (l) => lines.push(l), 20)).toBe(false);
        expect(await staffCount(database)).toBe(0);
        expect(await orderCount(database)).toBe(0);
        expect(lines).toEqual([
          'Empty database, not seeded: empty PostgreSQL database: no demo data (set SEED_DEMO=1 or run `npm run db:seed` to add it).',
        ]);
        expect(await seedDemoOnStart(database, { ...dev, SEED_DEMO: true }, () => {}, 20)).toBe(true);
        expect(await staffCount(database)).toBeGreaterThan(0);
      } finally {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );
});
