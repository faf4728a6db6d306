import { inArray, sql } from 'drizzle-orm';
import { type Folder, ORDER_STATUSES, type OrderStatus, SERVICE_TIME_ZONE } from '../../shared/constants.js';
import {
  decide,
  holderDecision,
  type OrderAction,
  type OrderState,
  statusName,
} from '../../shared/order-rules.js';
import type { StaffIdentity } from '../context.js';
import { recordAudit } from '../audit/audit.js';
import type { DbOrTx } from '../db/client.js';
import { orders, staffUsers } from '../db/schema.js';
import { recordEvents } from './events.js';
import { type LockedOrder, lockOrders } from './repository.js';
import { queueMail } from '../mail/outbox.js';
import { type FolderScope, folderWhere } from './folders.js';
import { badRequest, conflict, HttpError } from '../http/errors.js';

/** What the shared order rules need to know about a locked order. */
export function ruleState(
  o: Pick<LockedOrder, 'processStatus' | 'assignedTo' | 'processingDate'>,
): OrderState {
  return {
    processStatus: o.processStatus,
    assigned: o.assignedTo !== null,
    processingDate: o.processingDate,
  };
}

/** One order the rules refused, as the error answer lists it. */
export interface RefusedOrder {
  orderId: number;
  processStatus: string;
  message: string;
}

/**
 * Checks every locked order against the shared rules. One refusal refuses the whole request (nothing
 * changes); the answer is 403 when a role may never do it, otherwise 409, and lists each refused order.
 */
export function enforceRules(
  locked: Pick<LockedOrder, 'orderId' | 'processStatus' | 'assignedTo' | 'processingDate'>[],
  action: OrderAction,
  actor: StaffIdentity,
  today: string,
): void {
  const refused: RefusedOrder[] = [];
  let code: 403 | 409 = 409;
  for (const o of locked) {
    const d = decide(ruleState(o), action, actor.type, today);
    if (d.allowed) continue;
    if (d.code === 403) code = 403;
    refused.push({ orderId: o.orderId, processStatus: o.processStatus, message: d.message });
  }
  if (!refused.length) return;
  const [first] = refused;
  const message =
    refused.length === 1 && locked.length === 1
      ? first!.message
      : `${refused.length} of ${locked.length} orders cannot be changed, so none was: ${refused
          .slice(0, 5)
          .map((r) => `${r.orderId} (${r.message})`)
          .join('; ')}${refused.length > 5 ? '; …' : ''}`;
  throw new HttpError(code, message, { orders: refused });
}

/** An order whose status is about to change, locked by the caller. */
export type StatusChange = Pick<LockedOrder, 'orderId' | 'processStatus' | 'email'>;

/**
 * The one way an order's status changes (queues, detail screen, remark flags, restore): the new
 * status and its event, all in the caller's transaction. A refund (not a restore to Completed Refunds)
 * also sets the refund date and queues the refund mail.
 */
export async function changeStatus(
  tx: DbOrTx,
  actor: StaffIdentity,
  changed: StatusChange[],
  to: string,
  opts: { restore?: boolean } = {},
) {
  const ids = changed.map((o) => o.orderId);
  const refunding = to === 'Refunded' && !opts.restore;
  await tx
    .update(orders)
    .set({
      processStatus: to,
      updatedAt: sql`now()`,
      ...(refunding ? { refundDate: sql`now()` } : {}),
    })
    .where(inArray(orders.orderId, ids));
  await recordEvents(
    tx,
    changed.map((o) => ({
      orderId: o.orderId,
      actorId: actor.id,
      action: 'status',
      fromValue: o.processStatus,
      toValue: to,
    })),
  );
  if (!refunding) return;
  for (const o of changed) {
    await queueMail(tx, {
      orderId: o.orderId,
      kind: 'refund',
      toEmail: o.email,
      provider: 'AWS',
      requestedBy: actor.id,
    });
  }
}

/**
 * Soft delete from any queue or row. Who may delete is decided per order from the folder it really
 * sits in (the shared rules), never from the folder the request names.
 */
export async function deleteOrders(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  today: string,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    const locked = await lockOrders(tx, ids);
    enforceRules(locked, { kind: 'delete' }, actor, today);
    await changeStatus(tx, actor, locked, 'Deleted');
    return locked.map((o) => o.orderId);
  });
}

