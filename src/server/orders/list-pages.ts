import { type SQL, sql } from 'drizzle-orm';
import type { Folder } from '../../shared/constants.js';
import type { ListFilters, ListSortKey, OrderListRow, SortDirection } from '../../shared/contracts/orders.js';
import { DEFAULT_LIST_SORT } from '../../shared/list-sort.js';
import { countryName } from '../../shared/countries.js';
import type { DbOrTx } from '../db/client.js';
import { dueColumnsOf, type DueClock, dueStateWhere } from '../due-time/policy.js';
import { counterWhere, type FolderScope, folderWhere } from './folders.js';
import { type RawRow, rowColumns } from './list-rows.js';
import { sortedPage } from './list-sorted.js';

/**
 * Read side of the order lists: folder counts, folder pages and search. The write side (status
 * changes, assignment, deletion) lives in the order commands (status.ts, assignment.ts, delete-restore.ts).
 */

/**
 * One page of a folder (optionally narrowed by a search condition), newest first. The inner query
 * reads only the folder's partial index (ids and sort keys), so skipping to a deep page touches no
 * table rows; the outer query fetches just the page.
 */
export async function pageOf(
  db: DbOrTx,
  where: SQL,
  offset: number,
  limit: number,
  clock: DueClock,
  scan: 'newest-first' | 'oldest-first' = 'newest-first',
  keys?: PageKey[],
): Promise<OrderListRow[]> {
  // Oldest-first walks the same index backwards; the page is still answered newest first.
  const inner =
    scan === 'newest-first'
      ? sql`order by created_at desc nulls last, order_id desc nulls last`
      : sql`order by created_at asc nulls first, order_id asc nulls first`;
  const { rows } = await db.execute<RawRow & { page_key?: string }>(sql`
    select ${rowColumns(clock)}${keys ? sql`, p.created_at::text as page_key` : sql``}
    from (select order_id, created_at from orders where ${where}
          ${inner} limit ${limit} offset ${offset}) p
    join orders o on o.order_id = p.order_id
    left join staff_users s on s.id = o.assigned_to
    order by p.created_at desc nulls last, p.order_id desc nulls last`);
  return rows.map((r) => {
    if (keys) {
      keys.push({ createdAt: r.page_key!, orderId: Number(r.order_id) });
      delete r.page_key;
    }
    return { ...r, order_id: Number(r.order_id) };
  });
}

/** The newest-first sort key of one row (created_at in full precision, as text). */
export interface PageKey {
  createdAt: string;
  orderId: number;
}

/** Where a page starts: at a row (inclusive) or just after one (exclusive). */
interface PageAnchor {
  key: PageKey;
  inclusive: boolean;
}

/**
 * Keyset paging under the page numbers (decision 223): the first key of every page read, and the key
 * just after its last row (the next page's start), per list (folder, day, user for My Orders, filters,
 * page size). A page is then read by seeking from the nearest known start at or before it, so a page
 * the screens already reached costs what page 1 does. Any committed order change drops them all (the
 * counts' change event), so pages stay exactly the OFFSET pages of the moment.
 */
export class PageKeyCache {
  private lists = new Map<string, Map<number, PageAnchor>>();
  private size = 0;
  generation = 0;

  clear(): void {
    this.generation++;
    this.lists.clear();
    this.size = 0;
  }

  nearest(list: string, page: number): { page: number; anchor: PageAnchor } | null {
    const anchors = this.lists.get(list);
    if (!anchors) return null;
    let best: { page: number; anchor: PageAnchor } | null = null;
    for (const [p, anchor] of anchors) {
      if (p <= page && (!best || p > best.page)) best = { page: p, anchor };
    }
    return best;
  }

  remember(list: string, generation: number, page: number, anchor: PageAnchor): void {
    if (generation !== this.generation) return; // read before a change: its keys may be stale
    if (this.size >= 50_000) this.clear();
    let anchors = this.lists.get(list);
    if (!anchors) {
      anchors = new Map();
      this.lists.set(list, anchors);
    }
    if (!anchors.has(page)) this.size++;
    anchors.set(page, anchor);
  }
}

