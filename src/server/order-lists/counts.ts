import { sql } from 'drizzle-orm';
import { FOLDER_COUNT_KEYS, type FolderCounts } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import type { Database, DbOrTx } from '../db/client.js';
import { repliedCount } from '../inbound/conversation.js';
import { callBackDueCount } from '../orders/contacts.js';
import { onCacheEvent } from '../db/cache-events.js';
import { dueNow, getDueTimePolicy, type DueClock, readDueClock } from '../due-time/policy.js';
import { type CounterRow, type DayCounts, dayCounts, readCounterRows } from './counter-rows.js';
import { folderCounts, needsAttentionCount, dueCounts } from '../orders/list-counts.js';

export type CountsAnswer = FolderCounts & {
  atRiskCount: number;
  breachedCount: number;
  needsAttentionCount: number;
  tripPassedCount: number;
};

/**
 * What get-folder-count answers for one staff member straight from the database: every folder count
 * and the due-time counts. The in-memory counts below answer the same from memory; this is their
 * reference (tests and the periodic check).
 */
export async function countsFromDatabase(db: DbOrTx, staffId: number): Promise<CountsAnswer> {
  const [counts, due, attention] = await Promise.all([
    folderCounts(db, { today: serviceToday(), staffId }),
    readDueClock(db).then((clock) => dueCounts(db, clock)),
    needsAttentionCount(db),
  ]);
  return { ...counts, ...due, needsAttentionCount: attention };
}

interface DueSnapshot {
  breachedCount: number;
  atRiskCount: number;
  tripPassedCount: number;
  marginHours: number;
  /** The moment it was read, and the first moment a count changes by time alone. */
  from: number;
  until: number;
  generation: number;
}

/** The caches of the list reads that a change of an order, a staff member or the policy makes stale. */
interface ListCaches {
  pageKeys: { clear(): void };
  firstPages: { clear(): void };
}

/** How long another instance's correction may take to show in the Needs attention count. */
const ATTENTION_TTL_MS = 5_000;

/** Periodic comparison with the database, and the metric of what it found. */
export const COUNTS_CHECK_MS = 60_000;

/**
 * Folder and due-time counts of one server instance, in memory (decision 220). The counters table is
 * read on start; a statement trigger on it publishes `counts` on the cache channel whenever an order
 * changes, and the next request re-reads it (a few thousand rows, once per burst of changes), so a
 * count request touches no database while nothing changes. The service day is applied when a request
 * asks (the rows keep the processing dates), so the date-dependent folders move at midnight in the
 * service time zone without a job. The due-time counts are kept with the first moment either of them
 * changes by time alone (the next due time to pass, the next to come within the margin) and re-read
 * then, on a timer, so they stay exact. Every COUNTS_CHECK_MS the counters are read again and compared;
 * a difference is logged and counted (`drifts`), and replaced.
 */
export class CountsMemory {
  private rows: CounterRow[] | null = null;
  private day: DayCounts | null = null;
  /** Raised by every change event; a read that started before it is stale. */
  private generation = 0;
  private loadedGeneration = -1;
  private loading: Promise<void> | null = null;
  private dueSnapshot: DueSnapshot | null = null;
  private dueLoading: Promise<DueSnapshot> | null = null;
  private marginHours: number | null = null;
  private timers: NodeJS.Timeout[] = [];
  private dueTimer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private offCommit: (() => void) | null = null;
  private closed = false;
  /** Differences found by the periodic check (a metric for tests and /metrics readers). */
  drifts = 0;
  /** Database reads of the counters, for tests and the bench. */
  reads = 0;
  /**
   * The Needs attention count: a correction moves no counter, so it is dropped on this instance's
   * commits and on every change event, and read again after ATTENTION_TTL_MS at most (other instances).
   */
  private attention: { n: number; at: number } | null = null;
  private attentionLoading: Promise<number> | null = null;

  /** Told of each difference the periodic check finds. */
  onDrift: (what: string) => void = () => {};

  constructor(
    private readonly database: Database,
    /** What the list reads keep (read-list.ts ListState): stale after the changes heard here. */
    private readonly lists: ListCaches,
  ) {}

