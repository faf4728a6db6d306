import { randomBytes } from 'node:crypto';
import { OPENING_LEAD_MS } from '../src/server/flows/submission-window.js';
import type { JobRequest } from './jobs.js';
import { runLoad, type Scenario } from './load.js';

/**
 * The sixth round's rows that are background work rather than one request: a submission window opening
 * for 10,000 orders, the routing decision and 1,000 arrivals a minute, the payout sync of 10,000
 * transactions, the card check itself with `/api/health` beside it, and a pass of the waiting policy with 200,000
 * orders waiting. The work runs in the server
 * under test's process (bench/jobs.ts); this side asks for it, sends the arrivals and the health
 * requests over HTTP, and judges each row against its target.
 */

export interface JobRow {
  key: string;
  label: string;
  /** How much work the row measured (orders, transactions, cards). */
  count: number;
  p50?: number | null | undefined;
  p99?: number | null | undefined;
  /** The figure the target is about, as written in the table. */
  measured: string;
  target: string;
  /** null: not judged (the row did less work than its target names, or failed). */
  met: boolean | null;
  errors: number;
  note?: string | undefined;
}

export const JOB_ROW_KEYS = [
  'window-open',
  'routing-decision',
  'routing-arrivals',
  'payout-sync',
  'card-check-run',
  'waiting-pass',
] as const;

