import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FOLDER_COUNT_KEYS, FOLDERS, MAX_PAGE_SIZE } from '../src/shared/constants.js';
import { type Dataset, prepareDataset } from './dataset.js';
import { customerReply, disputeEvent, intakeOrder } from './new-features.js';
import { nextCorrection, nextRating, refreshVersions, selfServiceSamples } from './self-service.js';
import { createMachineKeys, sixthRoundRows } from './sixth-round.js';
import { JOB_ROW_KEYS, measureJobRows } from './sixth-round-jobs.js';
import { growthMarkdown } from './growth.js';
import { runLighthouse } from './lighthouse.js';
import { profileMarkdown } from './profile.js';
import { bodyText, type LoadResult, runLoad, type Scenario } from './load.js';
import {
  type AllRowsResult,
  type EndpointResult,
  evaluate,
  type Kind,
  type MemoryReport,
  type ResultsFile,
  type Run,
  type ScaleResult,
  resultsMarkdown,
  runMarkdown,
} from './report.js';
import type { BenchRequest, MemorySample, ReadyMessage } from './server.js';
import { CAPTURE_HEADER, type CapturedQuery, planOf, type RawStats } from './sql-capture.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    soak: { type: 'string' },
    engines: { type: 'string' },
    'no-browser': { type: 'boolean', default: false },
    'client-dist': { type: 'string' },
    out: { type: 'string' },
    only: { type: 'string' },
    'seed-only': { type: 'boolean', default: false },
    // Live event streams instead (bench/streams.ts, its own options).
    streams: { type: 'boolean', default: false },
    'stream-count': { type: 'string' },
    changes: { type: 'string' },
    'interval-ms': { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    // Writes a V8 CPU profile of the server while the named row is measured, and its summary.
    profile: { type: 'string' },
    // Skips the two-instances rows (PostgreSQL only).
    'no-scale': { type: 'boolean', default: false },
    // Every indexed row at each of these sizes, one after the other: bench/growth.md (decision 342).
    growth: { type: 'string' },
    // How many times each size is measured (alternating sizes); the growth table takes the medians.
    repeat: { type: 'string', default: '1' },
    // Writes RESULTS.md again from results.json and the notes (after editing bench/notes.md), measuring nothing.
    'write-only': { type: 'boolean', default: false },
  },
});
if (args.streams) {
  await import('./streams.js');
  process.exit(0);
}

const log = (line: string) => console.log(line);
const baseUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
const engines = (args.engines ?? (baseUrl ? 'postgres' : 'pglite')).split(',').map((s) => s.trim());
if (engines.includes('postgres') && !baseUrl) {
  console.error('PostgreSQL needs BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/edcard_bench');
  process.exit(2);
}
const quick = args.quick;
const durations = quick
  ? { throughputS: 1, latencyS: 0.6, rawS: 0.3, warmS: 0.3 }
  : { throughputS: 5, latencyS: 5, rawS: 2, warmS: 1 };
const soakSeconds = args.soak ? Number(args.soak) : 0;
const browser = !quick && !args['no-browser'];
const clientDist = path.resolve(args['client-dist'] ?? path.join(ROOT, 'dist/client'));
// A quick run proves the benchmark works; it never overwrites the recorded figures.
const outDir = path.resolve(args.out ?? (quick ? path.join(HERE, '.data') : HERE));
const dataRoot = path.join(HERE, '.data');
const profileKey = args.profile?.trim() || undefined;
const profileDir = path.join(dataRoot, 'profiles');

/** Secrets of the server under test's outside doors (inbound mail, Stripe webhooks, the intake), per run. */
const doors = {
  inboundToken: randomBytes(24).toString('base64url'),
  stripeWebhookSecret: `whsec_${randomBytes(24).toString('base64url')}`,
  intakeKey: randomBytes(24).toString('base64url'),
};