/** The filters as a condition over the unaliased orders table; null when there are none. */
export function filterWhere(filters: ListFilters, staffId: number, clock: DueClock): SQL | null {
  const parts: SQL[] = [];
  if (filters.nationality) {
    // Orders carry the country's name (intake) or, from older imports, the code itself.
    const code = filters.nationality.toUpperCase();
    parts.push(sql`nationality in (${countryName(code)}, ${code})`);
  }
  if (filters.processingMode) parts.push(sql`processing_mode = ${filters.processingMode}`);
  if (filters.assignee === 'me') parts.push(sql`assigned_to = ${staffId}`);
  else if (filters.assignee === 'none') parts.push(sql`assigned_to is null`);
  else if (filters.assignee) parts.push(sql`assigned_to = ${Number(filters.assignee)}`);
  if (filters.arrivalFrom) parts.push(sql`arrival_date >= ${filters.arrivalFrom}::date`);
  if (filters.arrivalTo) parts.push(sql`arrival_date <= ${filters.arrivalTo}::date`);
  if (filters.needsAttention === 'true') parts.push(sql`needs_attention`);
  // The same orders the sidebar's "Customer replied" count holds (decision 327).
  if (filters.customerReplied === 'true')
    parts.push(sql`customer_replied_at is not null and (assigned_to = ${staffId} or assigned_to is null)`);
  if (filters.dueState) parts.push(dueStateWhere(filters.dueState, dueColumnsOf(), clock));
  if (filters.refundReason) parts.push(sql`refund_reason = ${filters.refundReason}`);
  // Orders whose payment the card issuer warned about, or that wait for a risk review (decision 372).
  if (filters.riskReview === 'true') {
    parts.push(sql`check_flags && array['fraud_warning', 'risk_hold', 'early_fraud_warning']::text[]`);
  }
  // Orders a machine of the job API could not submit (the check submission_failed is raised).
  if (filters.submissionFailed === 'true') parts.push(sql`'submission_failed' = any(check_flags)`);
  return parts.length ? sql.join(parts, sql` and `) : null;
}

/** Below this offset a page is read from the newest end directly; deeper pages may read from the other end. */
export const REVERSE_SCAN_FROM = 5_000;

/** Exact size of one folder, from the counters table. */
export async function folderTotal(db: DbOrTx, folder: Folder, scope: FolderScope): Promise<number> {
  const { rows } = await db.execute<{ n: string }>(
    sql`select coalesce(sum(n), 0)::bigint::text as n from order_folder_counts where ${counterWhere(folder, scope)}`,
  );
  return Number(rows[0]?.n ?? 0);
}

export interface ListOptions {
  sort?: ListSortKey | undefined;
  dir?: SortDirection | undefined;
  filters: ListFilters;
  clock: DueClock;
  /** The keys of pages read (decision 223), kept by the app's ListState (read-list.ts). */
  pageKeys?: PageKeyCache | undefined;
}

/**
 * The order a list is read in: the asked sort, else its folder's default (decision 332); null for
 * newest first, which has its own paths (page keys, reading deep pages from the oldest end). A
 * direction without a sort key is ignored, as before the defaults.
 */
export function listOrder(
  folder: Folder,
  options: ListOptions,
): { sort: ListSortKey; dir: SortDirection; work: boolean } | null {
  const def = DEFAULT_LIST_SORT[folder];
  const order = options.sort
    ? {
        sort: options.sort,
        dir: options.dir ?? (options.sort === 'created_at' ? 'desc' : 'asc'),
        work: false,
      }
    : def && { sort: def.sort, dir: def.dir, work: !def.byDeadlineOnly };
  return !order || (order.sort === 'created_at' && order.dir === 'desc') ? null : order;
}

/** The filters alone (sort and dir taken out). */
export function filtersOf(query: ListFilters): ListFilters {
  const { sort: _s, dir: _d, ...filters } = query;
  return filters;
}

