import { sql } from 'drizzle-orm';
import { CLOSED_STATUSES } from '../../shared/constants.js';
import type { RoutingPolicy, WeekHours } from '../../shared/contracts/routing.js';
import { serviceToday } from '../../shared/dates.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import type { DbOrTx } from '../db/client.js';
import { sqlList, sqlValue } from '../db/sql-lists.js';
import { fewDueNewOrders, onlyOrders } from '../orders/new-queue.js';
import { assignEach } from '../orders/routing-writes.js';
import {
  type Assignment,
  decideAssignments,
  isAvailable,
  type RoutingMember,
  type RoutingOrder,
} from './decide.js';

/** Key of the advisory lock one routing pass holds: one pass at a time over every instance. */
const ROUTING_LOCK = sql`8743, 1`;
/** At most this many orders per pass (the next pass, seconds later, takes the rest). */
export const ROUTING_BATCH = 500;

const CLOSED = sql`(${sqlList(CLOSED_STATUSES)})`;
const PRIORITY = sqlValue('Priority');

/**
 * Takes the routing lock for the caller's transaction; false when another instance is routing now (this
 * pass then does nothing: that one hands the orders out). The same statement lets the pass's transaction
 * commit without waiting for its WAL flush (decision 441, as claims do, decision 340): an assignment lost
 * in a crash leaves its order unassigned in its folder, and the next pass hands it out again.
 */
export async function tryRoutingLock(tx: DbOrTx): Promise<boolean> {
  const { rows } = await tx.execute<{ ok: boolean }>(
    sql`select pg_try_advisory_xact_lock(${ROUTING_LOCK}) as ok,
               set_config('synchronous_commit', 'off', true) as async_commit`,
  );
  return rows[0]?.ok === true;
}

/**
 * The members who take part in routing (a shift set), their rows locked against a concurrent manual
 * assignment's capacity check, with their open held orders and their last assignment.
 */
export async function lockRoutingMembers(tx: DbOrTx, onlyIds?: readonly number[]): Promise<RoutingMember[]> {
  const { rows } = await tx.execute<{
    id: number;
    capacity: number;
    languages: CustomerLanguage[];
    shift: WeekHours | null;
    away: boolean;
    away_until: string | null;
    held: number;
    last_assigned_at: string | null;
  }>(sql`
    with m as (
      select id, capacity, languages, shift, away, away_until from staff_users
      where deleted_at is null and ${onlyIds ? sql`id in (${sqlList(onlyIds.map(String))})` : sql`shift is not null`}
      order by id
      for no key update
    )
    select m.id, m.capacity, m.languages, m.shift, m.away, m.away_until::text,
           (select count(*)::int from orders o where o.assigned_to = m.id and o.process_status not in ${CLOSED}) as held,
           (select max(e.created_at)::text from order_events e
             where e.action = 'assign' and e.to_value = m.id::text) as last_assigned_at
    from m order by m.id`);
  return rows.map((r) => ({
    id: r.id,
    capacity: r.capacity,
    languages: r.languages ?? [],
    shift: r.shift,
    away: r.away,
    awayUntil: r.away_until ? new Date(r.away_until) : null,
    held: Number(r.held),
    lastAssignedAt: r.last_assigned_at ? new Date(r.last_assigned_at) : null,
  }));
}

/** The condition of the routed folders, per the policy (null: nothing is routed). */
function routedWhere(policy: RoutingPolicy) {
  const parts = [];
  if (policy.routing.newOrder === 'auto') parts.push(sql`processing_mode <> ${PRIORITY}`);
  if (policy.routing.priorityOrder === 'auto') parts.push(sql`processing_mode = ${PRIORITY}`);
  if (policy.routing.customerAnswers === 'auto') parts.push(sql`customer_replied_at is not null`);
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : null;
}

/**
 * The unassigned orders in the routed folders (New and Priority as their lists show them: open, the
 * processing day reached), Priority first and oldest first, locked; rows another transaction holds are
 * skipped (a claim or a move in progress). With more than a batch due, the pass walks
 * orders_routing_queue_idx (drizzle/0101), whose key the order by is, and stops at its batch; with a
 * batch or fewer (the usual case once routing keeps up) it reads those by id. The order by's columns
 * are qualified: unqualified, they would be the select list's text casts (a text order, which no index
 * holds and which ranks order 10 before order 9).
 */
async function lockWaitingOrders(tx: DbOrTx, policy: RoutingPolicy, now: Date): Promise<RoutingOrder[]> {
  const where = routedWhere(policy);
  if (!where) return [];
  const today = serviceToday(now);
  // At most a batch due: all of them, read by id (the walk would pass every Future order to find them).
  const few = await fewDueNewOrders(tx, today, ROUTING_BATCH);
  if (few && !few.length) return [];
  const { rows } = await tx.execute<{
    order_id: string;
    priority: boolean;
    language: CustomerLanguage | null;
    created_at: string;
  }>(sql`
    select o.order_id::text, o.processing_mode = ${PRIORITY} as priority, o.language, o.created_at::text
    from orders o
    where o.process_status = ${sqlValue('New')} and o.assigned_to is null and o.processing_date <= ${today} and ${where}
      ${onlyOrders('o.order_id', few)}
    order by (o.processing_mode = ${PRIORITY}) desc, o.created_at, o.order_id
    limit ${ROUTING_BATCH}
    for update of o skip locked`);
  return rows.map((r) => ({
    orderId: Number(r.order_id),
    priority: r.priority,
    language: r.language,
    createdAt: new Date(r.created_at),
  }));
}

/**
 * One routing pass in the caller's transaction (which holds the routing lock): hands the waiting orders
 * of the routed folders to the members the decision picks, each with its assign event (no actor: shown as
 * "Routing"). The event's trigger publishes the change to every instance's live streams at commit.
 */
export async function routeWaitingOrders(
  tx: DbOrTx,
  policy: RoutingPolicy,
  now: Date,
): Promise<Assignment[]> {
  const members = await lockRoutingMembers(tx);
  if (!members.some((m) => isAvailable(m, now) && m.held < m.capacity)) return [];
  const waiting = await lockWaitingOrders(tx, policy, now);
  if (!waiting.length) return [];
  const assignments = decideAssignments(waiting, members, now);
  if (!assignments.length) return [];
  await assignEach(tx, assignments);
  return assignments;
}
