import { SIXTH_ROUND_LIMITS } from './sixth-round.js';
import { type JobRow, jobRowsMarkdown } from './sixth-round-jobs.js';
import type { LighthouseResult } from './lighthouse.js';
import type { LoadResult } from './load.js';
import type { RawStats } from './sql-capture.js';

export type Kind =
  | 'hello'
  | 'counts'
  | 'list'
  | 'deep'
  | 'search'
  | 'detail'
  | 'report'
  | 'insights'
  | 'login'
  | 'track'
  | 'claim'
  | 'attention'
  | 'checks'
  | 'inbound'
  | 'intake'
  | 'webhook'
  | 'selfService'
  | 'sixthRound';

export interface EndpointResult {
  key: string;
  label: string;
  kind: Kind;
  /** False when the server has no such route yet ("not available" row). */
  available: boolean;
  note?: string | undefined;
  /** Statements the endpoint ran for one request (captured from the driver), and how many ran in parallel. */
  sql?: { statements: number; steps: number } | undefined;
  /** -c 10, open throttle: the throughput. */
  throughput?: LoadResult | undefined;
  /** Fixed rate well below saturation: the latency a user sees. */
  latency?: LoadResult | undefined;
  raw?: RawStats | undefined;
  ratioToHello?: number | undefined;
  overheadMs?: number | undefined;
}

export interface MemoryReport {
  startRss: number;
  afterBenchRss: number;
  soak?:
    | {
        seconds: number;
        rate: number;
        requests: number;
        errors: number;
        baselineRss: number;
        endRss: number;
        maxRss: number;
        growthPct: number;
        samples: { t: number; rss: number }[];
        /** Set when the soak was measured in an earlier run of the same dataset. */
        fromRun?: string | undefined;
      }
    | undefined;
}

export interface AllRowsResult {
  folder: string;
  rows: number;
  firstRowsMs: number | null;
  domRows: number | null;
  longTasksWhileScrolling: number | null;
  maxLongTaskMs: number | null;
  scrolledPx?: number | null;
  error?: string | undefined;
}

export interface Check {
  what: string;
  target: string;
  measured: string;
  met: boolean;
}

/** The same call on one server instance and on two at once (same database, same run). */
export interface ScaleResult {
  key: string;
  label: string;
  one: LoadResult;
  two: [LoadResult, LoadResult];
  combinedPerSecond: number;
}

export interface Run {
  engine: 'pglite' | 'postgres';
  orders: number;
  date: string;
  quick: boolean;
  machine: { cpus: number; model: string; ramGb: number; node: string; loadAvg: number[] };
  seed: { reused: boolean; ms: number | null };
  durations: { throughputS: number; latencyS: number; rawS: number };
  endpoints: EndpointResult[];
  /** The sixth round's background work (window opening, routing, payout sync, card check). */
  jobs?: JobRow[] | undefined;
  scale?: ScaleResult[] | undefined;
  memory: MemoryReport;
  lighthouse?: LighthouseResult[] | { skipped: string } | undefined;
  allRows?: AllRowsResult | { skipped: string } | undefined;
  checks: Check[];
}

export interface ResultsFile {
  note: string;
  runs: Record<string, Run>;
}

const ms = (v: number | null | undefined) =>
  v === null || v === undefined || Number.isNaN(v)
    ? '–'
    : v < 10
      ? v.toFixed(2)
      : v < 100
        ? v.toFixed(1)
        : v.toFixed(0);
const int = (v: number | null | undefined) =>
  v === null || v === undefined || Number.isNaN(v) ? '–' : Math.round(v).toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const mark = (met: boolean) => (met ? 'met' : 'MISSED');

/** Page 1 of the plain folders: the throughput and ≤ 2 ms targets; other list rows are sorted or filtered. */
const PLAIN_PAGE_ONE = new Set(['list-new-1', 'list-all-1']);
/** Search targets per row (p50). */
const SEARCH_LIMIT: Record<string, number> = { 'search-id': 3, 'search-email': 5, 'search-name': 10 };

