import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/** One statement the server ran while serving a request, with its timing inside that request. */
export interface CapturedQuery {
  text: string;
  params: unknown[];
  start: number;
  end: number;
}

/** Statements that overlapped in time ran in parallel (Promise.all): they are replayed together. */
export type QueryPlan = { text: string; params: unknown[] }[][];

interface Queryable {
  query: (...args: never[]) => Promise<unknown>;
}

/**
 * The capture id of the HTTP request a piece of code runs for (header x-bench-capture). Background jobs
 * poll the database meanwhile, and a job first started from some request keeps that request's context, so
 * only statements of the request being captured are kept.
 */
export const inRequest = new AsyncLocalStorage<string>();
export const CAPTURE_HEADER = 'x-bench-capture';

/**
 * Wraps the driver client under Drizzle (pg.Pool or PGlite) so that, while recording, every statement
 * an HTTP request runs — the guard's staff lookup included — is kept with its parameters. The benchmark's
 * "raw SQL" floor replays exactly these statements, so no SQL text is copied from the areas.
 */
export function captureQueries(client: Queryable) {
  let recording: CapturedQuery[] | null = null;
  let captureId = '';
  const wrap = (target: Queryable) => {
    const original = target.query.bind(target) as (...args: unknown[]) => Promise<unknown>;
    (target as { query: unknown }).query = async (...args: unknown[]) => {
      const log = recording;
      if (!log || inRequest.getStore() !== captureId) return original(...args);
      const first = args[0] as string | { text: string; values?: unknown[] };
      const text = typeof first === 'string' ? first : first.text;
      const params =
        (args[1] as unknown[] | undefined) ?? (typeof first === 'string' ? [] : (first.values ?? []));
      const entry: CapturedQuery = { text, params: [...params], start: performance.now(), end: 0 };
      log.push(entry);
      try {
        return await original(...args);
      } finally {
        entry.end = performance.now();
      }
    };
  };
  const add = (one: Queryable) => {
    wrap(one);
    // Transactions (pg.Pool#connect) run on a checked-out client: its statements are the request's too.
    const pool = one as unknown as { connect?: (...a: unknown[]) => Promise<Queryable> };
    if (typeof pool.connect === 'function') {
      const connect = pool.connect.bind(pool);
      const wrapped = new WeakSet<object>();
      pool.connect = async (...a: unknown[]) => {
        if (a.length) return connect(...a);
        const c = await connect();
        if (!wrapped.has(c)) {
          wrapped.add(c);
          wrap(c);
        }
        return c;
      };
    }
  };
  add(client);
  return {
    /** Records another client's statements too (a second pool of the same database). */
    add,
    start(id: string) {
      captureId = id;
      recording = [];
    },
    stop(): CapturedQuery[] {
      const out = recording ?? [];
      recording = null;
      // The promise hook of the request context goes off until the next capture (bench/server.ts).
      inRequest.disable();
      return out;
    },
  };
}

/**
 * Transaction control (BEGIN, COMMIT, SET LOCAL) is left out of the replay: the floor replays the
 * reads, one statement at a time through the pool, so it would leave a pooled connection in a transaction.
 */
const CONTROL = /^\s*(begin|commit|rollback|set local|savepoint|release)\b/i;

/** Groups captured statements: one that started before the previous ones ended ran beside them. */
export function planOf(queries: CapturedQuery[]): QueryPlan {
  const sorted = [...queries].sort((a, b) => a.start - b.start);
  const plan: QueryPlan = [];
  let groupEnd = -1;
  for (const q of sorted) {
    if (CONTROL.test(q.text)) continue;
    const step = { text: q.text, params: q.params };
    if (plan.length && q.start < groupEnd) {
      plan[plan.length - 1]!.push(step);
      groupEnd = Math.max(groupEnd, q.end);
    } else {
      plan.push([step]);
      groupEnd = q.end;
    }
  }
  return plan;
}

export interface RawRunner {
  query(text: string, params: unknown[]): Promise<unknown>;
}

export interface RawStats {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  perSecond: number;
}

/** Runs the plan back to back (one at a time: the unloaded floor) for `durationMs` after a warm-up. */
export async function measurePlan(runner: RawRunner, plan: QueryPlan, durationMs: number): Promise<RawStats> {
  // A replayed sign-in would insert the captured session id again; the replay keeps the insert's cost
  // and skips the duplicate instead of failing on the key.
  const replayable = plan.map((group) =>
    group.map((q) =>
      /^\s*insert into "staff_sessions"/i.test(q.text) && !/on conflict/i.test(q.text)
        ? { ...q, text: `${q.text} on conflict do nothing` }
        : q,
    ),
  );
  const once = async () => {
    for (const group of replayable) await Promise.all(group.map((q) => runner.query(q.text, q.params)));
  };
  const warmUntil = performance.now() + Math.min(500, durationMs / 4);
  while (performance.now() < warmUntil) await once();
  const times: number[] = [];
  const started = performance.now();
  const until = started + durationMs;
  while (performance.now() < until || times.length < 20) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  const elapsed = performance.now() - started;
  const s = summarize(times);
  return { samples: times.length, ...s, perSecond: times.length / (elapsed / 1000) };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function summarize(values: number[]) {
  const sorted = Float64Array.from(values).sort();
  const arr = Array.from(sorted);
  const mean = arr.reduce((a, b) => a + b, 0) / (arr.length || 1);
  return { p50: percentile(arr, 50), p95: percentile(arr, 95), p99: percentile(arr, 99), mean };
}