/** The status each order had before its latest move to Deleted ('New' when no move is recorded). */
async function statusesBeforeDeletion(tx: DbOrTx, ids: number[]): Promise<Map<number, OrderStatus>> {
  const { rows } = await tx.execute<{ order_id: string; from_value: string | null }>(sql`
    select distinct on (order_id) order_id::text as order_id, from_value
    from order_events
    where order_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) and action = 'status' and to_value = 'Deleted'
    order by order_id, created_at desc, id desc`);
  const before = new Map<number, OrderStatus>();
  for (const r of rows) {
    const status = ORDER_STATUSES.find((s) => s === r.from_value && s !== 'Deleted');
    if (status) before.set(Number(r.order_id), status);
  }
  return before;
}

/** Restore (Admin and Manager): each order goes back to the status it had before it was deleted. */
export async function restoreOrders(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  today: string,
): Promise<{ orderId: number; processStatus: OrderStatus }[]> {
  return db.transaction(async (tx) => {
    const locked = await lockOrders(tx, ids);
    enforceRules(locked, { kind: 'restore' }, actor, today);
    const before = await statusesBeforeDeletion(
      tx,
      locked.map((o) => o.orderId),
    );
    const byTarget = new Map<string, LockedOrder[]>();
    for (const o of locked) {
      const to = before.get(o.orderId) ?? 'New';
      byTarget.set(to, [...(byTarget.get(to) ?? []), o]);
    }
    for (const [to, group] of byTarget) await changeStatus(tx, actor, group, to, { restore: true });
    for (const o of locked) {
      await recordAudit(tx, {
        action: 'order.restore',
        actorId: actor.id,
        target: `order ${o.orderId}`,
        from: 'Deleted',
        to: before.get(o.orderId) ?? 'New',
      });
    }
    return locked.map((o) => ({ orderId: o.orderId, processStatus: before.get(o.orderId) ?? 'New' }));
  });
}

/**
 * Assign to me, or clear the assignee (Move to Original Folder). An order someone else holds is never
 * taken silently: the whole request is refused, naming the holder.
 */
export async function assignOrders(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  assign: boolean,
  mayReleaseOthers: boolean,
  expectedVersion?: number,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    const locked = await lockOrders(tx, ids);
    if (expectedVersion !== undefined) {
      if (locked.length !== 1) throw badRequest('expectedVersion: only with a single order');
      await assertVersion(tx, locked[0]!, expectedVersion);
    }
    let changed: LockedOrder[];
    if (assign) {
      const deleted = locked.find((o) => o.processStatus === 'Deleted');
      if (deleted) throw conflict(`Order ${deleted.orderId} is deleted and cannot be assigned.`);
      const held = locked.find((o) => o.assignedTo !== null && o.assignedTo !== actor.id);
      if (held) throw conflict(`Order ${held.orderId} is already assigned to ${held.holder}.`);
      changed = locked.filter((o) => o.assignedTo === null);
    } else {
      const held = mayReleaseOthers
        ? undefined
        : locked.find((o) => o.assignedTo !== null && o.assignedTo !== actor.id);
      if (held) {
        throw conflict(`Order ${held.orderId} is assigned to ${held.holder}; only they can move it back.`);
      }
      changed = locked.filter((o) => o.assignedTo !== null);
    }
    if (!changed.length) return [];
    const to = assign ? actor.id : null;
    await tx
      .update(orders)
      .set({ assignedTo: to, updatedAt: sql`now()` })
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
        action: 'assign',
        fromValue: o.assignedTo === null ? null : String(o.assignedTo),
        toValue: to === null ? null : String(to),
      })),
    );
    return changed.map((o) => o.orderId);
  });
}

/**
 * 'Refunded it': only orders in the Refunds queue; status Refunded, refund date now and the refund
 * confirmation mail queued in the same transaction (the mail worker delivers queued rows).
 */
export async function completeRefunds(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  today: string,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    const locked = await lockOrders(tx, ids);
    enforceRules(locked, { kind: 'completeRefund' }, actor, today);
    await changeStatus(tx, actor, locked, 'Refunded');
    return locked.map((o) => o.orderId);
  });
}

