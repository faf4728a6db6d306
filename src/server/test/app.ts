import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import type { Role } from '../../shared/constants.js';
import { buildApp } from '../app.js';
import { createSession } from '../auth/sessions.js';
import { signStaffToken } from '../auth/tokens.js';
import { type Config, loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';
import { withDatabase } from './global-setup.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The PostgreSQL database of this app (absent on PGlite). */
  databaseUrl?: string | undefined;
  config: Config;
  /** A valid staff token for a demo user of that role. */
  tokenFor(role: DemoRole): Promise<string>;
  /** app.inject with the token of a role. */
  as(role: DemoRole, opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export type DemoRole = Role;

/**
 * A fresh database for the calling test file (a clone of the migrated template: PGlite by default,
 * PostgreSQL when TEST_DATABASE_URL is set) and the real app built on it.
 */
export async function openTestDatabase(): Promise<{
  database: Database;
  drop: () => Promise<void>;
  url?: string;
}> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `edcard_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
    const database = await openDatabase({ databaseUrl: withDatabase(url, name), poolSize: 5 });
    return {
      database,
      url: withDatabase(url, name),
      drop: async () => {
        await database.close();
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dump = await readFile(inject('pgliteTemplate'));
  const database = await openDatabase({ memory: true, loadDataDir: new Blob([dump]) });
  return { database, drop: () => database.close() };
}

export async function createTestApp(
  env: Record<string, string> = {},
  /** Pino options for a test that reads the log (default: no logging). */
  options: {
    logger?: object;
    /**
     * A second app on the same database as this one: on PostgreSQL its own pool (a second server
     * instance, for scale-out tests); on PGlite the same in-process database, left open when this
     * app closes (an app with other settings, without loading another database).
     */
    sameDatabaseAs?: TestApp;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edcard-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const other = options.sameDatabaseAs;
  const shared = other?.databaseUrl;
  const { database, drop, url } = shared
    ? await openDatabase({ databaseUrl: shared, poolSize: 5 }).then((d) => ({
        database: d,
        drop: () => d.close(),
        url: shared,
      }))
    : other
      ? { database: other.database, drop: async () => {}, url: undefined }
      : await openTestDatabase();
  const app = await buildApp({ config, database, logger: options.logger ?? false });
  await app.ready();
  const ids = new Map<Role, { id: number; name: string; tokenVersion: number }>();
  const { rows } = await database.sql.query<{
    id: number;
    name: string;
    role: Role;
    token_version: number;
  }>('select id, name, role, token_version from staff_users where deleted_at is null order by id');
  for (const r of rows)
    if (!ids.has(r.role)) ids.set(r.role, { id: r.id, name: r.name, tokenVersion: r.token_version });
  const tokenFor = async (role: DemoRole) => {
    const u = ids.get(role);
    if (!u) throw new Error(`no demo user with role ${role}`);
    // Every token belongs to a server-side session, as after a real sign-in.
    const session = await createSession(database.db, { userId: u.id, ip: '127.0.0.1', userAgent: 'test' });
    return signStaffToken(config.JWT_SECRET, {
      user: { id: u.id, name: u.name, type: role },
      tv: u.tokenVersion,
      sid: session.id,
    });
  };
  return {
    app,
    database,
    databaseUrl: url,
    config,
    tokenFor,
    as: async (role, opts) =>
      app.inject({ ...opts, headers: { ...(opts.headers ?? {}), authorization: await tokenFor(role) } }),
    close: async () => {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