/** The forked server under test and its IPC calls. */
class ServerUnderTest {
  private next = 1;
  private pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  constructor(
    readonly child: ChildProcess,
    readonly ready: ReadyMessage,
  ) {
    child.on('message', (msg: { type: string; id: number; result?: unknown; error?: string }) => {
      if (msg.type !== 'reply') return;
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.error) p?.reject(new Error(msg.error));
      else p?.resolve(msg.result);
    });
  }

  static async start(
    dataset: Dataset,
    jwtSecret: string,
    extraArgs: string[] = [],
  ): Promise<ServerUnderTest> {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      JWT_SECRET: jwtSecret,
      DATA_DIR: dataset.dataDir,
      LOG_LEVEL: 'warn',
      // The bench sends many clients' addresses in X-Forwarded-For, as a proxy in front would.
      TRUST_PROXY: 'true',
      CLIENT_DIST_DIR: clientDist,
      INBOUND_TOKEN: doors.inboundToken,
      STRIPE_WEBHOOK_SECRET: doors.stripeWebhookSecret,
      INTAKE_API_KEY: doors.intakeKey,
      ...(dataset.databaseUrl ? { DATABASE_URL: dataset.databaseUrl } : {}),
      // The server's own switches pass through (EDCARD_FIRST_PAGE_CACHE=0 measures page 1 from the database).
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('EDCARD_'))),
    };
    const child = fork(path.join(HERE, 'server.ts'), [], {
      env,
      execArgv: [...process.execArgv, '--expose-gc', ...extraArgs],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Structured clone: captured parameters may be Dates or BigInts.
      serialization: 'advanced',
    });
    const ready = await new Promise<ReadyMessage>((resolve, reject) => {
      child.once('message', (m: ReadyMessage) => resolve(m));
      child.once('exit', (code) =>
        reject(new Error(`The server under test exited (code ${code}) before it was ready`)),
      );
    });
    return new ServerUnderTest(child, ready);
  }

  call<T>(
    msg: BenchRequest extends infer R ? (R extends BenchRequest ? Omit<R, 'id'> : never) : never,
  ): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ ...msg, id });
    });
  }

  has(method: string, url: string) {
    return this.ready.routes.some((r) => r.method === method && r.url === url);
  }

  async stop() {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.call({ type: 'stop' }).catch(() => {});
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** A distinct client address per request (rate limits are per IP; a proxy in front passes them on). */
const clientIp = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

interface Endpoint {
  key: string;
  label: string;
  kind: Kind;
  route: { method: 'GET' | 'POST' | 'PATCH'; url: string } | null;
  port: 'app' | 'hello';
  scenario: Scenario;
  /** Writes that cannot be replayed as they are (unique Message-IDs, event ids): no raw SQL floor. */
  noReplay?: boolean;
  /**
   * A row whose requests use its data up (each claim takes an order off the queue): called before each
   * phase, it puts the data back and answers how many requests the data holds, and the phase stops short
   * of that, so every request measured finds something to act on.
   */
  stock?: () => Promise<number>;
  /** Connections of the throughput phase instead of 10 (a row whose work takes a core each). */
  connections?: number;
  /** Sent at a steady pace while the row's -c 10 phase runs: its p50/p99 go into the row's note. */
  alongside?: { label: string; scenario: Scenario; rate: number };
}

async function httpJson(port: number, s: Scenario, i = 0) {
  const v = s.vary?.(i);
  const res = await fetch(`http://127.0.0.1:${port}${v?.path ?? s.path}`, {
    method: s.method,
    headers: { 'content-type': 'application/json', ...s.headers, ...v?.headers },
    ...(s.method !== 'GET' ? { body: (bodyText(v ?? {}) ?? bodyText(s) ?? '{}') as BodyInit } : {}),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { message: text.slice(0, 120) };
  }
  return { status: res.status, body };
}

function isoDay(d: Date) {
  return d.toISOString().slice(0, 10);
}

async function benchEngine(engine: string, size?: number): Promise<Run | null> {
  const orders = size ?? Number(args.orders ?? (engine === 'postgres' ? 1_000_000 : 100_000));
  if (!Number.isInteger(orders) || orders < 100) throw new Error('--orders must be a whole number ≥ 100');
  const loadAvg = os.loadavg();
  const dataset = await prepareDataset({
    orders,
    reuse: args.reuse,
    baseUrl: engine === 'postgres' ? baseUrl : undefined,
    dataRoot,
    log,
  });
  if (args['seed-only']) return null;
  const jwtSecret = randomBytes(32).toString('base64url');
  log(
    `Starting the server under test (${dataset.engine}, ${dataset.orders.toLocaleString('en-US')} orders)…`,
  );
  if (profileKey) mkdirSync(profileDir, { recursive: true });
  const server = await ServerUnderTest.start(dataset, jwtSecret);
  const appPort = server.ready.appPort;
  let second: ServerUnderTest | null = null;
  try {
    const memory: MemoryReport = {
      startRss: (await server.call<MemorySample>({ type: 'memory', gc: true })).rss,
      afterBenchRss: 0,
    };
    const token = await staffToken(server, dataset, jwtSecret);
    const auth = { authorization: token };
    const counts = await httpJson(appPort, {
      method: 'GET',
      path: '/api/admin/get-folder-count',
      headers: auth,
    });
    const countData = (counts.body.data ?? {}) as Record<string, number>;
    const allTotal = countData[FOLDER_COUNT_KEYS.allOrder] ?? dataset.orders;
    const lastPage = Math.max(1, Math.ceil(allTotal / 10));
    const s = dataset.samples;
    const nf = s.newFeatures;
    const ss = await selfServiceSamples(s.selfService, jwtSecret);
    const correction = nextCorrection(ss);
    const rating = nextRating(ss);
    const today = new Date();
    const yearAgo = new Date(today.getTime() - 364 * 86_400_000);
    const range = { fromDate: isoDay(yearAgo), toDate: isoDay(today) };
    const search = (searchVal: string) => ({
      method: 'POST' as const,
      path: '/api/admin/search-order',
      headers: auth,
      body: { folderName: 'allOrder', searchVal, start: 0, end: 10 },
    });
    const list = (folder: string, page: number): Scenario => ({
      method: 'GET',
      path: `/api/admin/get-orders-list/${folder}?page=${page}&limit=10&delay=1`,
      headers: auth,
    });
    const ORDERS_LIST = '/api/admin/get-orders-list/:orderName';
    const only0 = profileKey ? [profileKey] : args.only?.split(',');
    // The job API row spreads its claims over 60 keys (600 a minute each); made only when it runs.
    const machineKeys =
      server.has('POST', '/api/submission-jobs/claim') && (!only0 || only0.includes('submission-job-claim'))
        ? await createMachineKeys(
            (p, body) => httpJson(appPort, { method: 'POST', path: p, headers: auth, body }),
            60,
          )
        : [];
    const endpoints: Endpoint[] = [
      {
        key: 'hello',
        label: 'hello-world (bare Fastify, same process)',
        kind: 'hello',
        route: null,
        port: 'hello',
        scenario: { method: 'GET', path: '/hello' },
      },
      {
        key: 'hello-app',
        label: "hello-world behind the app's plugins",
        kind: 'hello',
        route: null,
        port: 'app',
        scenario: { method: 'GET', path: '/__bench/hello' },
      },
      {
        key: 'counts',
        label: 'folder counts',
        kind: 'counts',
        route: { method: 'GET', url: '/api/admin/get-folder-count' },
        port: 'app',
        scenario: { method: 'GET', path: '/api/admin/get-folder-count?userName=x', headers: auth },
      },
      {
        key: 'list-new-1',
        label: 'list newOrder page 1',
        kind: 'list',
        route: { method: 'GET', url: ORDERS_LIST },
        port: 'app',
        scenario: list('newOrder', 1),
      },
      {
        key: 'list-all-1',
        label: 'list allOrder page 1',
        kind: 'list',
        route: { method: 'GET', url: ORDERS_LIST },
        port: 'app',
        scenario: list('allOrder', 1),
      },
      // Page 1 sorted by arrival or due time, with and without one filter (indexes of migration 0020).
      ...(
        [
          [
            'list-awaiting-arrival',
            'list awaitingOrder by arrival_date',
            'awaitingOrder',
            'sort=arrival_date',
          ],
          ['list-new-due', 'list newOrder by due_at', 'newOrder', 'sort=due_at'],
          [
            'list-all-arrival-rare-nationality',
            `list allOrder by arrival_date, nationality=${s.rareNationality} (rarest)`,
            'allOrder',
            `sort=arrival_date&nationality=${s.rareNationality}`,
          ],
          ['list-all-due', 'list allOrder by due_at desc', 'allOrder', 'sort=due_at&dir=desc'],
          [
            'list-all-arrival-mode',
            'list allOrder by arrival_date, processingMode=Priority',
            'allOrder',
            'sort=arrival_date&processingMode=Priority',
          ],
          [
            'list-awaiting-due-unassigned',
            'list awaitingOrder by due_at, assignee=none',
            'awaitingOrder',
            'sort=due_at&assignee=none',
          ],
        ] as const
      ).map(
        ([key, label, folder, query]): Endpoint => ({
          key,
          label,
          kind: 'list',
          route: { method: 'GET', url: ORDERS_LIST },
          port: 'app',
          scenario: {
            method: 'GET',
            path: `/api/admin/get-orders-list/${folder}?page=1&limit=10&${query}`,
            headers: auth,
          },
        }),
      ),
      {
        key: 'list-all-nationality',
        label: `list allOrder page 1, nationality=${s.nationality}`,
        kind: 'list',
        route: { method: 'GET', url: ORDERS_LIST },
        port: 'app',
        scenario: {
          method: 'GET',
          path: `/api/admin/get-orders-list/allOrder?page=1&limit=10&nationality=${s.nationality}`,
          headers: auth,
        },
      },
      {
        key: 'list-all-1000',
        label: 'list allOrder page 1,000',
        kind: 'deep',
        route: { method: 'GET', url: ORDERS_LIST },
        port: 'app',
        scenario: list('allOrder', Math.min(1000, lastPage)),
      },
      {
        key: 'list-all-deep',
        label: `list allOrder last page (${lastPage.toLocaleString('en-US')})`,
        kind: 'deep',
        route: { method: 'GET', url: ORDERS_LIST },
        port: 'app',
        scenario: list('allOrder', lastPage),
      },
      {
        key: 'search-id',
        label: 'search by order id',
        kind: 'search',
        route: { method: 'POST', url: '/api/admin/search-order' },
        port: 'app',
        scenario: search(String(s.searchId)),
      },
      {
        key: 'search-email',
        label: 'search by e-mail',
        kind: 'search',
        route: { method: 'POST', url: '/api/admin/search-order' },
        port: 'app',
        scenario: search(s.searchEmail),
      },
      {
        key: 'search-name',
        label: `search by name fragment ("${s.nameFragment}")`,
        kind: 'search',
        route: { method: 'POST', url: '/api/admin/search-order' },
        port: 'app',
        scenario: search(s.nameFragment),
      },
      {
        key: 'detail',
        label: 'order detail',
        kind: 'detail',
        route: { method: 'GET', url: '/api/admin/get-orders-details/:orderId' },
        port: 'app',
        scenario: {
          method: 'GET',
          path: `/api/admin/get-orders-details/${s.detailId}`,
          headers: auth,
        },
      },
      {
        key: 'report-country',
        label: 'country report (one year)',
        kind: 'report',
        route: { method: 'POST', url: '/api/admin/get-country-order-count' },
        port: 'app',
        scenario: { method: 'POST', path: '/api/admin/get-country-order-count', headers: auth, body: range },
      },
      {
        key: 'report-processed',
        label: 'processed-by report (one year)',
        kind: 'report',
        route: { method: 'POST', url: '/api/admin/get-processed-by-count' },
        port: 'app',
        scenario: { method: 'POST', path: '/api/admin/get-processed-by-count', headers: auth, body: range },
      },
      {
        key: 'insights',
        label: 'insights dashboard (one year)',
        kind: 'insights',
        route: { method: 'GET', url: '/api/admin/insights' },
        port: 'app',
        scenario: {
          method: 'GET',
          path: `/api/admin/insights?from=${range.fromDate}&to=${range.toDate}`,
          headers: auth,
        },
      },
      {
        key: 'login',
        label: 'login (argon2id verify)',
        kind: 'login',
        route: { method: 'POST', url: '/api/admin/admin-login' },
        port: 'app',
        scenario: {
          method: 'POST',
          path: '/api/admin/admin-login',
          body: { email: 'team@demo.test', password: 'demo-password' },
          vary: (i) => ({ headers: { 'x-forwarded-for': clientIp(i) } }),
        },
      },
      {
        key: 'track',
        label: 'customer track (250 ms floor by design)',
        kind: 'track',
        route: { method: 'POST', url: '/api/front/track-order' },
        port: 'app',
        scenario: {
          method: 'POST',
          path: '/api/front/track-order',
          vary: (i) => {
            const t = s.track[i % s.track.length]!;
            return {
              headers: { 'x-forwarded-for': clientIp(i) },
              body: { orderId: String(t.orderId), email: t.email },
            };
          },
        },
      },
      // The fourth round's features (bench/new-features.ts): reads first, then the writes.
      {
        key: 'list-needs-attention',
        label: 'Needs attention, allOrder page 1',
        kind: 'attention',
        route: { method: 'GET', url: ORDERS_LIST },
        port: 'app',
        scenario: {
          method: 'GET',
          path: '/api/admin/get-orders-list/allOrder?page=1&limit=10&needsAttention=true',
          headers: auth,
        },
      },
      {
        key: 'attention-new-1',
        label: 'Needs attention, newOrder page 1',
        kind: 'attention',
        route: { method: 'GET', url: ORDERS_LIST },
        port: 'app',
        scenario: {
          method: 'GET',
          path: '/api/admin/get-orders-list/newOrder?page=1&limit=10&needsAttention=true',
          headers: auth,
        },
      },
      {
        key: 'order-checks',
        label: 'checks of one order (with its duplicate search)',
        kind: 'checks',
        route: { method: 'GET', url: '/api/admin/orders/:orderId/checks' },
        port: 'app',
        scenario: {
          method: 'GET',
          path: `/api/admin/orders/${nf.attentionOrderId ?? s.detailId}/checks`,
          headers: auth,
        },
      },
      {
        key: 'inbound',
        label: 'inbound mail: a customer reply matched (message/rfc822)',
        kind: 'inbound',
        route: { method: 'POST', url: '/api/inbound/mail' },
        port: 'app',
        noReplay: true,
        scenario: {
          method: 'POST',
          path: '/api/inbound/mail',
          headers: { authorization: `Bearer ${doors.inboundToken}`, 'content-type': 'message/rfc822' },
          vary: (i) => ({
            headers: { 'x-forwarded-for': clientIp(i) },
            rawBody: customerReply(nf.sentMails[i % Math.max(1, nf.sentMails.length)]!, i),
          }),
        },
      },
      {
        key: 'intake-checks',
        label: 'intake: a new order with its checks and duplicate search',
        kind: 'intake',
        route: { method: 'POST', url: '/api/intake/orders' },
        port: 'app',
        noReplay: true,
        scenario: {
          method: 'POST',
          path: '/api/intake/orders',
          headers: { 'x-intake-key': doors.intakeKey },
          vary: (i) => ({
            headers: { 'x-forwarded-for': clientIp(i) },
            body: intakeOrder(nf.travellers, i),
          }),
        },
      },
      {
        key: 'stripe-webhook',
        label: 'Stripe webhook applied (signed charge.dispute.created)',
        kind: 'webhook',
        route: { method: 'POST', url: '/api/webhooks/stripe' },
        port: 'app',
        noReplay: true,
        scenario: {
          method: 'POST',
          path: '/api/webhooks/stripe',
          headers: { 'content-type': 'application/json' },
          vary: (i) => {
            const e = disputeEvent(
              nf.charges[i % Math.max(1, nf.charges.length)]!,
              i,
              doors.stripeWebhookSecret,
            );
            return {
              headers: { 'x-forwarded-for': clientIp(i), 'stripe-signature': e.signature },
              rawBody: e.payload,
            };
          },
        },
      },
      // The sixth round's features (bench/sixth-round.ts): the government step, card and passport checks,
      // disputes and finance.
      ...sixthRoundRows({ auth, machineKeys, orderId: nf.attentionOrderId ?? s.detailId, today }).map(
        ({ claims, ...r }): Endpoint => ({
          ...r,
          port: 'app',
          ...(claims ? { stock: () => claimQueue(server) } : {}),
        }),
      ),
      // The customers' self-service (bench/self-service.ts): each request on its own order, with its token.
      {
        key: 'customer-edit',
        label: 'customer corrects a passport number (own token)',
        kind: 'selfService',
        route: { method: 'PATCH', url: '/api/customer/orders/:orderId' },
        port: 'app',
        noReplay: true,
        // The versions as they are now (earlier rows change orders); no cap on the requests.
        stock: async () =>
          Math.max(
            1,
            await refreshVersions(ss, (text, params) => server.call({ type: 'exec', text, params })),
          ) * 1_000_000,
        scenario: {
          method: 'PATCH',
          path: `/api/customer/orders/${ss.editable[0]?.orderId ?? 0}`,
          vary: (i) => {
            const c = correction();
            return {
              path: c.path,
              headers: { 'x-forwarded-for': clientIp(i), authorization: `Bearer ${c.token}` },
              body: c.body,
            };
          },
        },
      },
      {
        key: 'customer-rating',
        label: 'customer rates a completed order (own token)',
        kind: 'selfService',
        route: { method: 'POST', url: '/api/customer/orders/:orderId/rating' },
        port: 'app',
        noReplay: true,
        scenario: {
          method: 'POST',
          path: `/api/customer/orders/${ss.completed[0]?.orderId ?? 0}/rating`,
          vary: (i) => {
            const r = rating();
            return {
              path: r.path,
              headers: { 'x-forwarded-for': clientIp(i), authorization: `Bearer ${r.token}` },
              body: r.body,
            };
          },
        },
      },
      // Last: every claim assigns an order to the bench's Admin. Before each phase the queue is filled
      // again (claimQueue) and the phase stops before it runs dry: a 404 measures an empty queue.
      {
        key: 'claim-next',
        stock: () => claimQueue(server),
        label: 'claim-next-order (10 concurrent claimers)',
        kind: 'claim',
        route: { method: 'POST', url: '/api/admin/claim-next-order' },
        port: 'app',
        scenario: {
          method: 'POST',
          path: '/api/admin/claim-next-order',
          headers: auth,
          body: { folderName: 'newOrder' },
        },
      },
    ];
    const only = profileKey ? [profileKey] : args.only?.split(',');
    const results: EndpointResult[] = [];
    let captureFailures = 0;
    for (const ep of endpoints) {
      if (only && ep.kind !== 'hello' && !only.includes(ep.key)) continue;
      const result = await measureEndpoint(
        server,
        ep,
        results.find((r) => r.key === 'hello'),
      );
      if (result.available && !result.throughput) captureFailures++;
      results.push(result);
      log(summaryLine(result));
    }
    // The sixth round's background work (bench/sixth-round-jobs.ts), after every request row: routing
    // is switched on for its rows only, and its worker would otherwise hand out the claim row's queue.
    const jobs =
      profileKey || (only && !JOB_ROW_KEYS.some((k) => only.includes(k)))
        ? []
        : await measureJobRows(server, {
            quick,
            only,
            arrival: (i) => intakeOrder(nf.travellers, i),
            intakeHeaders: { 'x-intake-key': doors.intakeKey },
            listRead: { path: list('allOrder', 1).path, headers: auth },
            clientIp,
            log,
          });
    if (jobs.some((j) => j.errors)) process.exitCode = 1;
    memory.afterBenchRss = (await server.call<MemorySample>({ type: 'memory', gc: true })).rss;

    // Two server instances on the same database against one, same run (PostgreSQL only).
    let scale: ScaleResult[] | undefined;
    if (dataset.engine === 'postgres' && !args['no-scale'] && !profileKey) {
      const keys = ['list-all-1', 'detail'].filter((k) => !only || only.includes(k));
      if (keys.length) {
        log('Two instances against one…');
        second = await ServerUnderTest.start(dataset, jwtSecret);
        scale = [];
        for (const key of keys) {
          const ep = endpoints.find((e) => e.key === key)!;
          scale.push(await measureScale(server, second, ep));
          log(`  ${ep.label}: ${scaleLine(scale[scale.length - 1]!)}`);
        }
      }
    }

    if (soakSeconds > 0) {
      memory.soak = await soak(server, endpoints, results, soakSeconds);
      log(
        `Soak: ${memory.soak.requests} requests, ${memory.soak.errors} errors, RSS ${memory.soak.growthPct.toFixed(1)} %`,
      );
    }

    let lighthouse: Run['lighthouse'];
    let allRows: Run['allRows'];
    const builtClient = existsSync(path.join(clientDist, 'index.html'));
    if (!browser || !existsSync('/usr/bin/chromium')) {
      const why = quick ? '--quick' : args['no-browser'] ? '--no-browser' : 'no /usr/bin/chromium';
      lighthouse = { skipped: why };
      allRows = { skipped: why };
    } else if (!builtClient) {
      lighthouse = { skipped: `no client build in ${clientDist} (npm run build)` };
      allRows = lighthouse;
    } else {
      log('Lighthouse on the login and track pages…');
      const base = `http://127.0.0.1:${appPort}`;
      lighthouse = await runLighthouse([
        { page: 'login', url: `${base}/admin` },
        { page: 'track', url: `${base}/track-order` },
      ]);
      log("'All' rows in Chromium…");
      allRows = await measureAllRows(base, countData);
    }

    const run: Run = {
      engine: dataset.engine,
      orders: dataset.orders,
      date: new Date().toISOString(),
      quick,
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model.trim() ?? 'unknown',
        ramGb: Math.round(os.totalmem() / 1024 ** 3),
        node: process.versions.node,
        loadAvg,
      },
      seed: { reused: dataset.reused, ms: dataset.seedMs },
      durations: { throughputS: durations.throughputS, latencyS: durations.latencyS, rawS: durations.rawS },
      endpoints: results,
      ...(jobs.length ? { jobs } : {}),
      ...(scale ? { scale } : {}),
      memory,
      lighthouse,
      allRows,
      checks: [],
    };
    run.checks = evaluate(run);
    if (captureFailures) process.exitCode = 1;
    return run;
  } finally {
    await second?.stop();
    await server.stop();
    if (profileKey) writeProfileSummary(dataset.engine, dataset.orders, profileKey);
  }
}

/** Where the profile of a row goes (one per engine and row; the size is in the summary's title). */
function profileFile(engine: string, key: string) {
  return path.join(profileDir, `${engine}-${key}.cpuprofile`);
}

/** Summarises the .cpuprofile of a --profile run into bench/profiles.md (kept beside RESULTS.md). */
function writeProfileSummary(engine: string, orders: number, key: string) {
  const file = profileFile(engine, key);
  if (!existsSync(file)) {
    log(`No CPU profile was written (${file}).`);
    return;
  }
  const title = `${engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${orders.toLocaleString('en-US')} orders: ${key} (${new Date().toISOString().slice(0, 16)}Z)`;
  const summary = profileMarkdown(file, title);
  log(`\n${summary}`);
  const out = path.join(HERE, 'profiles.md');
  const header = '## CPU profiles of the server (`npm run bench -- --profile <row>`)\n';
  const previous = existsSync(out) ? readFileSync(out, 'utf8') : header;
  // One section per engine, size and row: a new profile of the same row replaces the old one.
  const sections = previous
    .replace(header, '')
    .split(/\n(?=### )/)
    .map((x) => x.trim())
    .filter((x) => x && !x.startsWith(`### ${title.split(' (')[0]}`));
  writeFileSync(out, `${header}\n${[...sections, summary.trim()].join('\n\n')}\n`);
  log(`Written: ${path.relative(ROOT, out)} (profile: ${path.relative(ROOT, file)})`);
}

/** The same call on one instance (-c 10), then on two instances at once (-c 10 each), same database. */
async function measureScale(one: ServerUnderTest, two: ServerUnderTest, ep: Endpoint): Promise<ScaleResult> {
  const d = durations.throughputS;
  await runLoad(two.ready.appPort, ep.scenario, { connections: 10, durationS: durations.warmS });
  const single = await runLoad(one.ready.appPort, ep.scenario, { connections: 10, durationS: d });
  const [a, b] = await Promise.all([
    runLoad(one.ready.appPort, ep.scenario, { connections: 10, durationS: d }),
    runLoad(two.ready.appPort, ep.scenario, { connections: 10, durationS: d }),
  ]);
  return {
    key: ep.key,
    label: ep.label,
    one: single,
    two: [a, b],
    combinedPerSecond: a.perSecond + b.perSecond,
  };
}

function scaleLine(r: ScaleResult) {
  return `one ${Math.round(r.one.perSecond)} req/s (p50 ${r.one.p50.toFixed(2)} ms), two ${Math.round(
    r.combinedPerSecond,
  )} req/s (p50 ${r.two[0].p50.toFixed(2)} / ${r.two[1].p50.toFixed(2)} ms)`;
}

/** A row with less data than this left is not measured (its figures would be a handful of requests). */
const MIN_STOCK = 20;

/**
 * The claim row's queue (New, Standard, due, unassigned): the orders assigned in the folder (by earlier
 * claims, or the seed's staff) are released again, at most 5,000 at a time, and the queue's length is
 * answered. Yesterday's and older processing dates only, so the service's time zone never makes an
 * order counted here not yet claimable.
 */
async function claimQueue(server: ServerUnderTest): Promise<number> {
  const rows = await server.call<{ n: string }[]>({
    type: 'exec',
    text: `with held as (
        select order_id from orders
        where process_status = 'New' and processing_mode <> 'Priority' and processing_date < current_date
          and assigned_to is not null
        order by order_id desc limit 5000
      ),
      released as (
        update orders o set assigned_to = null from held where o.order_id = held.order_id returning 1
      )
      select ((select count(*) from released) + (select count(*) from orders
        where process_status = 'New' and processing_mode <> 'Priority' and processing_date < current_date
          and assigned_to is null))::text as n`,
  });
  return Number(rows[0]?.n ?? 0);
}

/** A staff token from the login route (every token belongs to a server-side session it creates). */
async function staffToken(server: ServerUnderTest, _dataset: Dataset, _secret: string): Promise<string> {
  const res = await httpJson(server.ready.appPort, {
    method: 'POST',
    path: '/api/admin/admin-login',
    headers: { 'x-forwarded-for': '192.0.2.1' },
    body: { email: 'admin@demo.test', password: 'demo-password' },
  });
  if (typeof res.body.jwtToken === 'string') return res.body.jwtToken;
  throw new Error(`Login failed: ${res.status} ${String(res.body.message)}`);
}

async function measureEndpoint(
  server: ServerUnderTest,
  ep: Endpoint,
  hello: EndpointResult | undefined,
): Promise<EndpointResult> {
  const base = { key: ep.key, label: ep.label, kind: ep.kind };
  if (ep.route && !server.has(ep.route.method, ep.route.url)) {
    return { ...base, available: false, note: `${ep.route.method} ${ep.route.url} answers 404` };
  }
  const port = ep.port === 'hello' ? server.ready.helloPort : server.ready.appPort;
  // What a phase may use of a row's data (undefined: no limit), its connections' requests in flight kept back.
  const stockFor = async (connections: number) => {
    if (!ep.stock) return undefined;
    return (await ep.stock()) - 2 * connections;
  };
  const warmStock = await stockFor(10);
  if (warmStock !== undefined && warmStock < MIN_STOCK) {
    return { ...base, available: false, note: `too little data to measure (${warmStock + 20} left)` };
  }
  const connections = ep.connections ?? 10;
  await runLoad(port, ep.scenario, {
    connections,
    durationS: durations.warmS,
    maxRequests: warmStock,
  });
  await stockFor(0);
  // One warm request with the driver recorded: the exact statements the raw-SQL floor replays. A slow
  // endpoint may still be busy with the warm-up's last requests, so a failure is retried a few times.
  let captured: CapturedQuery[] = [];
  let probe = { status: 0, body: {} as Record<string, unknown> };
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, 3000));
    const captureId = `${ep.key}-${attempt}`;
    if (ep.port === 'app') await server.call({ type: 'capture-start', captureId });
    probe = await httpJson(
      port,
      { ...ep.scenario, headers: { ...ep.scenario.headers, [CAPTURE_HEADER]: captureId } },
      1_000_000 + attempt,
    );
    if (ep.port === 'app') captured = await server.call<CapturedQuery[]>({ type: 'capture-stop' });
    if (probe.status < 500) break;
  }
  if (ep.kind === 'claim' && probe.status === 404) {
    // A small data set can have no unassigned order in the folder: nothing to measure, not a failure.
    return { ...base, available: false, note: `nothing to claim: ${String(probe.body.message)}` };
  }
  if (probe.status < 200 || probe.status >= 300) {
    return { ...base, available: true, note: `answered ${probe.status}: ${String(probe.body.message)}` };
  }
  const profiling = profileKey === ep.key && ep.port === 'app';
  if (profiling) await server.call({ type: 'profile-start' });
  const beside = ep.alongside
    ? runLoad(port, ep.alongside.scenario, {
        connections: 1,
        durationS: durations.throughputS,
        rate: ep.alongside.rate,
      })
    : null;
  const throughput = await runLoad(port, ep.scenario, {
    connections,
    durationS: durations.throughputS,
    maxRequests: await stockFor(connections),
  });
  const besideResult = await beside;
  // Paced on one connection: autocannon starts every connection's timer together, so a fixed rate
  // spread over 10 connections arrives in bursts of 10 and measures queueing, not the endpoint.
  const rate = Math.max(5, Math.min(200, Math.round(throughput.perSecond / 4)));
  const latency = await runLoad(port, ep.scenario, {
    connections: 1,
    durationS: durations.latencyS,
    rate,
    maxRequests: await stockFor(1),
  });
  if (profiling) await server.call({ type: 'profile-stop', file: profileFile(server.ready.engine, ep.key) });
  let raw: RawStats | undefined;
  const plan = ep.noReplay ? [] : planOf(captured);
  if (plan.length) {
    raw = await server.call<RawStats>({ type: 'raw', plan, durationMs: durations.rawS * 1000 });
  }
  const errors = throughput.errors + latency.errors;
  const notes = [
    ...(errors ? [`${errors} error responses (${statusSummary(throughput, latency)})`] : []),
    ...(besideResult && ep.alongside
      ? [
          `${ep.alongside.label} meanwhile (${ep.alongside.rate} req/s): p50 ${besideResult.p50.toFixed(2)} ms, p99 ${besideResult.p99.toFixed(2)} ms${besideResult.errors ? `, ${besideResult.errors} errors` : ''}`,
        ]
      : []),
  ];
  return {
    ...base,
    available: true,
    ...(notes.length ? { note: notes.join('; ') } : {}),
    sql: captured.length ? { statements: captured.length, steps: plan.length } : undefined,
    throughput,
    latency,
    raw,
    ratioToHello: hello?.throughput ? throughput.perSecond / hello.throughput.perSecond : undefined,
    overheadMs: raw ? latency.p50 - raw.p50 : undefined,
  };
}

