import { FOLDERS, type Folder, type MONTHS } from '../../shared/constants.js';
import type { ListFilters, OrderListRow } from '../../shared/contracts/orders.js';
import { serviceToday } from '../../shared/dates.js';
import { can, readPermissionFor } from '../../shared/permissions.js';
import type { StaffIdentity } from '../context.js';
import type { Database, Db, DbOrTx } from '../db/client.js';
import { forbidden, serviceUnavailable } from '../http/errors.js';
import { CountsMemory } from './counts.js';
import { type FolderScope, monthNumber } from '../orders/folders.js';
import { filtersOf, type ListOptions, listFolder, listTotal, PageKeyCache } from '../orders/list-pages.js';
import { SEARCH_TOTAL_CAP, searchFolder } from '../orders/list-search.js';
import { isStatementTimeout, listNeedsTimeout, withListTimeout } from '../orders/list-timeout.js';

const MSG_LIST_TIMEOUT =
  'This page took too long to read. Go to a nearer page or narrow the list with a filter, then try again.';

/** A list read may take at most this long on PostgreSQL (decision 223). */
const LIST_TIMEOUT_MS = 3_000;

export const isFolder = (name: string): name is Folder => (FOLDERS as readonly string[]).includes(name);

declare module '../context.js' {
  interface AppContext {
    /** The list reads' caches, time limit and in-memory counts (decision 333). */
    lists: ListState;
  }
}

/**
 * What the order lists of one app keep between requests (decision 333), created with the app and held
 * in its context: page 1 of each list (decision 226), the page keys (decision 223), the time limit of
 * a list read and the in-memory counts (decision 220), whose change events make the first two stale.
 */
export class ListState {
  /** Keyset anchors of the newest-first lists: dropped with every change, like the counters. */
  readonly pageKeys = new PageKeyCache();
  /** Page 1 of each list, answered from memory until a change or a due state moves. */
  readonly firstPages = new FirstPageCache();
  readonly counts: CountsMemory;
  /** How long one list read may take on PostgreSQL; tests shorten it. */
  timeoutMs = LIST_TIMEOUT_MS;

  constructor(
    readonly database: Database,
    /** EDCARD_FIRST_PAGE_CACHE=0 at start turns the page-1 cache off. */
    public firstPageCache = true,
  ) {
    this.counts = new CountsMemory(database, this);
  }

  /** Starts hearing the changes that make the counts and pages stale. */
  start(onDrift: (what: string) => void): Promise<void> {
    this.counts.onDrift = onDrift;
    return this.counts.start();
  }

  close(): Promise<void> {
    return this.counts.close();
  }
}

/** What a list read asks: the list (filters, sort, month) and which part of it. */
type ListRequest = ListFilters & {
  month?: (typeof MONTHS)[number] | undefined;
  read:
    | { page: number; limit: number }
    /** A chunk of an export: rows only, neither cached nor under the time limit (a file takes its time). */
    | { chunk: number; limit: number }
    | { search: string; start: number; end: number }
    /** How many orders the list (or a search of it) holds. */
    | { total: true; search?: string | undefined };
};

interface ListAnswer {
  rows: OrderListRow[];
  /** How many orders match (a search: at most SEARCH_TOTAL_CAP); 0 for an export chunk. */
  total: number;
  totalCapped: boolean;
}

/**
 * The one read of an order list (decision 333), for the list, search, export and saved-view routes: a
 * folder's page (page 1 from memory while nothing changed), an export chunk, a search's rows, or how
 * many orders a list holds. The folder must be one the staff member's role may read.
 */
