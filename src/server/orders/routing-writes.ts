import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { executePrepared } from '../db/prepared.js';
import { sqlValue } from '../db/sql-lists.js';
import { VERSION_BUMP } from './version.js';

/**
 * The order side of routing (src/server/routing/ decides, src/server/flows/ runs the passes): handing
 * orders out and taking idle ones back, each change with its assign event in the caller's transaction.
 * Routing's events have no actor: the history and the live notice show them as "Routing".
 */

/**
 * Assigns each order to its member, if still unassigned (the caller holds the rows locked), with the
 * assign events, in one statement. `by`: 'routing' (no actor) or 'assignee' (the new holder acts, as a
 * machine of the job API taking its job: machine-hold.ts).
 */
export async function assignEach(
  tx: DbOrTx,
  assignments: readonly { orderId: number; staffId: number }[],
  by: 'routing' | 'assignee' = 'routing',
): Promise<number> {
  if (!assignments.length) return 0;
  const values = sql.join(
    assignments.map((a) => sql`(${a.orderId}::bigint, ${a.staffId}::int)`),
    sql`, `,
  );
  // One assignment (a routing pass as orders arrive, a machine's claim): a named prepared statement.
  const run = (q: SQL) =>
    assignments.length === 1
      ? executePrepared<{ n: number }>(tx, `assign_each_one_${by}`, q)
      : tx.execute<{ n: number }>(q).then((r) => r.rows);
  const rows = await run(sql`
    with a (order_id, staff_id) as (values ${values}),
    assigned as (
      update orders o set assigned_to = a.staff_id, updated_at = now(), ${VERSION_BUMP}
      from a where o.order_id = a.order_id and o.assigned_to is null
      returning o.order_id, a.staff_id
    ),
    events as (
      insert into order_events (order_id, actor_id, action, from_value, to_value)
      select order_id, ${by === 'assignee' ? sql`staff_id` : sql`null::int`}, 'assign', null, staff_id::text
      from assigned
      returning 1
    )
    select count(*)::int as n from events`);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The idle release: held orders in New (the working queue; every other open status waits on the customer,
 * the government or the payment provider) whose holder did nothing since `cutoff` — no move, remark, mail,
 * call, correction or upload of theirs, no assignment to them and no status change by anyone — go back to
 * their folder, unheld. At most `limit` per call; rows another transaction holds are left for later.
 * Answers the released orders with their former holders.
 */
export async function releaseIdle(
  tx: DbOrTx,
  cutoff: Date,
  limit: number,
): Promise<{ orderId: number; holder: number }[]> {
  const { rows } = await tx.execute<{ order_id: string; holder: number }>(sql`
    with idle as (
      select o.order_id, o.assigned_to from orders o
      where o.assigned_to is not null and o.process_status = ${sqlValue('New')}
        and coalesce((
          select max(e.created_at) from order_events e
          where e.order_id = o.order_id
            and (e.actor_id = o.assigned_to or e.action = 'status'
                 or (e.action in ('assign', 'takeover') and e.to_value = o.assigned_to::text))
        ), o.created_at) < ${cutoff.toISOString()}::timestamptz
      order by o.order_id
      limit ${limit}
      for update of o skip locked
    ),
    released as (
      update orders o set assigned_to = null, updated_at = now()
      from idle i where o.order_id = i.order_id and o.assigned_to = i.assigned_to
      returning o.order_id, i.assigned_to
    ),
    events as (
      insert into order_events (order_id, actor_id, action, from_value, to_value)
      select order_id, null, 'assign', assigned_to::text, null from released
    )
    select order_id::text, assigned_to as holder from released`);
  return rows.map((r) => ({ orderId: Number(r.order_id), holder: Number(r.holder) }));
}
