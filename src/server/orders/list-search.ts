import { type SQL, sql } from 'drizzle-orm';
import type { Folder } from '../../shared/constants.js';
import type { OrderListRow } from '../../shared/contracts/orders.js';
import { GOVERNMENT_REFERENCE_PATTERN } from '../../shared/contracts/submission.js';
import type { DbOrTx } from '../db/client.js';
import { type FolderScope, folderWhere } from './folders.js';
import { type ListOptions, listOrder, pageOf, filterWhere } from './list-pages.js';
import { sortedPage } from './list-sorted.js';

/** The search of the order lists: an exact id, e-mail or reference first, else a fragment. */

/** Escapes LIKE wildcards so that user text is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Must stay identical to the expression of orders_search_trgm_idx. */
const SEARCH_TEXT = sql.raw(
  `lower(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(phone_code, '') || coalesce(telephone_number, ''))`,
);

/** Matches counted exactly up to here; a search that finds more should be narrowed, not paged. */
export const SEARCH_TOTAL_CAP = 1000;

/** A whole e-mail address (not a fragment of one). */
const WHOLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** At most this many orders share one exact id or e-mail (an id: one; an e-mail: a customer's orders). */
const EXACT_LIMIT = 200;

/**
 * The exact matches, read on their B-tree (decision 222): the order whose id was typed (primary key), or
 * the orders whose e-mail is the typed address (orders_email_lower_idx). Null when the text is neither.
 */
function exactCondition(searchVal: string): { kind: 'id' | 'email' | 'reference'; where: SQL } | null {
  const typed = searchVal.trim();
  if (/^\d{1,15}$/.test(typed)) return { kind: 'id', where: sql`order_id = ${Number(typed)}` };
  if (WHOLE_EMAIL.test(typed)) return { kind: 'email', where: sql`lower(email) = ${typed.toLowerCase()}` };
  // A government reference, exactly (orders_government_reference_idx), case aside.
  if (GOVERNMENT_REFERENCE_PATTERN.test(typed)) {
    return {
      kind: 'reference',
      where: sql`upper(government_reference) = ${typed.toUpperCase()} and government_reference is not null`,
    };
  }
  return null;
}

/**
 * The fragment condition (trigram index): case-insensitive substring of name, e-mail or phone for 3+
 * characters; shorter text matches a whole field exactly. The typed id is matched by exactCondition.
 */
function fragmentCondition(searchVal: string): SQL {
  const value = searchVal.trim().toLowerCase();
  if (value.length < 3) {
    return sql`(lower(first_name) = ${value} or lower(last_name) = ${value} or lower(email) = ${value} or telephone_number = ${value})`;
  }
  const parts: SQL[] = [sql`${SEARCH_TEXT} like ${`%${likeLiteral(value)}%`}`];
  const digits = value.replace(/[\s()+-]/g, '');
  if (digits !== value && /^\d{3,}$/.test(digits)) parts.push(sql`${SEARCH_TEXT} like ${`%${digits}%`}`);
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Rows [offset, offset + limit) of a condition in the folder list's order (listOrder). */
function orderedPage(
  db: DbOrTx,
  folder: Folder,
  where: SQL,
  offset: number,
  limit: number,
  options: ListOptions,
): Promise<OrderListRow[]> {
  const order = listOrder(folder, options);
  if (!order) return pageOf(db, where, offset, limit, options.clock);
  return sortedPage(db, where, order.sort, order.dir, offset, limit, options.clock, order.work);
}

/**
 * Search within a folder under the list filters, in the list's sort (decision 222). Plain digits are
 * looked up as an order id on the primary key and a whole e-mail address on the lower(email) index;
 * when the folder has such orders they are the answer (no substring search: the text is not a
 * fragment). Otherwise the text is a fragment of a name, e-mail or phone (the trigram index).
 */
export async function searchFolder(
  db: DbOrTx,
  folder: Folder,
  scope: FolderScope,
  searchVal: string,
  start: number,
  end: number,
  options: ListOptions,
): Promise<{ rows: OrderListRow[]; total: number; totalCapped: boolean }> {
  const filter = filterWhere(options.filters, scope.staffId, options.clock);
  const base = filter ? sql`${folderWhere(folder, scope)} and ${filter}` : folderWhere(folder, scope);
  const exact = exactCondition(searchVal);
  const pinned = exact
    ? await orderedPage(db, folder, sql`${base} and ${exact.where}`, 0, EXACT_LIMIT, options)
    : [];
  // Not a fragment: an id or a whole address the folder has is answered by its B-tree alone.
  if (pinned.length) return { rows: pinned.slice(start, end), total: pinned.length, totalCapped: false };
  const fragments = sql`${base} and ${fragmentCondition(searchVal)}`;
  const [rows, count] = await Promise.all([
    orderedPage(db, folder, fragments, start, end - start, options),
    db.execute<{ n: string }>(
      sql`select count(*)::text as n from (select 1 from orders where ${fragments} limit ${SEARCH_TOTAL_CAP + 1}) m`,
    ),
  ]);
  const n = Number(count.rows[0]?.n ?? 0);
  // Rows beyond the cap can still be paged to; the total then covers at least what was asked for.
  const total = n > SEARCH_TOTAL_CAP ? Math.max(SEARCH_TOTAL_CAP, start + rows.length) : n;
  return { rows, total, totalCapped: n > SEARCH_TOTAL_CAP };
}
