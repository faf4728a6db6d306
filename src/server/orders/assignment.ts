import { and, eq, inArray, sql } from 'drizzle-orm';
import { CLOSED_STATUSES } from '../../shared/constants.js';
import { can } from '../../shared/permissions.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { sqlList } from '../db/sql-lists.js';
import { recordEvents } from './events.js';
import { heldOpenOrders } from './holder-counts.js';
import { refuseConflict, refuseForbidden, refuseInvalid } from './refusal.js';
import { type LockedOrder, lockOrders } from './repository.js';
import { assertVersion } from './rules.js';
import { inTransaction } from './transaction.js';
import { versionBump } from './version.js';

/** Who holds an order: assign to me, clear, hand a leaving member's orders over. */

export interface AssignInput {
  orderIds: number[];
  /** True: assign to the actor; false: clear the assignee (Move to Original Folder). */
  assign: boolean;
  /** With a single order: the version the client last saw. */
  expectedVersion?: number | undefined;
  /** Admin and Manager: assign even above the actor's routing capacity (after the 409 with the load). */
  overCapacity?: boolean | undefined;
}

export const OVER_CAPACITY_FORBIDDEN = 'Only an Admin or a Manager can assign above the capacity.';

/**
 * A member taking part in routing (a shift set) who would hold more open orders than their capacity:
 * 409 with the load, unless an Admin or Manager confirms. Their row is locked for the rest of the
 * transaction, so a routing pass counts after this assignment (or this check after the pass).
 */
async function assertCapacity(
  tx: DbOrTx,
  actor: StaffIdentity,
  adding: number,
  confirmed: boolean,
): Promise<void> {
  const { rows } = await tx.execute<{ capacity: number; routed: boolean; held: number }>(sql`
    select capacity, shift is not null as routed,
           ${heldOpenOrders(sql`${actor.id}::int`)} as held
    from staff_users where id = ${actor.id} for no key update`);
  const row = rows[0];
  if (!row?.routed) return;
  const held = Number(row.held);
  if (held + adding <= row.capacity || confirmed) return;
  const mayConfirm = can(actor.type, 'orders.assignOverCapacity');
  throw refuseConflict(
    `You hold ${held} open order${held === 1 ? '' : 's'} and your capacity is ${row.capacity}: ${adding === 1 ? 'this order goes' : `these ${adding} orders go`} above it.${mayConfirm ? ' Assign anyway?' : ''}`,
    { load: { held, capacity: row.capacity, adding, mayConfirm } },
  );
}

/**
 * Assign to me, or clear the assignee. An order someone else holds is never taken silently: the whole
 * request is refused, naming the holder; only a role with `orders.releaseAny` releases others' orders.
 * Answers the ids that changed.
 */
export async function assign(db: DbOrTx, actor: StaffIdentity, input: AssignInput): Promise<number[]> {
  const mayReleaseOthers = can(actor.type, 'orders.releaseAny');
  if (input.overCapacity && !can(actor.type, 'orders.assignOverCapacity'))
    throw refuseForbidden(OVER_CAPACITY_FORBIDDEN);
  return inTransaction(db, async (tx) => {
    const locked = await lockOrders(tx, input.orderIds);
    if (input.expectedVersion !== undefined) {
      if (locked.length !== 1) throw refuseInvalid('expectedVersion: only with a single order');
      await assertVersion(tx, locked[0]!, input.expectedVersion);
    }
    let changed: LockedOrder[];
    if (input.assign) {
      const deleted = locked.find((o) => o.processStatus === 'Deleted');
      if (deleted) throw refuseConflict(`Order ${deleted.orderId} is deleted and cannot be assigned.`);
      const held = locked.find((o) => o.assignedTo !== null && o.assignedTo !== actor.id);
      if (held) throw refuseConflict(`Order ${held.orderId} is already assigned to ${held.holder}.`);
      changed = locked.filter((o) => o.assignedTo === null);
      if (changed.length) await assertCapacity(tx, actor, changed.length, input.overCapacity ?? false);
    } else {
      const held = mayReleaseOthers
        ? undefined
        : locked.find((o) => o.assignedTo !== null && o.assignedTo !== actor.id);
      if (held) {
        throw refuseConflict(
          `Order ${held.orderId} is assigned to ${held.holder}; only they can move it back.`,
        );
      }
      changed = locked.filter((o) => o.assignedTo !== null);
    }
    if (!changed.length) return [];
    const to = input.assign ? actor.id : null;
    await tx
      .update(orders)
      .set({ assignedTo: to, updatedAt: sql`now()`, ...versionBump })
      .where(
        inArray(
          orders.orderId,
          changed.map((o) => o.orderId),
        ),
      );
    await recordEvents(
      tx,
      changed.map((o) => ({
        orderId: o.orderId,
        actorId: actor.id,
        action: 'assign' as const,
        fromValue: o.assignedTo === null ? null : String(o.assignedTo),
        toValue: to === null ? null : String(to),
      })),
    );
    return changed.map((o) => o.orderId);
  });
}

/**
 * A leaving member's open orders: released (back to their queues, `to` null) or handed to another
 * member, each with its assign event, in the caller's transaction. Answers how many moved.
 */
export async function handOverOpenOrders(
  db: DbOrTx,
  actor: StaffIdentity,
  from: number,
  to: number | null,
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const held = await tx
      .select({ orderId: orders.orderId })
      .from(orders)
      .where(
        and(eq(orders.assignedTo, from), sql`${orders.processStatus} not in (${sqlList(CLOSED_STATUSES)})`),
      );
    if (!held.length) return 0;
    const locked = await lockOrders(
      tx,
      held.map((o) => o.orderId),
    );
    const moving = locked.filter((o) => o.assignedTo === from);
    if (!moving.length) return 0;
    const ids = moving.map((o) => o.orderId);
    await tx
      .update(orders)
      .set({ assignedTo: to, updatedAt: sql`now()`, ...versionBump })
      .where(inArray(orders.orderId, ids));
    await recordEvents(
      tx,
      ids.map((orderId) => ({
        orderId,
        actorId: actor.id,
        action: 'assign' as const,
        fromValue: String(from),
        toValue: to === null ? null : String(to),
      })),
    );
    return ids.length;
  });
}

/** How many open orders a member holds (the Delete dialog says it before anything changes). */
export async function openOrdersHeldBy(db: DbOrTx, staffId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`count(*)` })
    .from(orders)
    .where(
      and(eq(orders.assignedTo, staffId), sql`${orders.processStatus} not in (${sqlList(CLOSED_STATUSES)})`),
    );
  return Number(row?.n ?? 0);
}