interface Server {
  call<T>(msg: { type: 'job'; request: JobRequest }): Promise<T>;
  ready: { appPort: number };
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const fmt = (v: number | null | undefined) =>
  v === null || v === undefined || Number.isNaN(v)
    ? '–'
    : v < 10
      ? v.toFixed(2)
      : v < 100
        ? v.toFixed(1)
        : v.toFixed(0);
const n = (v: number) => v.toLocaleString('en-US');

export async function measureJobRows(
  server: Server,
  opts: {
    quick: boolean;
    only: string[] | undefined;
    /** An intake order body for arrival i (the intake row's own). */
    arrival: (i: number) => Record<string, unknown>;
    intakeHeaders: Record<string, string>;
    /** A staff list read (page 1 of All Orders, signed in), probed beside /api/health during the card checks. */
    listRead: { path: string; headers: Record<string, string> };
    clientIp: (i: number) => string;
    log: (line: string) => void;
  },
): Promise<JobRow[]> {
  const { quick, only, log } = opts;
  const wanted = (k: string) => !only || only.includes(k);
  const rows: JobRow[] = [];
  const job = <T>(request: JobRequest) => server.call<T>({ type: 'job', request });
  const failed = (key: string, label: string, target: string, err: unknown): JobRow => ({
    key,
    label,
    count: 0,
    // The first line only: a failed query's message carries the whole statement.
    measured: `failed: ${(err as Error).message.split('\n')[0]!.slice(0, 200)}`,
    target,
    met: null,
    errors: 1,
  });
  const push = (row: JobRow) => {
    rows.push(row);
    log(
      `  ${row.label}: ${row.measured} (target ${row.target})${row.errors ? `, ${row.errors} errors` : ''}`,
    );
  };

  if (wanted('window-open')) {
    const label = 'submission window opening, end to end (the job prepares it ahead)';
    const target = '≤ 2 s for 10,000 orders';
    try {
      const r = await job<{
        picked: number;
        moved: number;
        landedMs: number;
        setupMs: number;
        restoreMs: number;
      }>({
        job: 'window-open',
        orders: 10_000,
      });
      push({
        key: 'window-open',
        label,
        count: r.moved,
        measured: `${n(r.moved)} of ${n(r.picked)} orders in New Orders ${fmt(r.landedMs)} ms after the moment`,
        target,
        met: r.picked >= 10_000 ? r.moved === r.picked && r.landedMs <= 2000 : null,
        errors: r.moved === r.picked ? 0 : 1,
        note: `${n(r.picked)} New orders opening at one moment${r.picked < 10_000 ? ' (all the New orders this dataset holds)' : ''}; the opener's lead ${OPENING_LEAD_MS / 1000} s`,
      });
    } catch (err) {
      push(failed('window-open', label, target, err));
    }
  }

  const routing = wanted('routing-decision') || wanted('routing-arrivals');
  if (routing) {
    try {
      const setup = await job<{ parked: number; ms: number }>({ job: 'routing-setup', staff: 50 });
      log(`  routing: 50 members on shift, ${n(setup.parked)} waiting orders parked (${fmt(setup.ms)} ms)`);
      if (wanted('routing-decision')) {
        const label = 'routing decision: one pass for one arriving order (50 members)';
        const target = 'p50 ≤ 5 ms';
        try {
          const samples = await job<{ ms: number; assigned: number }[]>({
            job: 'routing-decision',
            count: quick ? 10 : 50,
          });
          const own = samples.filter((s) => s.assigned === 1).map((s) => s.ms);
          const p50 = pct(own, 50);
          push({
            key: 'routing-decision',
            label,
            count: own.length,
            p50,
            p99: pct(own, 99),
            measured: `p50 ${fmt(p50)} ms over ${own.length} passes`,
            target,
            met: own.length ? p50 <= 5 : null,
            errors: samples.filter((s) => s.assigned > 1).length,
            note: `${samples.length - own.length} of ${samples.length} passes found the order taken by the routing worker's own pass`,
          });
        } catch (err) {
          push(failed('routing-decision', label, target, err));
        }
      }
      if (wanted('routing-arrivals')) {
        const label = 'arrivals at 1,000 a minute (intake), assigned by the routing worker';
        const target = 'every order assigned within 60 s of its arrival';
        try {
          const reference = `bench-arrival-${randomBytes(4).toString('hex')}-`;
          const durationS = quick ? 6 : 60;
          const scenario: Scenario = {
            method: 'POST',
            path: '/api/intake/orders',
            headers: opts.intakeHeaders,
            vary: (i) => ({
              headers: { 'x-forwarded-for': opts.clientIp(2_000_000 + i) },
              body: {
                ...opts.arrival(1_000_000 + i),
                client_reference: `${reference}${i}`,
                transaction_id: `ch_${reference}${i}`,
              },
            }),
          };
          const load = await runLoad(server.ready.appPort, scenario, {
            connections: 10,
            durationS,
            // 17 a second: 1,020 a minute (the load generator paces whole requests per second).
            rate: 17,
          });
          const lastArrival = Date.now();
          // The routing worker passes every 15 s: wait for it up to 60 s past the last arrival (+ 15 s).
          let seen: { createdMs: number; assignedMs: number | null }[] = [];
          for (;;) {
            seen = await job({ job: 'routing-arrivals', reference });
            if (seen.length && seen.every((s) => s.assignedMs !== null)) break;
            if (Date.now() - lastArrival > 75_000) break;
            await new Promise((r) => setTimeout(r, 2000));
          }
          const waits = seen.filter((s) => s.assignedMs !== null).map((s) => s.assignedMs! - s.createdMs);
          const unassigned = seen.length - waits.length;
          const worst = waits.length ? Math.max(...waits) : Number.NaN;
          push({
            key: 'routing-arrivals',
            label,
            count: seen.length,
            p50: pct(waits, 50),
            p99: pct(waits, 99),
            measured: `${n(seen.length)} arrivals in ${durationS} s: ${n(waits.length)} assigned, longest wait ${fmt(worst / 1000)} s, p50 ${fmt(pct(waits, 50) / 1000)} s${unassigned ? `, ${unassigned} unassigned` : ''}`,
            target,
            met: seen.length >= 1000 ? unassigned === 0 && worst <= 60_000 : null,
            errors: load.errors,
            note: `intake p50 ${fmt(load.p50)} ms, p99 ${fmt(load.p99)} ms, ${load.ok} × 2xx${load.errors ? `, ${load.errors} errors (${JSON.stringify(load.statusCounts)})` : ''}`,
          });
        } catch (err) {
          push(failed('routing-arrivals', label, target, err));
        }
      }
    } catch (err) {
      push(failed('routing-decision', 'routing (setup)', 'p50 ≤ 5 ms', err));
    } finally {
      const back = await job<{ released: number; unparked: number }>({ job: 'routing-teardown' });
      log(`  routing off again: ${n(back.released)} routed and ${n(back.unparked)} parked orders unassigned`);
    }
  }

  if (wanted('payout-sync')) {
    const label = 'payout sync (the hourly job) against the local Stripe double';
    const target = '≤ 30 s for 10,000 transactions';
    const count = quick ? 2_000 : 10_000;
    try {
      const r = await job<{
        ms: number;
        requests: number;
        answer: { payouts: number; transactions: number; stored: number; matched: number; complete: boolean };
      }>({ job: 'payout-sync', transactions: count });
      const a = r.answer;
      push({
        key: 'payout-sync',
        label,
        count: a.stored,
        measured: `${n(a.stored)} transactions stored in ${fmt(r.ms / 1000)} s`,
        target,
        met: count >= 10_000 && a.complete ? r.ms <= 30_000 : null,
        errors: a.stored === count && a.complete ? 0 : 1,
        note: `${a.payouts} payouts, ${r.requests} provider requests, ${n(a.matched)} matched to an order, ${a.complete ? 'complete' : 'stopped at its bound'}`,
      });
    } catch (err) {
      push(failed('payout-sync', label, target, err));
    }
  }

  if (wanted('card-check-run')) {
    const label = 'card check of a stored 1-page card (text + QR), two at a time';
    const target = 'p50 ≤ 300 ms; /api/health and a list read p99 ≤ 100 ms meanwhile';
    try {
      const count = quick ? 4 : 20;
      // The cards are built and stored first; /api/health is probed while they are checked.
      const { docs, readMs } = await job<{ docs: number[]; readMs: number[] }>({
        job: 'card-check-setup',
        count,
      });
      let done = false;
      const health: number[] = [];
      const listReads: number[] = [];
      let healthErrors = 0;
      // 20 requests a second each, one at a time, while the checks run: /api/health and a list read.
      const probe = (path: string, headers: Record<string, string>, into: number[]) =>
        (async () => {
          while (!done) {
            const t0 = performance.now();
            try {
              const res = await fetch(`http://127.0.0.1:${server.ready.appPort}${path}`, { headers });
              await res.arrayBuffer();
              if (res.ok) into.push(performance.now() - t0);
              else healthErrors++;
            } catch {
              healthErrors++;
            }
            await new Promise((r) => setTimeout(r, Math.max(0, 50 - (performance.now() - t0))));
          }
        })();
      const pacer = Promise.all([
        probe('/api/health', {}, health),
        probe(opts.listRead.path, opts.listRead.headers, listReads),
      ]);
      const { samples } = await job<{ samples: { ms: number; result: string }[] }>({
        job: 'card-check',
        docs,
        concurrency: 2,
      }).finally(() => {
        done = true;
      });
      await pacer;
      const times = samples.map((s) => s.ms);
      const tally: Record<string, number> = {};
      for (const s of samples) tally[s.result] = (tally[s.result] ?? 0) + 1;
      const p50 = pct(times, 50);
      const hp99 = pct(health, 99);
      const lp99 = pct(listReads, 99);
      push({
        key: 'card-check-run',
        label,
        count: samples.length,
        p50,
        p99: pct(times, 99),
        measured: `p50 ${fmt(p50)} ms over ${samples.length} cards; /api/health p50 ${fmt(pct(health, 50))} ms, p99 ${fmt(hp99)} ms (${health.length} requests); list page 1 p50 ${fmt(pct(listReads, 50))} ms, p99 ${fmt(lp99)} ms (${listReads.length} requests)`,
        target,
        met: samples.length ? p50 <= 300 && hp99 <= 100 && lp99 <= 100 : null,
        errors: samples.filter((s) => s.result !== 'pass').length + healthErrors,
        note: `results: ${Object.entries(tally)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}; the worker's read alone, one card at a time: ${readMs.map(fmt).join(', ')} ms`,
      });
    } catch (err) {
      push(failed('card-check-run', label, target, err));
    }
  }
  if (wanted('waiting-pass')) {
    const label = 'waiting policy: one pass with many orders waiting, 50 of them due';
    const target = '< 50 ms with 200,000 waiting (at 3,000,000 orders)';
    try {
      const waiting = quick ? 500 : 200_000;
      const r = await job<{
        waiting: number;
        moved: number;
        setupMs: number;
        samples: { ms: number; looked: number }[];
      }>({ job: 'waiting-pass', waiting, due: 50, passes: quick ? 5 : 20 });
      const times = r.samples.map((s) => s.ms);
      const p50 = pct(times, 50);
      const looked = r.samples.reduce((a, s) => a + s.looked, 0);
      push({
        key: 'waiting-pass',
        label,
        count: r.samples.length,
        p50,
        p99: pct(times, 99),
        measured: `p50 ${fmt(p50)} ms, longest ${fmt(Math.max(...times))} ms over ${r.samples.length} passes, ${n(r.waiting)} orders waiting`,
        target,
        met: r.waiting >= 200_000 ? Math.max(...times) < 50 : null,
        errors: looked === r.samples.length * 50 ? 0 : 1,
        note: `${n(looked)} due orders looked at; ${n(r.moved)} Completed orders moved to Awaiting for the row and back (setup ${fmt(r.setupMs / 1000)} s)`,
      });
    } catch (err) {
      push(failed('waiting-pass', label, target, err));
    }
  }
  return rows;
}

/** The job rows as Markdown: what each measured against its target. */
export function jobRowsMarkdown(rows: JobRow[]): string {
  if (!rows.length) return '';
  return [
    'Background work of the sixth round, run in the server under test (bench/sixth-round-jobs.ts):',
    '',
    '| row | measured | p50 ms | p99 ms | target | | notes |',
    '|---|---|---:|---:|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.measured} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.target} | ${
          r.met === null ? 'not judged' : r.met ? 'met' : '**MISSED**'
        } | ${r.note ?? ''}${r.errors ? ` (${r.errors} errors)` : ''} |`,
    ),
  ].join('\n');
}