/** The benchmark targets (set for PostgreSQL at 1,000,000 orders), checked against one run. */
export function evaluate(run: Run): Check[] {
  const checks: Check[] = [];
  const byKey = new Map(run.endpoints.map((e) => [e.key, e]));
  const hello = byKey.get('hello');
  const add = (what: string, target: string, value: number | undefined, limit: number, unit = 'ms') => {
    if (value === undefined || Number.isNaN(value)) return;
    checks.push({ what, target, measured: `${ms(value)}${unit ? ` ${unit}` : ''}`, met: value <= limit });
  };
  /** A row's -c 10 throughput as a share of the bare hello-world's in the same run, at least `pct` %. */
  const vsHello = (e: EndpointResult, atLeast: number) => {
    if (!hello?.throughput || !e.throughput) return;
    const pct = (100 * e.throughput.perSecond) / hello.throughput.perSecond;
    checks.push({
      what: `${e.label} throughput vs hello-world`,
      target: `≥ ${atLeast} %`,
      measured: `${pct.toFixed(1)} %`,
      met: pct >= atLeast,
    });
  };
  for (const e of run.endpoints) {
    if (!e.available || !e.latency) continue;
    const p50 = e.latency.p50;
    switch (e.kind) {
      case 'hello':
        // The app's plugin chain in front of a bare route, beside the bare Fastify hello-world.
        if (e.key === 'hello-app') vsHello(e, 60);
        break;
      case 'counts':
        add(`${e.label} p50`, '≤ 1 ms', p50, 1);
        add(`${e.label} p99`, '≤ 10 ms', e.latency.p99, 10);
        break;
      case 'list':
        if (PLAIN_PAGE_ONE.has(e.key)) {
          add(`${e.label} p50`, '≤ 2 ms', p50, 2);
          vsHello(e, 25);
        } else {
          add(`${e.label} p50 (sorted or filtered)`, '≤ 5 ms', p50, 5);
        }
        break;
      case 'deep': {
        const first = byKey.get('list-all-1');
        if (first?.latency) {
          const ratio = p50 / first.latency.p50;
          checks.push({
            what: `${e.label} p50 vs page 1`,
            target: '≤ 1.5×',
            measured: `${ratio.toFixed(2)}× (${ms(p50)} vs ${ms(first.latency.p50)} ms)`,
            met: ratio <= 1.5,
          });
        }
        break;
      }
      case 'search': {
        const limit = SEARCH_LIMIT[e.key] ?? 10;
        add(`${e.label} p50`, `≤ ${limit} ms`, p50, limit);
        break;
      }
      case 'detail':
        add(`${e.label} p50`, '≤ 3 ms', p50, 3);
        break;
      case 'report':
        add(`${e.label} p95 (one year)`, '≤ 100 ms', e.latency.p95, 100);
        break;
      case 'insights':
        add(`${e.label} p95`, '≤ 150 ms', e.latency.p95, 150);
        break;
      case 'claim':
        // Under 10 concurrent claimers: the latency of the -c 10 run.
        add(`${e.label} p50 under -c 10`, '≤ 10 ms', e.throughput?.p50, 10);
        break;
      case 'attention':
        add(`${e.label} p50`, '≤ 5 ms', p50, 5);
        break;
      case 'checks':
        // No target of its own: held to the order detail's, the other read of one order.
        add(`${e.label} p50`, '≤ 3 ms', p50, 3);
        break;
      case 'inbound':
        add(`${e.label}: match time p50`, '≤ 5 ms', p50, 5);
        if (e.throughput) {
          checks.push({
            what: `${e.label}: messages matched per second (-c 10)`,
            target: '≥ 50/s',
            measured: `${e.throughput.perSecond.toFixed(0)}/s`,
            met: e.throughput.perSecond >= 50,
          });
        }
        break;
      case 'intake':
        add(`${e.label} p50`, '≤ 10 ms', p50, 10);
        break;
      case 'webhook':
        add(`${e.label} p50`, '≤ 10 ms', p50, 10);
        break;
      case 'selfService':
        // The customers' self-service (docs/product.md): a correction ≤ 10 ms, a rating ≤ 5 ms.
        if (e.key === 'customer-edit') add(`${e.label} p50`, '≤ 10 ms', p50, 10);
        else add(`${e.label} p50`, '≤ 5 ms', p50, 5);
        break;
      case 'sixthRound': {
        // The sixth round's features (bench/sixth-round.ts): each feature's own p50 target.
        const limit = SIXTH_ROUND_LIMITS[e.key];
        if (limit !== undefined) add(`${e.label} p50`, `≤ ${limit} ms`, p50, limit);
        break;
      }
      default:
        break;
    }
    const noOverhead: Kind[] = ['login', 'track', 'hello', 'claim'];
    if (e.overheadMs !== undefined && !noOverhead.includes(e.kind)) {
      add(`${e.label} p50 − raw SQL p50`, '≤ 0.5 ms', e.overheadMs, 0.5);
    }
  }
  for (const j of run.jobs ?? []) {
    if (j.met !== null) checks.push({ what: j.label, target: j.target, measured: j.measured, met: j.met });
  }
  for (const sc of run.scale ?? []) {
    const ratio = sc.combinedPerSecond / Math.max(1, sc.one.perSecond);
    checks.push({
      what: `two instances vs one: ${sc.label} (req/s)`,
      target: '≥ 1.0× (no loss)',
      measured: `${ratio.toFixed(2)}× (${int(sc.combinedPerSecond)} vs ${int(sc.one.perSecond)})`,
      met: ratio >= 1,
    });
  }
  const soak = run.memory.soak;
  if (soak) {
    checks.push({
      what: `RSS growth over a ${soak.seconds} s soak`,
      target: '≤ 10 %',
      measured: `${soak.growthPct.toFixed(1)} % (${mb(soak.baselineRss)} → ${mb(soak.endRss)})`,
      met: soak.growthPct <= 10,
    });
    checks.push({
      what: 'Errors during the soak',
      target: '0',
      measured: String(soak.errors),
      met: soak.errors === 0,
    });
  }
  if (Array.isArray(run.lighthouse)) {
    for (const l of run.lighthouse) {
      if (l.error) {
        checks.push({ what: `Lighthouse ${l.page}`, target: 'runs', measured: l.error, met: false });
        continue;
      }
      const lcpLimit = l.page === 'login' ? 1000 : 1500;
      add(`Lighthouse ${l.page} LCP`, `≤ ${(lcpLimit / 1000).toFixed(1)} s`, l.lcpMs ?? undefined, lcpLimit);
      add(`Lighthouse ${l.page} TBT`, '≤ 150 ms', l.tbtMs ?? undefined, 150);
      add(`Lighthouse ${l.page} CLS`, '≤ 0.1', l.cls ?? undefined, 0.1, '');
    }
  }
  const all = run.allRows;
  if (all && !('skipped' in all)) {
    if (all.error) {
      checks.push({ what: "'All' rows", target: 'measured', measured: all.error, met: false });
    } else {
      add(`'All' on ${int(all.rows)} rows: first rows`, '≤ 1.0 s', all.firstRowsMs ?? undefined, 1000);
      add(`'All': longest task while scrolling`, '≤ 50 ms', all.maxLongTaskMs ?? 0, 50);
    }
  }
  return checks;
}