export async function readList(
  ctx: { db: Db; database: Database; lists: ListState },
  staff: Pick<StaffIdentity, 'id' | 'type'>,
  folder: Folder,
  request: ListRequest,
): Promise<ListAnswer> {
  if (!can(staff.type, readPermissionFor(folder))) throw forbidden();
  const { lists, db } = ctx;
  const { month, read, ...query } = request;
  const scope: FolderScope = { today: serviceToday(), staffId: staff.id, month: monthNumber(month) };
  const options: ListOptions = {
    sort: query.sort,
    dir: query.dir,
    filters: filtersOf(query),
    clock: await lists.counts.clock(),
    pageKeys: lists.pageKeys,
  };
  if ('total' in read) {
    if (read.search === undefined) {
      return { rows: [], total: await listTotal(db, folder, scope, options), totalCapped: false };
    }
    const { total } = await searchFolder(db, folder, scope, read.search, 0, 1, options);
    return { rows: [], total: Math.min(total, SEARCH_TOTAL_CAP), totalCapped: false };
  }
  if ('search' in read) return searchFolder(db, folder, scope, read.search, read.start, read.end, options);
  if ('chunk' in read) {
    const rows = await listFolder(db, folder, scope, read.chunk, read.limit, options);
    return { rows, total: 0, totalCapped: false };
  }
  const { page, limit } = read;
  // Page 1 from memory while nothing changed (decision 226); lists by due state change with the clock.
  const pages =
    page === 1 && !options.filters.dueState && lists.firstPageCache ? lists.firstPages : undefined;
  const pageKey = pages
    ? JSON.stringify([
        folder,
        scope.today,
        scope.month ?? 0,
        folder === 'myOrder' || options.filters.assignee === 'me' ? staff.id : 0,
        query,
        limit,
      ])
    : '';
  const at = options.clock.now.getTime();
  const cached = pages?.get<{ rows: OrderListRow[]; total: number }>(pageKey, at);
  if (cached) return { ...cached, totalCapped: false };
  const generation = pages?.generation ?? 0;
  // Under the time limit each read has its own transaction (and connection), so the page and the
  // total still run side by side.
  const timed = listNeedsTimeout(folder, scope, page, limit, options);
  const run = <T>(fn: (d: DbOrTx) => Promise<T>) =>
    timed ? withListTimeout(ctx.database, lists.timeoutMs, fn) : fn(db);
  // All Orders filtered to Needs attention alone holds exactly the orders of the sidebar's count, kept
  // in memory: counting a few hundred thousand flagged orders per page read would cost more than the page.
  const attentionOnly =
    folder === 'allOrder' &&
    Object.entries(options.filters).every(
      ([k, v]) => v === undefined || (k === 'needsAttention' && v === 'true'),
    ) &&
    options.filters.needsAttention === 'true';
  let rows: OrderListRow[];
  let total: number;
  try {
    [rows, total] = await Promise.all([
      run((d) => listFolder(d, folder, scope, page, limit, options)),
      attentionOnly ? lists.counts.needsAttention() : run((d) => listTotal(d, folder, scope, options)),
    ]);
  } catch (err) {
    if (isStatementTimeout(err)) throw serviceUnavailable(MSG_LIST_TIMEOUT);
    throw err;
  }
  const until = nextDueChange(
    rows.map((r) => r.due_at),
    at,
    options.clock.marginHours,
  );
  pages?.set(pageKey, { rows, total }, generation, at, until);
  return { rows, total, totalCapped: false };
}

interface FirstPage<T> {
  value: T;
  generation: number;
  /** The clock moment from which it holds, and the first at which a row's due state moves. */
  from: number;
  until: number;
}

/**
 * Page 1 of each list as last answered (rows and total), per list signature. Dropped with every change
 * of an order, of the due-time policy or of a staff member (names are in the rows), and not used past
 * the first moment a row's due state changes by time alone.
 */
class FirstPageCache {
  private pages = new Map<string, FirstPage<unknown>>();
  generation = 0;

  clear(): void {
    this.generation++;
    this.pages.clear();
  }

  get<T>(key: string, at: number): T | undefined {
    const hit = this.pages.get(key);
    if (!hit || hit.generation !== this.generation || at < hit.from || at >= hit.until) return undefined;
    return hit.value as T;
  }

  set<T>(key: string, value: T, generation: number, from: number, until: number): void {
    if (generation !== this.generation) return;
    if (this.pages.size >= 2_000) this.pages.clear();
    this.pages.set(key, { value, generation, from, until });
  }
}

/** The first moment after `at` when one of these due times changes state (at risk, then breached). */
function nextDueChange(dueTimes: (string | null)[], at: number, marginHours: number): number {
  const margin = marginHours * 3_600_000;
  let next = Number.POSITIVE_INFINITY;
  for (const d of dueTimes) {
    if (!d) continue;
    const due = Date.parse(d);
    // At risk once less than the margin is left: from the millisecond after due − margin.
    if (due - margin + 1 > at) next = Math.min(next, due - margin + 1);
    if (due > at) next = Math.min(next, due);
  }
  return next;
}
