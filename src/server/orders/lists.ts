import { type SQL, sql } from 'drizzle-orm';
import {
  FOLDER_COUNT_KEYS,
  FOLDERS,
  type Folder,
  type FolderCounts,
  MONTHS,
} from '../../shared/constants.js';
import type { FutureMonthCounts, OrderListRow } from '../../shared/contracts/orders.js';
import type { DbOrTx } from '../db/client.js';
import { counterWhere, type FolderScope, folderWhere } from './folders.js';

/**
 * Read side of the order lists: folder counts, folder pages and search. The write side (status
 * changes, assignment, deletion) lives in queries.ts.
 */

/** Every folder count in one pass over the small counters table (folder meanings: docs/product.md). */
export async function folderCounts(db: DbOrTx, scope: FolderScope): Promise<FolderCounts> {
  const columns = sql.join(
    FOLDERS.map(
      (f) =>
        sql`coalesce(sum(n) filter (where ${counterWhere(f, scope)}), 0)::bigint::text as ${sql.identifier(FOLDER_COUNT_KEYS[f])}`,
    ),
    sql`, `,
  );
  // New orders' days fold into "due" and "future" first, so the sums run over ~100 rows, not thousands.
  const { rows } = await db.execute<Record<string, string>>(sql`
    with folded as (
      select process_status, processing_mode, assigned_to,
             case when due_date > ${scope.today}::date then ${scope.today}::date + 1
                  when due_date is not null then ${scope.today}::date end as due_date,
             sum(n)::bigint as n
      from order_folder_counts group by 1, 2, 3, 4)
    select ${columns} from folded`);
  const row = rows[0] ?? {};
  return Object.fromEntries(
    Object.values(FOLDER_COUNT_KEYS).map((k) => [k, Number(row[k] ?? 0)]),
  ) as FolderCounts;
}

/** Future order tiles: the count per process month. */
export async function futureMonthCounts(db: DbOrTx, today: string): Promise<FutureMonthCounts> {
  const { rows } = await db.execute<{ m: string; n: string }>(sql`
    select extract(month from due_date)::int::text as m, sum(n)::bigint::text as n
    from order_folder_counts where ${counterWhere('futureOrder', { today, staffId: 0 })}
    group by 1`);
  const counts = Object.fromEntries(MONTHS.map((m) => [m, 0])) as FutureMonthCounts;
  for (const r of rows) counts[MONTHS[Number(r.m) - 1]!] = Number(r.n);
  return counts;
}

type RawRow = Omit<OrderListRow, 'order_id'> & { order_id: string };

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * One page of a folder (optionally narrowed by a search condition), newest first. The inner query
 * reads only the folder's partial index (ids and sort keys), so skipping to a deep page touches no
 * table rows; the outer query fetches just the page.
 */
async function pageOf(
  db: DbOrTx,
  where: SQL,
  offset: number,
  limit: number,
  scan: 'newest-first' | 'oldest-first' = 'newest-first',
): Promise<OrderListRow[]> {
  // Oldest-first walks the same index backwards; the page is still answered newest first.
  const inner =
    scan === 'newest-first'
      ? sql`order by created_at desc nulls last, order_id desc nulls last`
      : sql`order by created_at asc nulls first, order_id asc nulls first`;
  const { rows } = await db.execute<RawRow>(sql`
    select o.order_id::text as order_id, o.process_status, o.first_name, o.last_name,
           o.arrival_date::text as arrival_date, o.email, o.telephone_number, o.phone_code,
           to_char(o.created_at at time zone 'UTC', ${sql.raw(ISO)}) as created_at,
           to_char(o.refund_date at time zone 'UTC', ${sql.raw(ISO)}) as refund_date,
           o.processing_date::text as processing_date,
           to_char(o.processing_date, 'Mon') as process_month,
           coalesce(s.name, '') as assign_to
    from (select order_id, created_at from orders where ${where}
          ${inner} limit ${limit} offset ${offset}) p
    join orders o on o.order_id = p.order_id
    left join staff_users s on s.id = o.assigned_to
    order by p.created_at desc nulls last, p.order_id desc nulls last`);
  return rows.map((r) => ({ ...r, order_id: Number(r.order_id) }));
}

/** Below this offset a page is read from the newest end directly; deeper pages may read from the other end. */
const REVERSE_SCAN_FROM = 5_000;