function statusSummary(...runs: LoadResult[]) {
  const total: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statusCounts)) total[k] = (total[k] ?? 0) + v;
  return Object.entries(total)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
}

function summaryLine(r: EndpointResult): string {
  if (!r.available) return `  ${r.label.padEnd(48)} not available (${r.note})`;
  if (!r.latency || !r.throughput) return `  ${r.label.padEnd(48)} ${r.note}`;
  const f = (v: number) => v.toFixed(2).padStart(8);
  return `  ${r.label.padEnd(48)} p50 ${f(r.latency.p50)} ms  p99 ${f(r.latency.p99)} ms  ${Math.round(
    r.throughput.perSecond,
  )
    .toString()
    .padStart(6)} req/s${r.raw ? `  raw p50 ${f(r.raw.p50)} ms` : ''}${r.note ? `  (${r.note})` : ''}`;
}

/** Every measured endpoint in turn at a fixed rate for `seconds`, sampling the server's RSS. */
async function soak(
  server: ServerUnderTest,
  endpoints: Endpoint[],
  results: EndpointResult[],
  seconds: number,
): Promise<NonNullable<MemoryReport['soak']>> {
  const measured = endpoints.filter(
    (e) => e.port === 'app' && e.kind !== 'hello' && results.find((r) => r.key === e.key)?.throughput,
  );
  // Each endpoint at half its own -c 10 throughput (at most 100 req/s): busy, never a growing queue.
  const rateOf = (key: string) => {
    const tp = results.find((r) => r.key === key)?.throughput?.perSecond ?? 10;
    return Math.max(2, Math.min(100, Math.round(tp / 2)));
  };
  const rate = Math.round(measured.reduce((sum, e) => sum + rateOf(e.key), 0) / (measured.length || 1));
  log(`Soak: ${seconds} s over ${measured.length} endpoints in turn, about ${rate} req/s…`);
  const baselineRss = (await server.call<MemorySample>({ type: 'memory', gc: true })).rss;
  const samples: { t: number; rss: number }[] = [];
  const started = Date.now();
  const sampler = setInterval(() => {
    server.call<MemorySample>({ type: 'memory' }).then(
      (m) => samples.push({ t: Math.round((Date.now() - started) / 1000), rss: m.rss }),
      () => {},
    );
  }, 10_000);
  let requests = 0;
  let errors = 0;
  try {
    // Round robin in one-second slices, so every endpoint runs through the whole soak.
    let i = 0;
    while (Date.now() - started < seconds * 1000) {
      const ep = measured[i++ % measured.length]!;
      const r = await runLoad(server.ready.appPort, ep.scenario, {
        connections: 10,
        durationS: 1,
        rate: rateOf(ep.key),
      });
      requests += r.ok + r.errors;
      errors += r.errors;
    }
  } finally {
    clearInterval(sampler);
  }
  const endRss = (await server.call<MemorySample>({ type: 'memory', gc: true })).rss;
  const maxRss = Math.max(endRss, ...samples.map((x) => x.rss));
  return {
    seconds,
    rate,
    requests,
    errors,
    baselineRss,
    endRss,
    maxRss,
    growthPct: (100 * (endRss - baselineRss)) / baselineRss,
    samples,
  };
}

