import { rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { type Database, migrateDatabase, openDatabase } from '../src/server/db/client.js';
import { seedDemo } from '../src/server/db/seed.js';
import { allCountries, countryName } from '../src/shared/countries.js';
import { type NewFeatureSamples, pickNewFeatureSamples, prepareNewFeatureData } from './new-features.js';
import { pickSelfServiceOrders, type SelfServiceOrders } from './self-service.js';

export interface DatasetOptions {
  orders: number;
  reuse: boolean;
  /** BENCH_DATABASE_URL: PostgreSQL server + base database name; unset means PGlite. */
  baseUrl?: string | undefined;
  dataRoot: string;
  log: (line: string) => void;
}

/** Values picked from the seeded data so that every call hits real rows. */
export interface Samples {
  searchId: number;
  searchEmail: string;
  nameFragment: string;
  /** ISO alpha-3 code of the most common nationality (the nationality filter row). */
  nationality: string;
  /** ISO alpha-3 code of the least common nationality in the sample (a filter that keeps few rows). */
  rareNationality: string;
  detailId: number;
  track: { orderId: number; email: string }[];
  /** The demo Admin, to sign a token directly when the login route is not there. */
  admin: { id: number; name: string; role: string; tokenVersion: number };
  /** Sent mails, charges and travellers for the inbound, webhook and intake rows. */
  newFeatures: NewFeatureSamples;
  selfService: SelfServiceOrders;
}

export interface Dataset {
  engine: 'pglite' | 'postgres';
  orders: number;
  databaseUrl?: string | undefined;
  /** DATA_DIR of the server under test (PGlite files, stored documents, JWT secret). */
  dataDir: string;
  reused: boolean;
  seedMs: number | null;
  samples: Samples;
}

/** Databases the bench must never drop or fill: the PostgreSQL server is shared. */
const PROTECTED = new Set(['postgres', 'test', 'root', 'template0', 'template1']);

/**
 * Opens (or creates and seeds) the benchmark database. Each size gets its own database
 * (`<base>_<orders>` on PostgreSQL, bench/.data/pglite-<orders> on PGlite), so --reuse finds it again.
 */
export async function prepareDataset(opts: DatasetOptions): Promise<Dataset> {
  const engine = opts.baseUrl ? 'postgres' : 'pglite';
  const dataDir = path.join(opts.dataRoot, `${engine}-${opts.orders}`);
  let databaseUrl: string | undefined;
  if (opts.baseUrl) {
    const url = new URL(opts.baseUrl);
    const base = url.pathname.replace(/^\//, '') || 'edcard_bench';
    const name = `${base}_${opts.orders}`;
    if (PROTECTED.has(base) || PROTECTED.has(name) || !/^[a-z0-9_]+$/.test(name)) {
      throw new Error(
        `BENCH_DATABASE_URL must name a database of its own (not ${base}), e.g. …/edcard_bench`,
      );
    }
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    const admin = new URL(opts.baseUrl);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      const { rows } = await client.query('select 1 from pg_database where datname = $1', [name]);
      const exists = rows.length > 0;
      if (exists && !opts.reuse) await client.query(`drop database ${name} with (force)`);
      if (!exists || !opts.reuse) await client.query(`create database ${name}`);
    } finally {
      await client.end();
    }
  } else if (!opts.reuse) {
    rmSync(dataDir, { recursive: true, force: true });
  }

  // No statement timeout: the bulk history inserts of a 1,000,000-order seed take longer than 15 s.
  const database = await openDatabase({ databaseUrl, dataDir, poolSize: 2, statementTimeoutMs: 0 });
  try {
    await migrateDatabase(database);
    let orders = await countOrders(database);
    let seedMs: number | null = null;
    const reused = opts.reuse && orders > 0;
    if (reused) {
      opts.log(`Reusing the ${engine} database with ${orders.toLocaleString('en-US')} orders.`);
    } else {
      opts.log(`Seeding ${opts.orders.toLocaleString('en-US')} orders on ${engine}…`);
      const t0 = performance.now();
      await seedDemo(database, { orders: opts.orders, dataDir, log: opts.log });
      seedMs = Math.round(performance.now() - t0);
      orders = await countOrders(database);
    }
    // Also on a reused database: one seeded before these features gets their data once.
    await prepareNewFeatureData(database, opts.log);
    // After the last write of a fresh set: this machine's PostgreSQL runs without autovacuum, so without
    // it the visibility map stays empty (every index-only scan reads the table too) and the planner
    // believes the tables as empty as they were before the bench's own rows went in.
    if (!reused) await database.sql.query('vacuum (analyze)');
    return { engine, orders, databaseUrl, dataDir, reused, seedMs, samples: await pickSamples(database) };
  } finally {
    await database.close();
  }
}

async function countOrders(database: Database): Promise<number> {
  const { rows } = await database.sql.query<{ n: string }>('select count(*)::text as n from orders');
  return Number(rows[0]?.n ?? 0);
}

async function pickSamples(database: Database): Promise<Samples> {
  const q = database.sql.query.bind(database.sql);
  const { rows: total } = await q<{ n: string }>(`select count(*)::text as n from orders`);
  const middle = Math.floor(Number(total[0]?.n ?? 0) / 2);
  const { rows: mid } = await q<{ order_id: string; email: string; last_name: string }>(
    `select order_id::text, email, last_name from orders where process_status <> 'Deleted'
     order by order_id offset $1 limit 1`,
    [middle],
  );
  // The detail call on a busy order: a document, its mail and downloads, remarks, events.
  const { rows: busy } = await q<{ order_id: string }>(
    `select d.order_id::text from documents d join download_log l on l.order_id = d.order_id
     order by d.order_id limit 1`,
  );
  const { rows: track } = await q<{ order_id: string; email: string }>(
    `select order_id::text, email from orders where process_status <> 'Deleted' order by order_id limit 20000`,
  );
  const { rows: admin } = await q<{ id: number; name: string; role: string; token_version: number }>(
    `select id, name, role, token_version from staff_users where email = 'admin@demo.test'`,
  );
  // The most common nationality among the newest orders (a sample: a full count is slow at 1M).
  const { rows: nat } = await q<{ nationality: string }>(
    `select nationality from (select nationality from orders order by created_at desc limit 20000) o
     where nationality is not null group by 1 order by count(*) desc, 1`,
  );
  const codeOf = (name: string | undefined) =>
    name && /^[A-Z]{3}$/.test(name)
      ? name
      : (allCountries().find((c) => countryName(c.alpha3) === name)?.alpha3 ?? 'USA');
  const natCode = codeOf(nat[0]?.nationality);
  const rareCode = codeOf(nat[nat.length - 1]?.nationality);
  const a = admin[0];
  if (!a) throw new Error('The benchmark database has no demo Admin (admin@demo.test).');
  const m = mid[0];
  if (!m) throw new Error('The benchmark database holds no orders.');
  const newFeatures = await pickNewFeatureSamples(database);
  const lastName = m.last_name.toLowerCase();
  return {
    searchId: Number(m.order_id),
    searchEmail: m.email,
    nameFragment: lastName.length > 5 ? lastName.slice(1, 5) : lastName.slice(0, 4),
    nationality: natCode,
    rareNationality: rareCode,
    detailId: Number(busy[0]?.order_id ?? m.order_id),
    track: track.map((r) => ({ orderId: Number(r.order_id), email: r.email })),
    admin: { id: a.id, name: a.name, role: a.role, tokenVersion: a.token_version },
    newFeatures,
    selfService: await pickSelfServiceOrders(
      database,
      newFeatures.travellers.map((t) => t.passport),
    ),
  };
}