/** Exact size of one folder, from the counters table. */
async function folderTotal(db: DbOrTx, folder: Folder, scope: FolderScope): Promise<number> {
  const { rows } = await db.execute<{ n: string }>(
    sql`select coalesce(sum(n), 0)::bigint::text as n from order_folder_counts where ${counterWhere(folder, scope)}`,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function listFolder(
  db: DbOrTx,
  folder: Folder,
  scope: FolderScope,
  page: number,
  limit: number,
): Promise<OrderListRow[]> {
  const where = folderWhere(folder, scope);
  const offset = (page - 1) * limit;
  if (offset < REVERSE_SCAN_FROM) return pageOf(db, where, offset, limit);
  // OFFSET costs as many index entries as it skips: a page in the older half is read from the oldest
  // end instead, so the last page costs what the first does (the total is exact, from the counters).
  const total = await folderTotal(db, folder, scope);
  if (offset >= total) return [];
  const newerThanPage = offset;
  const olderThanPage = Math.max(0, total - offset - limit);
  if (newerThanPage <= olderThanPage) return pageOf(db, where, offset, limit);
  return pageOf(db, where, olderThanPage, Math.min(limit, total - offset), 'oldest-first');
}

/** Escapes LIKE wildcards so that user text is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Must stay identical to the expression of orders_search_trgm_idx. */
const SEARCH_TEXT = sql.raw(
  `lower(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(phone_code, '') || coalesce(telephone_number, ''))`,
);

/**
 * Search condition (issue 4): exact order id; case-insensitive substring of name, e-mail or phone for
 * 3+ characters (trigram index); shorter text matches a whole field exactly.
 */
export function searchCondition(searchVal: string): SQL {
  const value = searchVal.trim().toLowerCase();
  const parts: SQL[] = [];
  if (/^\d{1,15}$/.test(value)) parts.push(sql`order_id = ${Number(value)}`);
  if (value.length >= 3) {
    parts.push(sql`${SEARCH_TEXT} like ${`%${likeLiteral(value)}%`}`);
    const digits = value.replace(/[\s()+-]/g, '');
    if (digits !== value && /^\d{3,}$/.test(digits)) {
      parts.push(sql`${SEARCH_TEXT} like ${`%${digits}%`}`);
    }
  } else {
    parts.push(
      sql`(lower(first_name) = ${value} or lower(last_name) = ${value} or lower(email) = ${value} or telephone_number = ${value})`,
    );
  }
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Matches counted exactly up to here; a search that finds more should be narrowed, not paged. */
export const SEARCH_TOTAL_CAP = 1000;

/** Rows [start, end) of the matches: the order whose id was typed comes first, then the rest newest first. */
async function searchPage(db: DbOrTx, where: SQL, searchVal: string, start: number, end: number) {
  const typed = searchVal.trim();
  const [exact] = /^\d{1,15}$/.test(typed)
    ? await pageOf(db, sql`${where} and order_id = ${Number(typed)}`, 0, 1)
    : [];
  if (!exact) return pageOf(db, where, start, end - start);
  const others = sql`${where} and order_id <> ${exact.order_id}`;
  if (start > 0) return pageOf(db, others, start - 1, end - start);
  return [exact, ...(await pageOf(db, others, 0, end - start - 1))];
}

export async function searchFolder(
  db: DbOrTx,
  folder: Folder,
  scope: FolderScope,
  searchVal: string,
  start: number,
  end: number,
): Promise<{ rows: OrderListRow[]; total: number; totalCapped: boolean }> {
  const where = sql`${folderWhere(folder, scope)} and ${searchCondition(searchVal)}`;
  const [rows, count] = await Promise.all([
    searchPage(db, where, searchVal, start, end),
    db.execute<{ n: string }>(
      sql`select count(*)::text as n from (select 1 from orders where ${where} limit ${SEARCH_TOTAL_CAP + 1}) m`,
    ),
  ]);
  const n = Number(count.rows[0]?.n ?? 0);
  // Rows beyond the cap can still be paged to; the total then covers at least what was asked for.
  const total = n > SEARCH_TOTAL_CAP ? Math.max(SEARCH_TOTAL_CAP, start + rows.length) : n;
  return { rows, total, totalCapped: n > SEARCH_TOTAL_CAP };
}
