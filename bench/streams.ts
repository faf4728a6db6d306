import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SseParser } from '../src/client/live/sse.js';
import { prepareDataset } from './dataset.js';
import type { MemorySample, ReadyMessage } from './server.js';

/**
 * Live event streams on one instance: N open staff streams (GET /api/admin/events), the server's memory
 * per stream, and the time from a committed change of an order to its `order` event at the last of the
 * N streams (p50/p99 over many changes). Run with `npm run bench -- --streams [--stream-count N]` (PostgreSQL:
 * BENCH_STREAMS_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/edcard_streams); it creates a fresh
 * database `<name>_<orders>`, migrates and seeds it with the app's own code, and forks the real server
 * (bench/server.ts). The figures go to bench/streams.md, which bench/RESULTS.md includes.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    'stream-count': { type: 'string', default: '1000' },
    changes: { type: 'string', default: '200' },
    'interval-ms': { type: 'string', default: '600' },
    orders: { type: 'string', default: '2000' },
    'dry-run': { type: 'boolean', default: false },
  },
  strict: false,
});
const STREAMS = Number(args['stream-count']);
const CHANGES = Number(args.changes);
const INTERVAL_MS = Number(args['interval-ms']);
const ORDERS = Number(args.orders);
const REFERENCE_CHANGES = 50;
const baseUrl =
  process.env.BENCH_STREAMS_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/edcard_streams';
const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** The forked server (bench/server.ts: the app as main.ts builds it) and its memory call. */
class Server {
  private next = 1;
  private pending = new Map<number, (v: unknown) => void>();
  constructor(
    readonly child: ChildProcess,
    readonly ready: ReadyMessage,
  ) {
    child.on('message', (msg: { type: string; id: number; result?: unknown }) => {
      if (msg.type !== 'reply') return;
      this.pending.get(msg.id)?.(msg.result);
      this.pending.delete(msg.id);
    });
  }
  static async start(databaseUrl: string, dataDir: string): Promise<Server> {
    const child = fork(path.join(HERE, 'server.ts'), [], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        JWT_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'true',
        // 1,000 streams over 4 staff sessions: far beyond the caps meant for one browser.
        LIVE_STREAMS_PER_SESSION: '1000',
        LIVE_STREAMS_PER_USER: '1000',
      },
      execArgv: [...process.execArgv, '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    const ready = await new Promise<ReadyMessage>((resolve, reject) => {
      child.once('message', (m: ReadyMessage) => resolve(m));
      child.once('exit', (code) => reject(new Error(`The server exited (code ${code}) before it was ready`)));
    });
    return new Server(child, ready);
  }
  call<T>(msg: { type: 'memory'; gc?: boolean } | { type: 'stop' }): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve) => {
      this.pending.set(id, resolve as (v: unknown) => void);
      this.child.send({ ...msg, id });
    });
  }
  async memory(): Promise<MemorySample> {
    // Two collections apart: what is still held, not what awaits collection.
    await this.call({ type: 'memory', gc: true });
    await sleep(300);
    return this.call<MemorySample>({ type: 'memory', gc: true });
  }
  async stop() {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.call({ type: 'stop' }).catch(() => {});
    await Promise.race([exited, sleep(10_000)]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

async function login(port: number, email: string, n: number): Promise<string> {
  const body = JSON.stringify({ email, password: 'demo-password' });
  const res = await fetch(`http://127.0.0.1:${port}/api/admin/admin-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${n}` },
    body,
  });
  const json = (await res.json()) as { jwtToken?: string; message?: string };
  if (!json.jwtToken) throw new Error(`Login of ${email} failed: ${res.status} ${json.message}`);
  return json.jwtToken;
}

