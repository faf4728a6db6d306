import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';

/**
 * The waiting policy's bookkeeping on the order row (drizzle/0100): when the policy next looks at an
 * order in Awaiting. Written here, beside the other order writes; the policy's pass (inbound/waiting.ts)
 * decides the times.
 */
const AWAITING = sqlValue('Awaiting');

/** 'infinity' stands for "never": the partial index keeps the order, no pass reads it. */
const timeParam = (at: Date | null) => (at ? at.toISOString() : 'infinity');

/**
 * Writes when the policy next looks at these orders, in one statement of its own transaction: the
 * orders locked in id order (two passes never wait on each other crosswise), only those still in
 * Awaiting, and marked bookkeeping (drizzle/0099) so the counters', reports' and insights' triggers
 * skip an update that moves none of their figures.
 */
export async function setNextLooks(db: Db, next: { orderId: number; at: Date | null }[]): Promise<void> {
  if (!next.length) return;
  const ids = `{${next.map((n) => n.orderId).join(',')}}`;
  const ats = `{${next.map((n) => timeParam(n.at)).join(',')}}`;
  await db.execute(sql`
    with bookkeeping as (select set_config('edcard.bookkeeping', 'on', true)),
    locked as (
      select order_id from orders
      where order_id = any(${ids}::bigint[]) and process_status = ${AWAITING}
      order by order_id for update
    )
    update orders o set waiting_next_at = v.at
    from locked l
    join unnest(${ids}::bigint[], ${ats}::timestamptz[]) as v(order_id, at) on v.order_id = l.order_id
    cross join bookkeeping
    where o.order_id = l.order_id`);
}

/** In the step's transaction (the order already locked): the next step's time. */
export async function setNextLook(tx: DbOrTx, orderId: number, at: Date | null): Promise<void> {
  await tx.execute(
    sql`update orders set waiting_next_at = ${timeParam(at)}::timestamptz where order_id = ${orderId}`,
  );
}

/**
 * After a change of the policy or its switch: every waiting order is looked at again by the next pass,
 * whatever its clock (-infinity), which writes its next step's time under the new policy. Bookkeeping,
 * as setNextLooks.
 */
export async function lookAgainAtAll(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select set_config('edcard.bookkeeping', 'on', true)`);
  await tx.execute(sql`update orders set waiting_next_at = '-infinity' where process_status = ${AWAITING}`);
  await tx.execute(sql`select set_config('edcard.bookkeeping', '', true)`);
}
