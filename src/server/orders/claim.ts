import { type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { CLOSED_STATUSES, type Folder, type OrderStatus, SERVICE_TIME_ZONE } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import { can, readPermissionFor } from '../../shared/permissions.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { sqlList } from '../db/sql-lists.js';
import { refuseForbidden } from './refusal.js';
import { inTransaction } from './transaction.js';
import { type FolderScope, folderWhere, STATUS_FOLDERS } from './folders.js';
import { type ChainGroup, groupChain } from './group-chain.js';
import { fewDueNewOrders, onlyOrders } from './new-queue.js';
import { VERSION_BUMP } from './version.js';
import { BatchLanes, lanesPerDatabase } from '../db/batch-lanes.js';

/**
 * Next order: assigns to the actor the most urgent unassigned open order of a folder they may read
 * (a customer's unread answer first, trip-passed orders last, then earliest arrival, oldest, lowest id:
 * WORK_ORDER); null when none waits.
 *
 * Claims of one folder that arrive while an earlier claim of that folder is being written wait for it
 * and are then written together, in one transaction (docs/decisions/283-claim-under-contention.md):
 * every claim's commit notifies (the live stream and the counters' change signal), and PostgreSQL
 * commits notifying transactions one at a time, each with its own WAL flush, so claims written one
 * per transaction queue behind each other's flushes. Written together, they share one flush, one
 * counters upsert and one set of statement triggers. The waiters get the batch's orders in the order
 * they asked, the first the most urgent. SKIP LOCKED still lets claims of other server instances
 * (and other folders) pass, so two never get one order.
 *
 * Given a transaction (a macro chaining commands), the claim runs in it, alone.
 */
export async function claimNext(
  db: DbOrTx,
  actor: StaffIdentity,
  folder: Folder,
  scope: FolderScope = { today: serviceToday(), staffId: actor.id },
): Promise<number | null> {
  if (!can(actor.type, readPermissionFor(folder))) throw refuseForbidden();
  if (db instanceof PgTransaction) return (await claimBatch(db, [actor.id], folder, scope))[0] ?? null;
  // Claims share a batch only when the folder's condition is the same for all of them: My Orders
  // reads the staff id, the Future tiles the month.
  const key = [folder, scope.today, scope.month ?? '', folder === 'myOrder' ? scope.staffId : ''].join('|');
  return claimLanes(db).run(key, { staffId: actor.id, folder, scope });
}

/** At most this many claims in one transaction (the rest wait for the next). */
export const MAX_CLAIM_BATCH = 50;

/**
 * A claim's own transaction commits without waiting for its WAL flush
 * (docs/decisions/340-claims-commit-asynchronously.md): a claim lost in a crash only returns its order to
 * the queue, unassigned, with its assign event gone with it. Nothing else the transaction could hold:
 * a claim chained in a macro's transaction (the caller's) stays as durable as that transaction. The
 * setting is made by the claim statement itself (set_config, local to the transaction), not by a
 * statement of its own.
 */
const ASYNC_COMMIT = sql`cross join (select set_config('synchronous_commit', 'off', true)) async_commit`;

interface ClaimInput {
  staffId: number;
  folder: Folder;
  scope: FolderScope;
}

/** Per database handle, per folder condition: the claims waiting to be written, a batch per transaction. */
const claimLanes = lanesPerDatabase(
  (db) =>
    new BatchLanes<ClaimInput, number | null>((inputs) => {
      const { folder, scope } = inputs[0]!;
      return inTransaction(db as DbOrTx, (tx) =>
        claimBatch(
          tx,
          inputs.map((c) => c.staffId),
          folder,
          scope,
          true,
        ),
      );
    }, MAX_CLAIM_BATCH),
);

/**
 * The working order of a queue (decision 360): an unread customer answer first, then orders whose trip
 * is still ahead, trip-passed orders last; within each, the earliest arrival, the oldest, the lowest id.
 */
const WORK_ORDER = sql`(customer_replied_at is null) asc,
  (trip_ends_at is not null and trip_ends_at <= now()) asc,
  arrival_date asc nulls last, created_at asc, order_id asc`;

/** WORK_ORDER within one of its groups: the order of a folder's arrival index (arrival, created, id). */
const ARRIVAL_ORDER = sql`arrival_date asc nulls last, created_at asc, order_id asc`;

/**
 * The statuses whose open orders carry trip_ends_at: the end of the arrival day in the service time
 * zone, written by the trigger orders_due_at (function orders_due_at_set, drizzle/0096) whenever the
 * status or the arrival date changes. For them "trip passed" (trip_ends_at <= now()) is the same as
 * "arrival before today" there, so the trip-ahead orders are the folder's arrival index from today on
 * (then those without an arrival date) and the trip-passed ones the part before today.
 */
const TRIP_STATUSES = [
  'New',
  'Awaiting',
  'AwaitingGovt',
  'Customer Called',
  'Contact Customer',
] as const satisfies readonly OrderStatus[];

/** Today in the service time zone at the statement's now(): the first arrival day whose trip is ahead. */
const TRIP_TODAY = sql.raw(`(now() at time zone '${SERVICE_TIME_ZONE}')::date`);

/** Does every order the folder can hold have one of TRIP_STATUSES? */
function onlyTripStatuses(folder: Folder): boolean {
  const status = STATUS_FOLDERS[folder];
  if (status) return (TRIP_STATUSES as readonly OrderStatus[]).includes(status);
  return ['newOrder', 'priorityOrder', 'pendingOrder', 'futureOrder'].includes(folder);
}

/** The folders of unassigned New orders whose processing day has come, and "few" of those. */
const DUE_FOLDERS: ReadonlySet<Folder> = new Set(['newOrder', 'priorityOrder']);
const FEW_DUE = 100;

/** Trip still ahead, and trip passed: the second key of WORK_ORDER, split. */
const TRIP_AHEAD = sql`(trip_ends_at is null or trip_ends_at > now())`;
const TRIP_PASSED = sql`trip_ends_at <= now()`;

/**
 * The pick of `n` waiting orders of a folder in WORK_ORDER, locked, skipping rows another transaction
 * holds: one statement's CTEs, the last one `picked` (order_id, rn). Sorting the whole folder by
 * WORK_ORDER reads every waiting order (tens of thousands in New Orders at a million orders) to hand
 * out a few, so the pick takes WORK_ORDER's groups one after another (answered: trip ahead, undated,
 * trip passed; then the same without an answer), each read in arrival order from an index that holds
 * it in that order (the unanswered ones from the folder's own, orders_claimable_new_idx and its
 * siblings; the answered ones from orders_answered_queue_idx) and stopping at the rows it needs. Each
 * group asks only for what the groups before it left over (a LIMIT of 0 reads nothing), so the pick
 * locks no more rows than the claims take, and the same ones a sort of the whole folder gives.
 * `few`: the folder's only candidates (New Orders and Priority Orders with few orders due), read by id.
 */
function pickWaiting(folder: Folder, scope: FolderScope, n: number, few: readonly number[] | null): SQL {
  const waiting = sql`${folderWhere(folder, scope)} and assigned_to is null
    and process_status not in (${sqlList(CLOSED_STATUSES)}) ${onlyOrders('order_id', few)}`;
  const columns = sql`order_id, arrival_date, created_at, customer_replied_at, trip_ends_at`;
  const groups: ChainGroup[] = [];
  for (const [name, who] of [
    ['answered', sql`customer_replied_at is not null`],
    ['waiting', sql`customer_replied_at is null`],
  ] as const) {
    if (onlyTripStatuses(folder)) {
      // The bounds on arrival_date follow from trip_ends_at (TRIP_STATUSES): they add no order and drop
      // none; they let each walk start and stop in the index instead of filtering its way there.
      groups.push(
        { name: `${name}_ahead`, where: sql`${who} and ${TRIP_AHEAD} and arrival_date >= ${TRIP_TODAY}` },
        { name: `${name}_undated`, where: sql`${who} and ${TRIP_AHEAD} and arrival_date is null` },
        { name: `${name}_passed`, where: sql`${who} and ${TRIP_PASSED} and arrival_date < ${TRIP_TODAY}` },
      );
    } else {
      groups.push(
        { name: `${name}_ahead`, where: sql`${who} and ${TRIP_AHEAD}` },
        { name: `${name}_passed`, where: sql`${who} and ${TRIP_PASSED}` },
      );
    }
  }
  const { ctes, all } = groupChain(
    groups,
    sql`${n}`,
    (g, limit) => sql`
      select ${columns} from orders
      where ${waiting} and ${g.where}
      order by ${ARRIVAL_ORDER}
      limit ${limit} for update skip locked`,
  );
  return sql`${ctes},
    picked as (
      select order_id, row_number() over (order by ${WORK_ORDER}) as rn from (${all}) p
    )`;
}

/**
 * One transaction's claims, in one statement: locks as many waiting orders as there are claimers (most
 * urgent first, skipping those another transaction holds), assigns the i-th most urgent to the i-th
 * claimer and records the assign events (in the claimers' order). With `asyncCommit` the statement also
 * lets its transaction commit without waiting for the flush. Returns the order ids in the claimers'
 * order; claimers past the last waiting order get nothing.
 */
async function claimBatch(
  tx: DbOrTx,
  staffIds: readonly number[],
  folder: Folder,
  scope: FolderScope,
  asyncCommit = false,
): Promise<(number | null)[]> {
  const claimers = sql.join(
    staffIds.map((id, i) => sql`(${i + 1}::int, ${id}::int)`),
    sql`, `,
  );
  // New Orders and Priority Orders also hold the Future orders, which a walk of the folder's index
  // passes on its way: with few orders due, the pick reads just those.
  const few = DUE_FOLDERS.has(folder) ? await fewDueNewOrders(tx, scope.today, FEW_DUE) : null;
  if (few && !few.length) return staffIds.map(() => null);
  const { rows } = await tx.execute<{ order_id: string; rn: number }>(sql`
    with ${pickWaiting(folder, scope, staffIds.length, few)},
    claimers (rn, staff_id) as (values ${claimers}),
    claimed as (
      update orders o set assigned_to = c.staff_id, updated_at = now(), ${VERSION_BUMP}
      from picked p join claimers c on c.rn = p.rn ${asyncCommit ? ASYNC_COMMIT : sql``}
      where o.order_id = p.order_id
      returning o.order_id, p.rn, c.staff_id
    ),
    events as (
      insert into order_events (order_id, actor_id, action, to_value)
      select order_id, staff_id, 'assign', staff_id::text from claimed order by rn
    )
    select order_id::text as order_id, rn::int as rn from claimed`);
  const byRank = new Map(rows.map((r) => [Number(r.rn), Number(r.order_id)]));
  return staffIds.map((_, i) => byRank.get(i + 1) ?? null);
}