/** Staff routes of the folders (src/client/orders/nav.ts). */
const FOLDER_PATHS: Record<(typeof FOLDERS)[number], string> = {
  newOrder: 'recent-order',
  myOrder: 'my-order',
  priorityOrder: 'priority-order',
  pendingOrder: 'pending-order',
  completedOrder: 'completed-order',
  deletedOrder: 'deleted-order',
  awaitingOrder: 'awaiting-response',
  awaitingGovtOrder: 'awaiting-govt',
  customerCalledOrder: 'called',
  allOrder: 'order-history',
  contactCustomerOrder: 'contact-customer',
  futureOrder: 'future-order',
  refundOrder: 'refund-order',
  refundedOrder: 'completed-refunds',
  chargeBack: 'chargeback',
};

/** The Playwright measurement of 'All' (e2e/perf-all.spec.ts) on the biggest folder that fits in one page. */
async function measureAllRows(baseUrl: string, countData: Record<string, number>): Promise<AllRowsResult> {
  const candidates = FOLDERS.filter((f) => f !== 'myOrder' && f !== 'futureOrder' && f !== 'chargeBack')
    .map((f) => ({ folder: f, rows: countData[FOLDER_COUNT_KEYS[f]] ?? 0 }))
    .filter((c) => c.rows <= MAX_PAGE_SIZE)
    .sort((a, b) => b.rows - a.rows);
  const pick = candidates[0];
  if (!pick)
    return {
      folder: '–',
      rows: 0,
      firstRowsMs: null,
      domRows: null,
      longTasksWhileScrolling: null,
      maxLongTaskMs: null,
      error: 'no folder',
    };
  const outFile = path.join(dataRoot, 'perf-all.json');
  mkdirSync(dataRoot, { recursive: true });
  writeFileSync(outFile, '{}');
  const code = await new Promise<number>((resolve) => {
    const child = spawn('npx', ['playwright', 'test', '--config', path.join(HERE, 'perf-all.config.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        BENCH_BASE_URL: baseUrl,
        BENCH_ALL_PATH: FOLDER_PATHS[pick.folder],
        BENCH_ALL_ROWS: String(pick.rows),
        BENCH_ALL_OUT: outFile,
      },
    });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  const measured = JSON.parse(readFileSync(outFile, 'utf8')) as Partial<AllRowsResult>;
  return {
    folder: pick.folder,
    rows: pick.rows,
    firstRowsMs: measured.firstRowsMs ?? null,
    domRows: measured.domRows ?? null,
    longTasksWhileScrolling: measured.longTasksWhileScrolling ?? null,
    maxLongTaskMs: measured.maxLongTaskMs ?? null,
    scrolledPx: measured.scrolledPx ?? null,
    ...(code !== 0 || measured.error
      ? { error: measured.error ?? `the Playwright measurement failed (exit ${code})` }
      : {}),
  };
}

function writeResults(runs: Run[]) {
  mkdirSync(outDir, { recursive: true });
  const jsonFile = path.join(outDir, quick ? 'quick-results.json' : 'results.json');
  let file: ResultsFile = { note: 'Written by npm run bench; see bench/RESULTS.md', runs: {} };
  if (existsSync(jsonFile)) {
    try {
      file = JSON.parse(readFileSync(jsonFile, 'utf8')) as ResultsFile;
    } catch {
      // A damaged file is replaced.
    }
  }
  for (const run of runs) {
    const key = `${run.engine}-${run.orders}`;
    const previous = file.runs[key];
    // A run without --soak keeps the soak of the previous run of the same dataset, dated.
    if (!run.memory.soak && previous?.memory.soak) {
      run.memory.soak = { ...previous.memory.soak, fromRun: previous.memory.soak.fromRun ?? previous.date };
      run.checks = evaluate(run);
    }
    file.runs[key] = run;
  }
  writeFileSync(jsonFile, `${JSON.stringify(file, null, 2)}\n`);
  const notesFile = path.join(HERE, 'notes.md');
  const notes = existsSync(notesFile) ? readFileSync(notesFile, 'utf8').trim() : '';
  const mdFile = path.join(outDir, quick ? 'QUICK-RESULTS.md' : 'RESULTS.md');
  // The live event stream figures (bench/streams.ts) are kept beside the runs.
  const streamsFile = path.join(HERE, 'streams.md');
  const streams = existsSync(streamsFile) ? `\n${readFileSync(streamsFile, 'utf8').trim()}\n` : '';
  const profilesFile = path.join(HERE, 'profiles.md');
  const profiles = existsSync(profilesFile) ? `\n${readFileSync(profilesFile, 'utf8').trim()}\n` : '';
  const growthFile = path.join(outDir, 'growth.md');
  const growth = existsSync(growthFile) ? `\n${readFileSync(growthFile, 'utf8').trim()}\n` : '';
  writeFileSync(mdFile, `${resultsMarkdown(file, notes)}\n${streams}${growth}${profiles}`);
  log(`\nWritten: ${path.relative(ROOT, jsonFile)}, ${path.relative(ROOT, mdFile)}`);
}

if (args['write-only']) {
  writeResults([]);
  process.exit(0);
}

if (args.growth) {
  // Each size its own dataset (seeded once, then --reuse) and server; the runs themselves are not kept
  // as the sizes' recorded runs, only their growth table.
  const sizes = args.growth.split(',').map((v) => Number(v.trim()));
  if (sizes.some((n) => !Number.isInteger(n) || n < 100)) throw new Error('--growth takes sizes ≥ 100');
  const engine = engines[0] ?? 'postgres';
  const startedAt = new Date().toISOString();
  const loadAvg = os.loadavg();
  const growthRuns: Run[] = [];
  for (let i = 0; i < Math.max(1, Number(args.repeat) || 1); i++) {
    for (const size of sizes) {
      const run = await benchEngine(engine, size);
      if (run) growthRuns.push(run);
    }
  }
  const table = growthMarkdown(growthRuns, startedAt, loadAvg);
  console.log(`\n${table}`);
  if (!quick) writeFileSync(path.join(outDir, 'growth.md'), table);
  writeResults([]);
  process.exit(0);
}

const runs: Run[] = [];
for (const engine of engines) {
  if (engine !== 'postgres' && engine !== 'pglite') throw new Error(`Unknown engine ${engine}`);
  const run = await benchEngine(engine);
  if (!run) continue;
  runs.push(run);
  console.log(`\n${runMarkdown(run)}`);
}
// A profile run measures one row under the profiler: it leaves the recorded figures alone.
if (runs.length && !profileKey) writeResults(runs);
else if (profileKey) writeResults([]);
