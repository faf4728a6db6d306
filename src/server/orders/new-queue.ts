import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';

/**
 * The unassigned New orders whose processing day has come (New Orders and Priority Orders before any
 * other condition of a queue), when there are at most `max`: their ids, read from the index
 * orders_new_unassigned_day_idx alone (drizzle/0101). Null when there are more.
 *
 * The queues that hand these orders out (routing, the job API, claim-next in New Orders and Priority
 * Orders) walk an index in their own order and stop at the first orders they can take. The same index
 * also holds the orders whose processing day is still ahead (Future Orders, tens of thousands at a
 * million orders), so when few or none are due the walk passes all of those to find them. Asked first, this answers "few or none" from at most
 * `max` + 1 index entries, and the queue then reads those few by id instead of walking. (The order by
 * is the index's: without it the planner may take a sequential scan, expecting the first `max` + 1
 * matches early in the table, where the old, long closed orders are. Its columns are qualified:
 * unqualified, `order_id` there is the select list's text cast, which no index holds, and PostgreSQL
 * sorts the walk's rows again.)
 */
export async function fewDueNewOrders(tx: DbOrTx, today: string, max: number): Promise<number[] | null> {
  const { rows } = await tx.execute<{ few: boolean; ids: string[] | null }>(
    sql`with ${dueNewOrders(today, max)} select few, ids::text[] as ids from due`,
  );
  const due = rows[0];
  return due?.few ? (due.ids ?? []).map(Number) : null;
}

/** `and <column> = any(ids)` for a queue's read of the few due orders; nothing when there were many. */
export function onlyOrders(column: string, ids: readonly number[] | null) {
  return ids ? sql`and ${sql.raw(column)} = any(${`{${ids.join(',')}}`}::bigint[])` : sql``;
}

/**
 * The same question as a CTE `due (few, ids)` — `few` true when at most `max` unassigned New orders are
 * due, `ids` then theirs: asked alone by `fewDueNewOrders`, or inside a queue's own statement, which
 * reads those by id where `few` and walks its own index otherwise (each branch behind its one-time
 * condition), with no round trip between.
 */
export function dueNewOrders(today: string, max: number) {
  return sql`due_walk as (
      select o.order_id from orders o
      where o.process_status = ${sqlValue('New')} and o.assigned_to is null and o.processing_date <= ${today}::date
      order by o.processing_date, o.order_id
      limit ${max + 1}),
    due as (select count(*) <= ${max}::int as few, array_agg(order_id) as ids from due_walk)`;
}