/** How many orders a folder holds under the filters: the counters when unfiltered, else a count. */
export async function listTotal(
  db: DbOrTx,
  folder: Folder,
  scope: FolderScope,
  options: ListOptions,
): Promise<number> {
  const filter = filterWhere(options.filters, scope.staffId, options.clock);
  if (!filter) return folderTotal(db, folder, scope);
  // Mode, assignee and nationality are keys of the counters tables too, and Needs attention splits them
  // (as nationality does, each in its own table): such totals stay one small sum.
  const { processingMode, assignee, nationality, needsAttention, ...others } = options.filters;
  const flagged = needsAttention === 'true';
  // (No table splits by both: a flagged list of one nationality is counted.)
  const counted = !(flagged && nationality);
  if (counted && !Object.values(others).some((v) => v !== undefined)) {
    const narrowed = filterWhere({ processingMode, assignee, nationality }, scope.staffId, options.clock);
    const table = sql.raw(
      flagged ? 'order_attention_counts' : nationality ? 'order_nationality_counts' : 'order_folder_counts',
    );
    const { rows } = await db.execute<{ n: string }>(
      sql`select coalesce(sum(n), 0)::bigint::text as n from ${table} where ${counterWhere(folder, scope)}${narrowed ? sql` and ${narrowed}` : sql``}`,
    );
    return Number(rows[0]?.n ?? 0);
  }
  const { rows } = await db.execute<{ n: string }>(
    sql`select count(*)::text as n from orders where ${folderWhere(folder, scope)} and ${filter}`,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function listFolder(
  db: DbOrTx,
  folder: Folder,
  scope: FolderScope,
  page: number,
  limit: number,
  options: ListOptions,
): Promise<OrderListRow[]> {
  const { clock } = options;
  const filter = filterWhere(options.filters, scope.staffId, clock);
  const where = filter ? sql`${folderWhere(folder, scope)} and ${filter}` : folderWhere(folder, scope);
  const offset = (page - 1) * limit;
  const order = listOrder(folder, options);
  if (order) return sortedPage(db, where, order.sort, order.dir, offset, limit, clock, order.work);
  // Due states move with the clock alone, so lists filtered by one keep no keys.
  // Nor do lists of unread answers: reading the conversation changes them without a list change.
  const cache = options.filters.dueState || options.filters.customerReplied ? undefined : options.pageKeys;
  const generation = cache?.generation ?? 0;
  const list = listSignature(folder, scope, options.filters, limit);
  if (cache && page > 1) {
    const near = cache.nearest(list, page);
    const skip = near ? (page - near.page) * limit : offset;
    if (near && skip < REVERSE_SCAN_FROM) {
      const { key, inclusive } = near.anchor;
      const seek = sql`(created_at, order_id) ${sql.raw(inclusive ? '<=' : '<')} (${key.createdAt}::timestamptz, ${key.orderId})`;
      const keys: PageKey[] = [];
      const rows = await pageOf(db, sql`${where} and ${seek}`, skip, limit, clock, 'newest-first', keys);
      rememberPage(cache, list, generation, page, keys, limit);
      return rows;
    }
    if (offset < REVERSE_SCAN_FROM) {
      const keys: PageKey[] = [];
      const rows = await pageOf(db, where, offset, limit, clock, 'newest-first', keys);
      rememberPage(cache, list, generation, page, keys, limit);
      return rows;
    }
  }
  if (cache && page === 1) {
    const keys: PageKey[] = [];
    const rows = await pageOf(db, where, 0, limit, clock, 'newest-first', keys);
    rememberPage(cache, list, generation, page, keys, limit);
    return rows;
  }
  if (offset < REVERSE_SCAN_FROM || filter) return pageOf(db, where, offset, limit, clock);
  // OFFSET costs as many index entries as it skips: a page in the older half is read from the oldest
  // end instead, so the last page costs what the first does (the total is exact, from the counters).
  const total = await folderTotal(db, folder, scope);
  if (offset >= total) return [];
  const newerThanPage = offset;
  const olderThanPage = Math.max(0, total - offset - limit);
  if (newerThanPage <= olderThanPage) {
    const keys: PageKey[] = [];
    const rows = await pageOf(db, where, offset, limit, clock, 'newest-first', keys);
    if (cache) rememberPage(cache, list, generation, page, keys, limit);
    return rows;
  }
  const keys: PageKey[] | undefined = cache ? [] : undefined;
  const rows = await pageOf(
    db,
    where,
    olderThanPage,
    Math.min(limit, total - offset),
    clock,
    'oldest-first',
    keys,
  );
  if (cache && keys) rememberPage(cache, list, generation, page, keys, limit);
  return rows;
}

/** Which list a page belongs to: the user only counts for My Orders and the assignee `me`. */
export function listSignature(
  folder: Folder,
  scope: FolderScope,
  filters: ListFilters,
  limit: number,
): string {
  const perUser = folder === 'myOrder' || filters.assignee === 'me' || filters.customerReplied === 'true';
  return JSON.stringify([folder, scope.today, scope.month ?? 0, perUser ? scope.staffId : 0, filters, limit]);
}

/** A page read in full gives its own start and the next page's. */
export function rememberPage(
  cache: PageKeyCache,
  list: string,
  generation: number,
  page: number,
  keys: PageKey[],
  limit: number,
): void {
  const first = keys[0];
  const last = keys[keys.length - 1];
  if (!first || !last) return;
  cache.remember(list, generation, page, { key: first, inclusive: true });
  if (keys.length === limit) cache.remember(list, generation, page + 1, { key: last, inclusive: false });
}