function runTitle(run: Run) {
  return `${run.engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}, ${run.orders.toLocaleString('en-US')} orders`;
}

/** The endpoint table of a run, as Markdown. */
export function endpointTable(run: Run): string {
  const lines = [
    '| endpoint | p50 ms | p99 ms | req/s (-c 10) | ratio to hello-world | raw SQL p50 ms | overhead over raw SQL | SQL |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const e of run.endpoints) {
    if (!e.available) {
      lines.push(`| ${e.label} | – | – | – | – | – | – | not available: ${e.note ?? 'no such route yet'} |`);
      continue;
    }
    const sqlCell = e.sql
      ? `${e.sql.statements} statement${e.sql.statements === 1 ? '' : 's'} captured from the endpoint${e.sql.steps < e.sql.statements ? ` (${e.sql.statements - e.sql.steps + 1} in parallel)` : ''}`
      : e.kind === 'hello'
        ? 'none'
        : '–';
    const note = e.note ? ` ${e.note}` : '';
    lines.push(
      `| ${e.label} | ${ms(e.latency?.p50)} | ${ms(e.latency?.p99)} | ${int(e.throughput?.perSecond)} | ${
        e.ratioToHello === undefined ? '–' : `${(e.ratioToHello * 100).toFixed(1)} %`
      } | ${ms(e.raw?.p50)} | ${e.overheadMs === undefined ? '–' : `${e.overheadMs >= 0 ? '+' : ''}${ms(e.overheadMs)} ms`} | ${sqlCell}${note} |`,
    );
  }
  return lines.join('\n');
}

