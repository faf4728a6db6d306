import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/client.js';
import { backgroundJobs } from '../src/server/jobs.js';
import { type JobRequest, runJob } from './jobs.js';
import {
  type CapturedQuery,
  CAPTURE_HEADER,
  captureQueries,
  inRequest,
  measurePlan,
  type QueryPlan,
  type RawRunner,
} from './sql-capture.js';

/**
 * The server under test, forked by bench/run.ts: the real app exactly as main.ts builds it (same
 * plugins, guard and background jobs), plus the two references of the same run — a bare Fastify
 * hello-world in this process (the framework's ceiling) and a raw-SQL runner (the database's floor).
 * It talks to the bench over the IPC channel.
 */
export type BenchRequest =
  | { id: number; type: 'capture-start'; captureId: string }
  | { id: number; type: 'capture-stop' }
  | { id: number; type: 'memory'; gc?: boolean }
  | { id: number; type: 'raw'; plan: QueryPlan; durationMs: number }
  /** One statement of the bench's own (a row's data between its phases), straight through the driver. */
  | { id: number; type: 'exec'; text: string; params?: unknown[] }
  /** One of the sixth round's background jobs, run and timed in this process (bench/jobs.ts). */
  | { id: number; type: 'job'; request: JobRequest }
  | { id: number; type: 'profile-start' }
  | { id: number; type: 'profile-stop'; file: string }
  | { id: number; type: 'stop' };

export interface ReadyMessage {
  type: 'ready';
  appPort: number;
  helloPort: number;
  engine: 'pglite' | 'postgres';
  routes: { method: string; url: string }[];
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
  external: number;
}

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
type Client = Parameters<typeof captureQueries>[0];
const capture = captureQueries((database.db as unknown as { $client: Client }).$client);
// Reads under the list time limit go through a pool of their own: captured the same way.
const timedDb = database.timedDb?.bind(database);
if (timedDb) {
  const added = new WeakSet<object>();
  database.timedDb = (ms) => {
    const d = timedDb(ms);
    if (!added.has(d)) {
      added.add(d);
      capture.add((d as unknown as { $client: Client }).$client);
    }
    return d;
  };
}

const app = await buildApp({ config, database, logger: { level: config.LOG_LEVEL } });
// The same hello-world once more behind the app's own plugins (helmet headers, hooks): what every route pays.
app.get('/__bench/hello', { config: { public: true } }, async () => ({ hello: 'world' }));
// A captured request runs inside `inRequest`, from the first hook on (the guard's lookup included).
// Only that one: while an AsyncLocalStorage is in use, Node runs a hook on every promise of the
// process, a cost no production request pays (the capture turns it off again when it stops).
const handlers = app.server.listeners('request') as ((...a: unknown[]) => void)[];
app.server.removeAllListeners('request');
for (const handler of handlers) {
  app.server.on('request', (...a: unknown[]) => {
    const header = (a[0] as { headers: Record<string, string | string[] | undefined> }).headers[
      CAPTURE_HEADER
    ];
    if (typeof header === 'string' && header) inRequest.run(header, () => handler(...a));
    else handler(...a);
  });
}
const stops: (() => Promise<void>)[] = [];
for (const job of backgroundJobs) stops.push(await job(app));
await app.listen({ port: 0, host: '127.0.0.1' });

const hello = Fastify({ logger: false });
hello.get('/hello', async () => ({ hello: 'world' }));
await hello.listen({ port: 0, host: '127.0.0.1' });

// The floor goes straight through the driver: a plain pg.Pool on PostgreSQL, the PGlite instance itself.
const rawPool = config.DATABASE_URL ? new pg.Pool({ connectionString: config.DATABASE_URL, max: 4 }) : null;
const raw: RawRunner = rawPool
  ? { query: (text, params) => rawPool.query(text, params) }
  : { query: (text, params) => database.pglite!.query(text, params) };

const portOf = (server: typeof hello) => {
  const address = server.server.address();
  return typeof address === 'object' && address ? address.port : 0;
};

const ready: ReadyMessage = {
  type: 'ready',
  appPort: portOf(app as unknown as typeof hello),
  helloPort: portOf(hello),
  engine: database.kind,
  routes: app.routeTable.map((r) => ({ method: r.method, url: r.url })),
};
process.send?.(ready);

let profiler: inspector.Session | undefined;
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    profiler!.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result))),
  );

const memory = (): MemorySample => {
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external };
};

async function handle(msg: BenchRequest): Promise<unknown> {
  switch (msg.type) {
    case 'capture-start':
      capture.start(msg.captureId);
      return null;
    case 'capture-stop':
      return capture.stop() satisfies CapturedQuery[];
    case 'memory': {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (msg.gc && gc) gc();
      return memory();
    }
    case 'raw':
      return measurePlan(raw, msg.plan, msg.durationMs);
    case 'exec':
      return ((await raw.query(msg.text, msg.params ?? [])) as { rows: unknown[] }).rows;
    case 'job':
      return runJob(
        {
          db: app.ctx.db,
          config: app.ctx.config,
          query: async <T>(text: string, params?: unknown[]) =>
            ((await raw.query(text, params ?? [])) as { rows: T[] }).rows,
        },
        msg.request,
      );
    case 'profile-start':
      // The CPU profile of one row only (bench --profile): the inspector's sampling profiler.
      profiler ??= new inspector.Session();
      profiler.connect();
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 100 });
      await post('Profiler.start');
      return null;
    case 'profile-stop': {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(msg.file, JSON.stringify(profile));
      profiler?.disconnect();
      return msg.file;
    }
    case 'stop':
      await app.close();
      await hello.close();
      for (const stop of stops) await stop();
      await rawPool?.end();
      await database.close();
      setImmediate(() => process.exit(0));
      return null;
  }
}

process.on('message', (msg: BenchRequest) => {
  handle(msg).then(
    (result) => process.send?.({ type: 'reply', id: msg.id, result }),
    (err: Error) => process.send?.({ type: 'reply', id: msg.id, error: err.message }),
  );
});
process.on('disconnect', () => process.exit(0));
