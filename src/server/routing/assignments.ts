import { sql } from 'drizzle-orm';
import type { RoutingPolicy, WeekHours } from '../../shared/contracts/routing.js';
import { serviceToday } from '../../shared/dates.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import type { DbOrTx } from '../db/client.js';
import { executePrepared } from '../db/prepared.js';
import { sqlValue } from '../db/sql-lists.js';
import { holderLoadJoin } from '../orders/holder-counts.js';
import { dueNewOrders } from '../orders/new-queue.js';
import { assignEach } from '../orders/routing-writes.js';
import { parseRoutingPolicy, ROUTING_SETTINGS_KEY, routingOn } from './policy.js';
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

const PRIORITY = sqlValue('Priority');

/** What a routing pass starts from: the policy and the members who take part. */
export interface RoutingPassStart {
  policy: RoutingPolicy;
  members: RoutingMember[];
}

/**
 * The start of a routing pass, in one statement of the caller's transaction: the routing lock, the
 * policy, and the members who take part in routing (a shift set) with their open held orders and their
 * last assignment, their rows locked against a concurrent manual assignment's capacity check. Null when
 * another instance is routing now (that one hands the orders out) or no folder is routed. The same
 * statement lets the pass's transaction commit without waiting for its WAL flush (decision 441, as
 * claims do, decision 340): an assignment lost in a crash leaves its order unassigned in its folder, and
 * the next pass hands it out again. It also keeps the pass's prepared statements on their generic plans
 * (planning the waiting orders' read over the many indexes of orders cost more than running it). The
 * members are read only when the policy routes a folder.
 */
export async function startRoutingPass(tx: DbOrTx): Promise<RoutingPassStart | null> {
  const load = holderLoadJoin(sql`m.id`);
  const rows = await executePrepared<{
    locked: boolean;
    policy: unknown;
    id: number | null;
    capacity: number;
    languages: CustomerLanguage[] | null;
    shift: WeekHours | null;
    away: boolean;
    away_until: string | null;
    held: number;
    last_assigned_at: string | null;
  }>(
    tx,
    'routing_pass_start',
    sql`
    with l as materialized (
      select pg_try_advisory_xact_lock(${ROUTING_LOCK}) as locked,
             set_config('synchronous_commit', 'off', true) as async_commit,
             set_config('plan_cache_mode', 'force_generic_plan', true) as generic_plans,
             (select value from app_settings where key = ${ROUTING_SETTINGS_KEY}) as policy),
    m as (
      select id, capacity, languages, shift, away, away_until from staff_users
      where deleted_at is null and shift is not null
        and (select locked and 'auto' in (policy #>> '{routing,newOrder}', policy #>> '{routing,priorityOrder}',
                                          policy #>> '{routing,customerAnswers}') from l)
      order by id
      for no key update)
    select l.locked, l.policy, m.id, m.capacity, m.languages, m.shift, m.away, m.away_until::text,
           ${load.held} as held, ${load.lastAssignedAt} as last_assigned_at
    from l left join m on true ${load.join}
    order by m.id`,
  );
  const first = rows[0];
  if (!first?.locked) return null;
  const policy = parseRoutingPolicy(first.policy);
  if (!routingOn(policy)) return null;
  return {
    policy,
    members: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        capacity: r.capacity,
        languages: r.languages ?? [],
        shift: r.shift,
        away: r.away,
        awayUntil: r.away_until ? new Date(r.away_until) : null,
        held: Number(r.held),
        lastAssignedAt: r.last_assigned_at ? new Date(r.last_assigned_at) : null,
      })),
  };
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
 * skipped (a claim or a move in progress). One statement: with at most a batch due (the usual case once
 * routing keeps up; `dueNewOrders`), it reads those by id; with more, it walks orders_routing_queue_idx
 * (drizzle/0101), whose key the order by is, and stops at its batch. The order by's columns are
 * qualified: unqualified, they would be the select list's text casts (a text order, which no index
 * holds and which ranks order 10 before order 9).
 */
async function lockWaitingOrders(tx: DbOrTx, policy: RoutingPolicy, now: Date): Promise<RoutingOrder[]> {
  const where = routedWhere(policy);
  if (!where) return [];
  const today = serviceToday(now);
  const cols = sql`o.order_id::text, o.processing_mode = ${PRIORITY} as priority, o.language, o.created_at::text`;
  const waiting = sql`o.process_status = ${sqlValue('New')} and o.assigned_to is null
    and o.processing_date <= ${today}::date and ${where}`;
  // A name per routed-folder variant: the statement's text differs with the policy.
  const variant = (['newOrder', 'priorityOrder', 'customerAnswers'] as const)
    .map((f) => (policy.routing[f] === 'auto' ? '1' : '0'))
    .join('');
  const rows = await executePrepared<{
    order_id: string;
    priority: boolean;
    language: CustomerLanguage | null;
    created_at: string;
  }>(
    tx,
    `routing_waiting_${variant}`,
    sql`
    with ${dueNewOrders(today, ROUTING_BATCH)},
    by_id as (
      select ${cols} from orders o
      where (select few from due) and o.order_id = any((select ids from due)::bigint[]) and ${waiting}
      for update of o skip locked),
    walked as (
      select ${cols} from orders o
      where not (select few from due) and ${waiting}
      order by (o.processing_mode = ${PRIORITY}) desc, o.created_at, o.order_id
      limit ${ROUTING_BATCH}
      for update of o skip locked)
    select * from by_id union all select * from walked`,
  );
  return rows.map((r) => ({
    orderId: Number(r.order_id),
    priority: r.priority,
    language: r.language,
    createdAt: new Date(r.created_at),
  }));
}

/**
 * One routing pass in the caller's transaction (`startRoutingPass` took the routing lock): hands the waiting orders
 * of the routed folders to the members the decision picks, each with its assign event (no actor: shown as
 * "Routing"). The event's trigger publishes the change to every instance's live streams at commit.
 */
export async function routeWaitingOrders(
  tx: DbOrTx,
  { policy, members }: RoutingPassStart,
  now: Date,
): Promise<Assignment[]> {
  if (!members.some((m) => isAvailable(m, now) && m.held < m.capacity)) return [];
  const waiting = await lockWaitingOrders(tx, policy, now);
  if (!waiting.length) return [];
  const assignments = decideAssignments(waiting, members, now);
  if (!assignments.length) return [];
  await assignEach(tx, assignments);
  return assignments;
}