function checksTable(checks: Check[]): string {
  if (!checks.length) return '_No targets could be checked in this run._';
  return [
    '| target | limit | measured | |',
    '|---|---|---|---|',
    ...checks.map((c) => `| ${c.what} | ${c.target} | ${c.measured} | ${c.met ? 'met' : '**MISSED**'} |`),
  ].join('\n');
}

export function runMarkdown(run: Run): string {
  const m = run.machine;
  const out: string[] = [];
  out.push(`## ${runTitle(run)}${run.quick ? ' (quick smoke run: figures not meaningful)' : ''}`);
  out.push('');
  out.push(
    `${run.date} · ${m.cpus} CPU (${m.model}), ${m.ramGb} GB RAM, Node ${m.node}, load average at start ${m.loadAvg
      .map((v) => v.toFixed(2))
      .join(
        ' / ',
      )} · dataset ${run.seed.reused ? 'reused' : `seeded in ${((run.seed.ms ?? 0) / 1000).toFixed(0)} s`}`,
  );
  out.push('');
  out.push(
    `p50/p99: a fixed-rate run (${run.durations.latencyS} s, one connection paced at a quarter of the endpoint's own -c 10 throughput, 5–200 req/s, so queueing does not hide the service time); req/s: -c 10 for ${run.durations.throughputS} s, no pipelining. Raw SQL: the statements captured from the endpoint, replayed one request at a time for ${run.durations.rawS} s straight through the driver (\`pg\` / PGlite), in the same run.`,
  );
  out.push('');
  out.push(endpointTable(run));
  out.push('');
  if (run.jobs?.length) {
    out.push(jobRowsMarkdown(run.jobs));
    out.push('');
  }
  const mem = run.memory;
  out.push(
    `Server RSS: ${mb(mem.startRss)} at start, ${mb(mem.afterBenchRss)} after the benchmark${
      mem.soak
        ? `; soak${mem.soak.fromRun ? ` (run of ${mem.soak.fromRun})` : ''} ${mem.soak.seconds} s at ${mem.soak.rate} req/s over every endpoint: ${mem.soak.requests.toLocaleString('en-US')} requests, ${mem.soak.errors} errors, ${mb(mem.soak.baselineRss)} → ${mb(mem.soak.endRss)} (max ${mb(mem.soak.maxRss)}, ${mem.soak.growthPct.toFixed(1)} %)`
        : '; no soak in this run (`npm run bench -- --soak 600`)'
    }.`,
  );
  out.push('');
  if (Array.isArray(run.lighthouse)) {
    out.push('Lighthouse (desktop preset, system Chromium):');
    out.push('');
    out.push('| page | performance score | LCP | TBT | CLS |');
    out.push('|---|---:|---:|---:|---:|');
    for (const l of run.lighthouse) {
      out.push(
        l.error
          ? `| ${l.page} | failed: ${l.error} | | | |`
          : `| ${l.page} (\`${new URL(l.url).pathname}\`) | ${l.score === null ? '–' : Math.round(l.score * 100)} | ${int(l.lcpMs)} ms | ${int(l.tbtMs)} ms | ${l.cls === null ? '–' : l.cls.toFixed(3)} |`,
      );
    }
  } else if (run.lighthouse) {
    out.push(`Lighthouse: skipped (${run.lighthouse.skipped}).`);
  }
  out.push('');
  const all = run.allRows;
  if (all && 'skipped' in all) {
    out.push(`'All' rows in Chromium: skipped (${all.skipped}).`);
  } else if (all) {
    out.push(
      all.error
        ? `'All' rows in Chromium (${all.folder}, ${int(all.rows)} rows): failed — ${all.error}`
        : `'All' rows in Chromium (${all.folder}, ${int(all.rows)} rows): first rows after ${int(all.firstRowsMs)} ms; ${int(all.domRows)} row elements in the page; ${int(all.longTasksWhileScrolling)} long tasks while scrolling ${int(all.scrolledPx ?? null)} px, the longest ${int(all.maxLongTaskMs)} ms.`,
    );
  }
  out.push('');
  if (run.scale?.length) {
    out.push(
      `Two server instances on the same database against one (-c 10 on one instance for ${run.durations.throughputS} s, then -c 10 on each of two at once; the same 2 cores serve both instances, PostgreSQL and the load generator):`,
    );
    out.push('');
    out.push('| call | one instance req/s | p50 ms | two instances req/s (sum) | p50 ms (each) | ratio |');
    out.push('|---|---:|---:|---:|---:|---:|');
    for (const sc of run.scale) {
      out.push(
        `| ${sc.label} | ${int(sc.one.perSecond)} | ${ms(sc.one.p50)} | ${int(sc.combinedPerSecond)} | ${ms(sc.two[0].p50)} / ${ms(sc.two[1].p50)} | ${(sc.combinedPerSecond / Math.max(1, sc.one.perSecond)).toFixed(2)}× |`,
      );
    }
    out.push('');
  }
  out.push('Targets (set for PostgreSQL with 1,000,000 orders; every row says whether it is met):');
  out.push('');
  out.push(checksTable(run.checks));
  out.push('');
  return out.join('\n');
}