/** One open stream: the arrival time of each `order` event, by "orderId:version". */
interface Stream {
  arrivals: Map<string, number>;
  close: () => void;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
function openStream(port: number, token: string, n: number): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const arrivals = new Map<string, number>();
    const req = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/api/admin/events',
        agent,
        headers: {
          authorization: token,
          accept: 'text/event-stream',
          'x-forwarded-for': `198.51.100.${n % 250}`,
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream ${n} answered ${res.statusCode}`));
          res.resume();
          return;
        }
        const parser = new SseParser();
        res.setEncoding('utf8');
        let opened = false;
        res.on('data', (chunk: string) => {
          const now = performance.now();
          for (const e of parser.feed(chunk)) {
            if (e.event === 'counts' && !opened) {
              opened = true;
              resolve({ arrivals, close: () => req.destroy() });
            } else if (e.event === 'order') {
              const d = JSON.parse(e.data) as { orderId: number; version: number };
              arrivals.set(`${d.orderId}:${d.version}`, now);
            }
          }
        });
      },
    );
    req.on('error', reject);
  });
}

/**
 * One committed transaction per order (an assignment and its order event, as the app writes them; the
 * trigger raises the version and publishes at commit), spaced apart; for each, the time from COMMIT's
 * return to its event on each stream.
 */
async function measureChanges(pool: pg.Pool, orderIds: number[], streams: Stream[]) {
  const { rows: staffRows } = await pool.query<{ id: number }>(
    `select id from staff_users where email = 'team@demo.test'`,
  );
  const actor = staffRows[0]!.id;
  const sent: { key: string; committedAt: number }[] = [];
  for (const [i, orderId] of orderIds.entries()) {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('update orders set assigned_to = $1, updated_at = now() where order_id = $2', [
        actor,
        orderId,
      ]);
      await client.query(
        `insert into order_events (order_id, actor_id, action, from_value, to_value) values ($1, $2, 'assign', null, $3)`,
        [orderId, actor, String(actor)],
      );
      const { rows: v } = await client.query<{ version: number }>(
        'select version from orders where order_id = $1',
        [orderId],
      );
      await client.query('commit');
      sent.push({ key: `${orderId}:${v[0]!.version}`, committedAt: performance.now() });
    } finally {
      client.release();
    }
    if (i % 50 === 49) log(`  ${i + 1} changes`);
    await sleep(INTERVAL_MS);
  }
  await sleep(3000);
  const toLast: number[] = [];
  const each: number[] = [];
  let missing = 0;
  for (const s of sent) {
    let last = 0;
    for (const stream of streams) {
      const at = stream.arrivals.get(s.key);
      if (at === undefined) {
        missing++;
        continue;
      }
      each.push(at - s.committedAt);
      last = Math.max(last, at - s.committedAt);
    }
    toLast.push(last);
  }
  toLast.sort((a, b) => a - b);
  each.sort((a, b) => a - b);
  return { toLast, each, missing, count: sent.length };
}

async function main() {
  const loadBefore = os.loadavg();
  log(`Preparing a fresh PostgreSQL database with ${ORDERS} orders…`);
  const dataset = await prepareDataset({
    orders: ORDERS,
    reuse: false,
    baseUrl,
    dataRoot: path.join(HERE, '.data'),
    log,
  });
  const databaseUrl = dataset.databaseUrl!;
  const server = await Server.start(databaseUrl, dataset.dataDir);
  const port = server.ready.appPort;
  const streams: Stream[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const emails = ['admin@demo.test', 'manager@demo.test', 'team@demo.test', 'telecaller@demo.test'];
    const tokens: string[] = [];
    for (const [i, email] of emails.entries()) tokens.push(await login(port, email, i + 1));

    // One warm stream first, so the baseline holds the hub, its LISTEN connection and the route code.
    const warm = await openStream(port, tokens[0]!, 0);
    await sleep(500);
    // The reference of the same run: the same changes with this one stream open.
    const { rows: first } = await pool.query<{ order_id: string }>(
      `select order_id::text from orders where process_status = 'New' and assigned_to is null
       order by order_id limit $1`,
      [REFERENCE_CHANGES],
    );
    log(`Reference: ${REFERENCE_CHANGES} changes with one stream open…`);
    const reference = await measureChanges(
      pool,
      first.map((r) => Number(r.order_id)),
      [warm],
    );
    const before = await server.memory();
    log(`Opening ${STREAMS} streams…`);
    const t0 = performance.now();
    for (let i = 0; i < STREAMS; i += 50) {
      const batch = Array.from({ length: Math.min(50, STREAMS - i) }, (_, j) =>
        openStream(port, tokens[(i + j) % tokens.length]!, i + j + 1),
      );
      streams.push(...(await Promise.all(batch)));
    }
    const openMs = performance.now() - t0;
    await sleep(1000);
    const after = await server.memory();

    const { rows: picked } = await pool.query<{ order_id: string }>(
      `select order_id::text from orders where process_status = 'New' and assigned_to is null
       order by order_id limit $1`,
      [CHANGES + REFERENCE_CHANGES],
    );
    const ids = picked.map((r) => Number(r.order_id));
    log(`Making ${CHANGES} changes, one every ${INTERVAL_MS} ms…`);
    const { toLast, each, missing, count } = await measureChanges(
      pool,
      ids.slice(REFERENCE_CHANGES),
      streams,
    );
    const loadAfter = os.loadavg();
    const perStream = {
      rss: (after.rss - before.rss) / STREAMS,
      heap: (after.heapUsed - before.heapUsed) / STREAMS,
    };
    const fig = {
      date: new Date().toISOString(),
      streams: STREAMS,
      changes: count,
      oneStreamP50: quantile(reference.toLast, 0.5),
      oneStreamP99: quantile(reference.toLast, 0.99),
      referenceChanges: reference.count,
      openMs: Math.round(openMs),
      rssBeforeMb: before.rss / 2 ** 20,
      rssAfterMb: after.rss / 2 ** 20,
      perStreamRssKb: perStream.rss / 1024,
      perStreamHeapKb: perStream.heap / 1024,
      lastP50: quantile(toLast, 0.5),
      lastP99: quantile(toLast, 0.99),
      lastMax: toLast.at(-1) ?? Number.NaN,
      eachP50: quantile(each, 0.5),
      eachP99: quantile(each, 0.99),
      missing,
      loadBefore,
      loadAfter,
      cpus: os.cpus().length,
      node: process.version,
    };
    log(JSON.stringify(fig, null, 2));
    if (!args['dry-run']) writeFigures(fig);
    warm.close();
  } finally {
    for (const s of streams) s.close();
    agent.destroy();
    await pool.end();
    await server.stop();
  }
}

type Figures = Record<string, number | string | number[]>;
const f1 = (n: unknown) => (typeof n === 'number' ? n.toFixed(1) : String(n));

/** bench/streams.md (kept by `npm run bench` in RESULTS.md) and the same section in RESULTS.md now. */
function writeFigures(fig: Figures) {
  const load = (l: unknown) => (l as number[]).map((x) => x.toFixed(1)).join(' / ');
  const section = [
    '## Live event streams (`npm run bench -- --streams`)',
    '',
    `Run ${String(fig.date).slice(0, 16).replace('T', ' ')} UTC on PostgreSQL (a fresh database, ${ORDERS.toLocaleString('en-US')} seeded orders), one server instance, node ${fig.node}, ${fig.cpus} cores shared with the other engineers (load average 1/5/15 min: ${load(fig.loadBefore)} before, ${load(fig.loadAfter)} after). The bench process holding the ${fig.streams} client streams runs on the same cores.`,
    '',
    '| Figure | Value | Target |',
    '|---|---|---|',
    `| Open streams (4 staff users) | ${fig.streams} (opened in ${fig.openMs} ms) | 1,000 |`,
    `| Server memory per stream (RSS, after GC) | ${f1(fig.perStreamRssKb)} KB (${f1(fig.rssBeforeMb)} → ${f1(fig.rssAfterMb)} MB) | — |`,
    `| Server heap per stream (after GC) | ${f1(fig.perStreamHeapKb)} KB | — |`,
    `| Committed change → event at the last stream, p50 | ${f1(fig.lastP50)} ms | — |`,
    `| Committed change → event at the last stream, p99 | ${f1(fig.lastP99)} ms (max ${f1(fig.lastMax)} ms, ${fig.changes} changes) | ≤ 250 ms |`,
    `| Committed change → event at any one stream, p50 / p99 | ${f1(fig.eachP50)} / ${f1(fig.eachP99)} ms | — |`,
    `| Reference, same run: one open stream, p50 / p99 | ${f1(fig.oneStreamP50)} / ${f1(fig.oneStreamP99)} ms (${fig.referenceChanges} changes) | — |`,
    `| Events missing | ${fig.missing} of ${Number(fig.changes) * Number(fig.streams)} | 0 |`,
    '',
    'How it is measured: each change is one transaction (an assignment and its order event, as the app',
    'writes them) committed through `pg`; the clock starts when COMMIT returns and stops when the `order`',
    'event with that version has been read on a stream (same process, same clock). Changes are spaced',
    `${INTERVAL_MS} ms apart, so each change and the counts it causes (recomputed per distinct user,`,
    'coalesced over 300 ms, then sent to every stream) are done before the next one. The reference row',
    'is the same kind of change with one stream open, measured minutes apart in the same run.',
    'RSS per stream is the noisier figure (the allocator keeps freed pages; 21–56 KB across runs on this',
    'machine); the heap per stream (13–14 KB) is the steadier one. Without the 1,000 streams the same change',
    'reaches its one stream in about a millisecond: the rest is writing each event to 1,000 sockets and',
    'reading them back in one process, on 2 cores under a load average of 10–16.',
  ].join('\n');
  writeFileSync(path.join(HERE, 'streams.md'), `${section}\n`);
  const results = path.join(HERE, 'RESULTS.md');
  if (existsSync(results)) {
    const text = readFileSync(results, 'utf8');
    const start = text.indexOf('## Live event streams');
    const without = start < 0 ? text : text.slice(0, start).trimEnd();
    const rest = start < 0 ? '' : text.slice(start).replace(/^## Live event streams[\s\S]*?(?=\n## |$)/, '');
    writeFileSync(results, `${without.trimEnd()}\n\n${section}\n${rest.trim() ? `\n${rest.trim()}\n` : ''}`);
  }
  log('Written: bench/streams.md, bench/RESULTS.md');
}

await main();
