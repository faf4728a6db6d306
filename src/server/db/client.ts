import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { syncEnumChecks } from './enum-checks.js';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction or the database itself: query modules accept either. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** A raw SQL runner shared by the job queue and the benchmark's direct-SQL reference. */
export interface SqlRunner {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

export interface Database {
  db: Db;
  /** The embedded instance (tests dump it as a template); absent on PostgreSQL. */
  pglite?: PGlite;
  kind: 'pglite' | 'postgres';
  sql: SqlRunner;
  /** Cheap liveness probe for /api/health. */
  ping(): Promise<void>;
  /** Applies the committed migrations (no statement timeout: a migration may rewrite big tables). */
  migrate(): Promise<void>;
  /** Connections of the PostgreSQL pool (metrics); absent on PGlite (one in-process connection). */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * Subscribes to a NOTIFY channel: payloads of committed transactions, from every server instance on
   * this database. Answers the unsubscribe function.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Calls `listener` after every transaction of this process's `db.transaction` commits (read-only ones
   * excepted), before its
   * caller goes on: in-process caches drop what the change may touch before the response leaves,
   * without waiting for the notification above. Answers the unsubscribe function.
   */
  onCommit(listener: () => void): () => void;
  /**
   * PostgreSQL only: the database through a small pool of its own whose connections cancel any
   * statement after `timeoutMs` (one pool per value, made when first asked for). Reads that may scan
   * far run here without a transaction around each to set the limit.
   */
  timedDb?(timeoutMs: number): Db;
  close(): Promise<void>;
}

/** Wraps `db.transaction` so that each commit calls the listeners (see Database.onCommit). */
function hookCommits(db: Db): Database['onCommit'] {
  const listeners = new Set<() => void>();
  const transaction = db.transaction.bind(db);
  db.transaction = (async (...args: Parameters<Db['transaction']>) => {
    const result = await transaction(...args);
    // A read-only transaction changed nothing (PostgreSQL refuses its writes).
    if (args[1]?.accessMode !== 'read only') for (const l of listeners) l();
    return result;
  }) as Db['transaction'];
  return (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');

export class DataDirLockedError extends Error {}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** Load a migrated data dir dump (tests clone a template this way). */
  loadDataDir?: Blob | File | undefined;
  /** Skip the folder lock (in-memory databases have nothing to lock). */
  memory?: boolean;
  poolSize?: number;
  /** PostgreSQL statement timeout; 0 turns it off (bulk seeding). Default 15 s for request traffic. */
  statementTimeoutMs?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl)
    return openPostgres(opts.databaseUrl, opts.poolSize ?? 10, opts.statementTimeoutMs ?? 15_000);
  return openPglite(opts);
}

function postgresPool(url: string, max: number, statementTimeoutMs: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 3000,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    idle_in_transaction_session_timeout: 30_000,
  });
  // A pool error (server restart) must not crash the process; requests fail fast and reconnect.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

async function openPostgres(url: string, max: number, statementTimeoutMs: number): Promise<Database> {
  const pool = postgresPool(url, max, statementTimeoutMs);
  const db = drizzlePg(pool, { schema });
  const timed = new Map<number, { pool: pg.Pool; db: Db }>();
  return {
    timedDb: (timeoutMs) => {
      let t = timed.get(timeoutMs);
      if (!t) {
        const p = postgresPool(url, Math.max(2, Math.ceil(max / 2)), Math.max(1, Math.round(timeoutMs)));
        t = { pool: p, db: drizzlePg(p, { schema }) };
        timed.set(timeoutMs, t);
      }
      return t.db;
    },
    db,
    onCommit: hookCommits(db),
    kind: 'postgres',
    sql: { query: async (text, params) => pool.query(text, params as unknown[]) as never },
    ping: async () => {
      await pool.query('select 1');
    },
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('set statement_timeout = 0');
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('reset statement_timeout').catch(() => {});
        client.release();
      }
    },
    listen: (channel, onPayload) => listenPostgres(url, channel, onPayload),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    close: async () => {
      await Promise.all([...timed.values()].map((t) => t.pool.end()));
      await pool.end();
    },
  };
}

/**
 * LISTEN needs a session of its own (a pooled connection would drop it). The connection is re-opened
 * with backoff when PostgreSQL restarts; changes committed while it was down are not replayed, so the
 * screens refetch when their stream reconnects.
 */
async function listenPostgres(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (delay: number): Promise<void> => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
    });
    c.on('error', () => {
      void c.end().catch(() => {});
      if (client === c) client = null;
      if (!stopped) retry = setTimeout(() => void connect(Math.min(delay * 2, 10_000)), delay);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = c;
    } catch {
      await c.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(Math.min(delay * 2, 10_000)), delay);
    }
  };
  await connect(250);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  let release: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (!opts.memory) {
    if (!opts.dataDir) throw new Error('dataDir is required for an on-disk PGlite database');
    dataDir = path.join(path.resolve(opts.dataDir), 'pglite');
    mkdirSync(dataDir, { recursive: true });
    release = await lockDataDir(dataDir);
  }
  try {
    const client = await PGlite.create({
      dataDir,
      extensions: { pg_trgm },
      loadDataDir: opts.loadDataDir,
    });
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    const migrate = () =>
      migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    return {
      migrate,
      db,
      onCommit: hookCommits(db),
      pglite: client,
      kind: 'pglite',
      sql: { query: (text, params) => client.query(text, params) as never },
      ping: async () => {
        await client.query('select 1');
      },
      listen: async (channel, onPayload) => client.listen(channel, onPayload),
      close: async () => {
        await client.close();
        await release?.();
      },
    };
  } catch (err) {
    await release?.();
    throw err;
  }
}

/**
 * PGlite has no lock between processes: two servers on one folder lose writes silently. The lock is a
 * directory beside the data folder, with the owner's pid in a file beside it, so a lock left by a killed process is taken
 * over at once instead of blocking the next start.
 */
async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const options = {
    stale: 15_000,
    update: 5_000,
    retries: 0,
    realpath: false,
    onCompromised: (err: Error) => {
      console.error(`The PGlite data folder lock was lost (${err.message}); stopping to protect the data.`);
      process.exit(1);
    },
  };
  const pidFile = `${dir}.owner-pid`;
  try {
    const release = await lockfile.lock(dir, options);
    writeFileSync(pidFile, String(process.pid));
    return release;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    if (ownerIsGone(pidFile)) {
      rmSync(`${dir}.lock`, { recursive: true, force: true });
      const release = await lockfile.lock(dir, options);
      writeFileSync(pidFile, String(process.pid));
      return release;
    }
    throw new DataDirLockedError(
      `The data folder ${dir} is in use by another ED-Card process. Stop it first, or set DATA_DIR to another folder (or DATABASE_URL to use PostgreSQL).`,
    );
  }
}

function ownerIsGone(pidFile: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8'));
  } catch {
    return false; // no pid yet: the owner is still starting
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The migrations, then the checks of closed value lists as the shared constants say (decision 338). */
export async function migrateDatabase(database: Database): Promise<void> {
  await database.migrate();
  await syncEnumChecks(database.db);
}