/** PGlite within 2.5× of PostgreSQL at the same size: compares the p50 of runs of equal size. */
export function engineComparison(runs: Run[]): string {
  const out: string[] = [];
  for (const pgRun of runs.filter((r) => r.engine === 'postgres')) {
    const lite = runs.find(
      (r) => r.engine === 'pglite' && r.orders === pgRun.orders && r.quick === pgRun.quick,
    );
    if (!lite) continue;
    out.push(
      `## PGlite vs PostgreSQL at ${pgRun.orders.toLocaleString('en-US')} orders (target: within 2.5×)`,
    );
    out.push('');
    out.push(`Runs of ${pgRun.date} (PostgreSQL) and ${lite.date} (PGlite); p50 of the fixed-rate run.`);
    out.push('');
    out.push('| endpoint | PostgreSQL p50 ms | PGlite p50 ms | ratio | |');
    out.push('|---|---:|---:|---:|---|');
    for (const e of pgRun.endpoints) {
      const l = lite.endpoints.find((x) => x.key === e.key);
      if (!e.latency || !l?.latency || e.kind === 'hello' || e.kind === 'track') continue;
      const ratio = l.latency.p50 / e.latency.p50;
      out.push(
        `| ${e.label} | ${ms(e.latency.p50)} | ${ms(l.latency.p50)} | ${ratio.toFixed(2)}× | ${mark(ratio <= 2.5)} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

export function resultsMarkdown(file: ResultsFile, notes: string): string {
  const runs = Object.values(file.runs).sort(
    (a, b) => Number(a.quick) - Number(b.quick) || b.orders - a.orders || a.engine.localeCompare(b.engine),
  );
  return [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts); the latest run of each engine and size is kept.',
    'Every figure is measured beside its references in the same run, because this machine is shared and noisy.',
    '',
    notes,
    '',
    ...runs.map(runMarkdown),
    engineComparison(runs),
  ].join('\n');
}