  async start(): Promise<void> {
    // Listening needs no table: the counters are first read by the first request (the server may
    // still be migrating now).
    this.unlisten = await onCacheEvent(this.database, (payload) => this.onEvent(payload));
    // This instance's own changes drop page 1 as they commit, before their answer is sent: the
    // notification comes a few milliseconds later, and a list asked for in between must not be old.
    this.offCommit = this.database.onCommit(() => {
      this.lists.firstPages.clear();
      this.attention = null;
    });
    this.timers.push(setInterval(() => void this.check(), COUNTS_CHECK_MS).unref());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.offCommit?.();
    for (const t of this.timers) clearInterval(t);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    await this.unlisten?.();
  }

  private onEvent(payload: string): void {
    if (payload.startsWith('staff:')) this.lists.firstPages.clear(); // assignee names are in the rows
    if (payload === 'counts') {
      this.attention = null;
      this.generation++;
      this.dueSnapshot = null;
      this.lists.pageKeys.clear();
      this.lists.firstPages.clear();
    } else if (payload === 'settings') {
      this.marginHours = null;
      this.dueSnapshot = null;
      this.lists.firstPages.clear();
    }
  }

  private async readRows(): Promise<CounterRow[]> {
    this.reads++;
    return readCounterRows(this.database.db);
  }

  /** Reads the counters again if a change came since the last read (one read in flight at a time). */
  private async ensureRows(): Promise<void> {
    while (this.loadedGeneration !== this.generation) {
      if (!this.loading) {
        const gen = this.generation;
        this.loading = this.readRows().then(
          (rows) => {
            this.rows = rows;
            this.day = null;
            this.loadedGeneration = gen;
            this.loading = null;
          },
          (err) => {
            this.loading = null;
            throw err;
          },
        );
      }
      await this.loading;
    }
  }

  private async margin(): Promise<number> {
    if (this.marginHours === null) {
      this.marginHours = (await getDueTimePolicy(this.database.db)).atRiskMarginHours;
    }
    return this.marginHours;
  }

  /** The due-time clock without a database read while the policy is unchanged. */
  async clock(): Promise<DueClock> {
    return { now: dueNow(), marginHours: await this.margin() };
  }

  private async readDueSnapshot(): Promise<DueSnapshot> {
    const generation = this.generation;
    const clock = await this.clock();
    const at = clock.now.getTime();
    const marginMs = clock.marginHours * 3_600_000;
    const now = clock.now.toISOString();
    const edge = new Date(at + marginMs).toISOString();
    // The definition of dueCounts (orders/list-counts.ts): a trip that ends moves an order from late to trip passed.
    const { rows } = await this.database.db.execute<{
      breached: string;
      at_risk: string;
      trip_passed: string;
      next_breach: string | null;
      next_risk: string | null;
      next_trip_end: string | null;
    }>(sql`
      select (select count(*) from orders where due_at <= ${now}::timestamptz
                and (trip_ends_at is null or trip_ends_at > ${now}::timestamptz))::text as breached,
             (select count(*) from orders where due_at > ${now}::timestamptz
                and due_at < ${edge}::timestamptz
                and (trip_ends_at is null or trip_ends_at > ${now}::timestamptz))::text as at_risk,
             (select count(*) from orders where trip_ends_at <= ${now}::timestamptz)::text as trip_passed,
             (select min(due_at) from orders where due_at > ${now}::timestamptz)::text as next_breach,
             (select min(due_at) from orders where due_at >= ${edge}::timestamptz)::text as next_risk,
             (select min(trip_ends_at) from orders where trip_ends_at > ${now}::timestamptz)::text as next_trip_end`);
    const r = rows[0];
    const nextBreach = r?.next_breach ? Date.parse(r.next_breach) : Number.POSITIVE_INFINITY;
    const nextRisk = r?.next_risk ? Date.parse(r.next_risk) - marginMs + 1 : Number.POSITIVE_INFINITY;
    const nextTripEnd = r?.next_trip_end ? Date.parse(r.next_trip_end) : Number.POSITIVE_INFINITY;
    return {
      breachedCount: Number(r?.breached ?? 0),
      atRiskCount: Number(r?.at_risk ?? 0),
      tripPassedCount: Number(r?.trip_passed ?? 0),
      marginHours: clock.marginHours,
      from: at,
      until: Math.min(nextBreach, nextRisk, nextTripEnd),
      generation,
    };
  }

  private dueSnapshotValid(s: DueSnapshot | null, at: number): s is DueSnapshot {
    return !!s && s.generation === this.generation && at >= s.from && at < s.until;
  }