/** How the latest change reads in a conflict message ("moved it to Awaiting Govt"). */
function describeChange(action: string, to: string | null, toName: string | null): string {
  switch (action) {
    case 'status':
      return `moved it to ${statusName(to ?? '')}`;
    case 'assign':
      return to === null ? 'released it' : `assigned it to ${toName ?? 'someone'}`;
    case 'takeover':
      return `took it over`;
    case 'remark':
      return 'added a remark';
    case 'upload':
      return 'uploaded a document';
    case 'withdraw':
      return 'withdrew a document';
    case 'mail':
      return 'queued a mail';
    case 'transaction':
      return 'changed the transaction details';
    default:
      return 'changed it';
  }
}

/**
 * Optimistic concurrency: a change sent with the version the client last saw is refused when the order
 * has changed since, naming who changed it, what and when. Without `expected` (API clients) no check.
 */
export async function assertVersion(
  tx: DbOrTx,
  order: { orderId: number; version: number },
  expected: number | undefined,
): Promise<void> {
  if (expected === undefined || expected === order.version) return;
  const { rows } = await tx.execute<{
    action: string;
    to_value: string | null;
    actor: string | null;
    to_name: string | null;
    at: string;
  }>(sql`
    select e.action, e.to_value, a.name as actor, t.name as to_name,
           to_char(e.created_at at time zone ${SERVICE_TIME_ZONE}, 'HH24:MI') as at
    from order_events e
    left join staff_users a on a.id = e.actor_id
    left join staff_users t on e.action in ('assign', 'takeover') and t.id::text = e.to_value
    where e.order_id = ${order.orderId}
    order by e.created_at desc, e.id desc limit 1`);
  const last = rows[0];
  const what = last
    ? `${last.actor ?? 'The system'} ${describeChange(last.action, last.to_value, last.to_name)} at ${last.at}`
    : 'Someone changed it';
  throw conflict(`This order changed since you opened it: ${what}. Reload to see the change.`, {
    version: order.version,
    expectedVersion: expected,
  });
}

/**
 * The holder rule for status moves and remark-flag moves on one locked order: refused (409, naming the
 * holder) for anyone else, or, for an Admin or Manager who asks, a takeover: the order is reassigned to
 * them with its own event and audit entry, in the same transaction.
 */
export async function applyHolderRule(
  tx: DbOrTx,
  order: { orderId: number; assignedTo: number | null },
  actor: StaffIdentity,
  takeOver: boolean,
): Promise<void> {
  if (order.assignedTo === null || order.assignedTo === actor.id) return;
  const [holder] = await tx
    .select({ name: staffUsers.name })
    .from(staffUsers)
    .where(sql`${staffUsers.id} = ${order.assignedTo}`);
  const d = holderDecision(
    { assignedToId: order.assignedTo, holder: holder?.name ?? null },
    { id: actor.id, role: actor.type },
    takeOver,
  );
  if (!d.allowed) throw conflict(d.message, { holder: holder?.name ?? null });
  await tx
    .update(orders)
    .set({ assignedTo: actor.id, updatedAt: sql`now()` })
    .where(sql`${orders.orderId} = ${order.orderId}`);
  await recordEvents(tx, [
    {
      orderId: order.orderId,
      actorId: actor.id,
      action: 'takeover',
      fromValue: String(order.assignedTo),
      toValue: String(actor.id),
    },
  ]);
  await recordAudit(tx, {
    action: 'order.takeover',
    actorId: actor.id,
    target: `order ${order.orderId}`,
    from: holder?.name ?? order.assignedTo,
    to: actor.name,
  });
  order.assignedTo = actor.id;
}

/**
 * Next order: assigns to the caller the most urgent unassigned open order of a folder (earliest arrival
 * first, then oldest). SKIP LOCKED lets concurrent claims pass each other, so two never get one order.
 */
export async function claimNextOrder(
  db: DbOrTx,
  actor: StaffIdentity,
  folder: Folder,
  scope: FolderScope,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ order_id: string }>(sql`
      select order_id::text as order_id from orders
      where ${folderWhere(folder, scope)} and assigned_to is null
        and process_status not in ('Completed', 'Deleted', 'Refunded')
      order by arrival_date asc nulls last, created_at asc, order_id asc
      limit 1 for update skip locked`);
    const row = rows[0];
    if (!row) return null;
    const orderId = Number(row.order_id);
    await tx
      .update(orders)
      .set({ assignedTo: actor.id, updatedAt: sql`now()` })
      .where(sql`${orders.orderId} = ${orderId}`);
    await recordEvents(tx, [{ orderId, actorId: actor.id, action: 'assign', toValue: String(actor.id) }]);
    return orderId;
  });
}