  private async dueSnapshotNow(): Promise<DueSnapshot> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const at = dueNow().getTime();
      if (this.dueSnapshotValid(this.dueSnapshot, at)) return this.dueSnapshot;
      if (!this.dueLoading) {
        this.dueLoading = this.readDueSnapshot().finally(() => {
          this.dueLoading = null;
        });
      }
      const s = await this.dueLoading;
      if (s.generation === this.generation) {
        this.dueSnapshot = s;
        this.scheduleDueSnapshot(s);
      }
      if (this.dueSnapshotValid(s, dueNow().getTime())) return s;
    }
    // Changes keep coming: answer the latest read rather than wait for a quiet moment.
    return this.dueSnapshot ?? this.readDueSnapshot();
  }

  /** Reads the due-time counts again when the next one changes by time, so a request need not. */
  private scheduleDueSnapshot(s: DueSnapshot): void {
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueTimer = null;
    if (this.closed || !Number.isFinite(s.until)) return;
    const wait = s.until - Date.now();
    // Only the real clock is worth a timer (tests move the due clock by hand); at most a day ahead.
    if (wait < 0 || wait > 86_400_000) return;
    this.dueTimer = setTimeout(() => {
      this.dueTimer = null;
      void this.dueSnapshotNow().catch(() => {});
    }, wait + 1);
    this.dueTimer.unref();
  }

  /** Every count for one staff member; no database read unless something changed. */
  async countsFor(staffId: number): Promise<CountsAnswer> {
    // Checks change with an order's data, which moves no folder counter: the Needs attention count is
    // read on its own (a sum of its counter rows, drizzle/0115), at most ATTENTION_TTL_MS old.
    const [due, , attention] = await Promise.all([
      this.dueSnapshotNow(),
      this.ensureRows(),
      this.needsAttention(),
    ]);
    const today = serviceToday();
    if (!this.day || this.day.today !== today) this.day = dayCounts(this.rows ?? [], today);
    return {
      ...this.day.base,
      [FOLDER_COUNT_KEYS.myOrder]: this.day.open.get(staffId) ?? 0,
      atRiskCount: due.atRiskCount,
      breachedCount: due.breachedCount,
      needsAttentionCount: attention,
      tripPassedCount: due.tripPassedCount,
    };
  }

  /**
   * Orders being worked with a failing check, whole system: the sidebar's count, and the total of the
   * All Orders list filtered to Needs attention alone (the same orders). At most 5 s old.
   */
  async needsAttention(): Promise<number> {
    const a = this.attention;
    if (a && Date.now() - a.at < ATTENTION_TTL_MS) return a.n;
    if (!this.attentionLoading) {
      const at = Date.now();
      this.attentionLoading = needsAttentionCount(this.database.db).finally(() => {
        this.attentionLoading = null;
      });
      const n = await this.attentionLoading;
      this.attention = { n, at };
      return n;
    }
    return this.attentionLoading;
  }

  /** The periodic check: the counters read again and compared with memory. */
  async check(): Promise<boolean> {
    if (this.closed) return true;
    try {
      const gen = this.generation;
      const rows = await this.readRows();
      if (gen !== this.generation || this.loadedGeneration !== gen || !this.rows) return true;
      const key = (r: CounterRow) => `${r.status}|${r.priority}|${r.assignedTo}|${r.day}|${r.n}`;
      const mine = new Set(this.rows.map(key));
      const same = rows.length === this.rows.length && rows.every((r) => mine.has(key(r)));
      if (!same) {
        this.drifts++;
        this.onDrift(`folder counters differed from the database (${rows.length} rows read)`);
        this.rows = rows;
        this.day = null;
        this.lists.pageKeys.clear();
        this.lists.firstPages.clear();
      }
      return same;
    } catch {
      return true; // The database is away; the next check compares again.
    }
  }
}

/** Every count of one staff member (get-folder-count and the live stream): the folder and due-time counts from memory. */
export async function countsFor(
  memory: CountsMemory,
  db: DbOrTx,
  staffId: number,
): Promise<CountsAnswer & { repliedCount: number; callBackDueCount: number }> {
  const [counts, replied, callBacks] = await Promise.all([
    memory.countsFor(staffId),
    repliedCount(db, staffId),
    callBackDueCount(db, staffId),
  ]);
  return { ...counts, repliedCount: replied, callBackDueCount: callBacks };
}
