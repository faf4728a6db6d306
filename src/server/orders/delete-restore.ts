import { inArray, sql } from 'drizzle-orm';
import { ORDER_STATUSES, type OrderStatus } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import type { StaffIdentity } from '../context.js';
import { recordAudit } from '../db/audit-log.js';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { sqlValue } from '../db/sql-lists.js';
import { applySubmissionWindow } from './submission-window.js';
import { OrderRefusal } from './refusal.js';
import type { LockedOrder } from './repository.js';
import { applyStatus } from './status.js';
import { NO_STATUS_MAIL, type StatusEffects } from './status-effects.js';
import { inTransaction, lockAllowed, ORDER_NOT_FOUND } from './transaction.js';

/** Delete, restore and the refund's completion: status moves of many orders at once. */

/**
 * Soft delete from any queue or row. Who may delete is decided per order from the folder it really
 * sits in (the shared rules), never from the folder the request names.
 */
export async function deleteOrders(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  effects: StatusEffects,
  today = serviceToday(),
): Promise<number[]> {
  return inTransaction(db, async (tx) => {
    await refuseMissingOrDeleted(tx, ids);
    const locked = await lockAllowed(tx, ids, { kind: 'delete' }, actor, today);
    await applyStatus(tx, actor, locked, 'Deleted', {}, effects);
    return locked.map((o) => o.orderId);
  });
}

/**
 * A delete batch naming unknown or already deleted orders is refused as a whole, naming every one of
 * them by id (404 when one is unknown, else 409); one already deleted order alone keeps the rule's message.
 */
async function refuseMissingOrDeleted(tx: DbOrTx, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const rows = await tx
    .select({ orderId: orders.orderId, processStatus: orders.processStatus })
    .from(orders)
    .where(inArray(orders.orderId, unique));
  const status = new Map(rows.map((r) => [r.orderId, r.processStatus]));
  const missing = unique.filter((id) => !status.has(id));
  const deleted = unique.filter((id) => status.get(id) === 'Deleted');
  if (!missing.length && (!deleted.length || unique.length === 1)) return;
  const parts = [
    missing.length ? `${ORDER_NOT_FOUND}: ${missing.join(', ')}` : '',
    deleted.length ? `${missing.length ? 'already' : 'Already'} deleted: ${deleted.join(', ')}` : '',
  ].filter(Boolean);
  throw new OrderRefusal(missing.length ? 'not_found' : 'conflict', parts.join('; '), {
    notFound: missing,
    orders: deleted.map((orderId) => ({
      orderId,
      processStatus: 'Deleted',
      message: 'The order is already deleted.',
    })),
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
    )}) and action = 'status' and to_value = ${sqlValue('Deleted')}
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
  today = serviceToday(),
): Promise<{ orderId: number; processStatus: OrderStatus }[]> {
  return inTransaction(db, async (tx) => {
    const locked = await lockAllowed(tx, ids, { kind: 'restore' }, actor, today);
    const before = await statusesBeforeDeletion(
      tx,
      locked.map((o) => o.orderId),
    );
    const byTarget = new Map<OrderStatus, LockedOrder[]>();
    for (const o of locked) {
      const to = before.get(o.orderId) ?? 'New';
      byTarget.set(to, [...(byTarget.get(to) ?? []), o]);
    }
    for (const [to, group] of byTarget) {
      await applyStatus(tx, actor, group, to, { restore: true }, NO_STATUS_MAIL);
    }
    await applySubmissionWindow(
      tx,
      locked.map((o) => o.orderId),
    );
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
 * 'Refunded it': only orders in the Refunds queue; status Refunded, refund date now and the refund
 * confirmation mail queued in the same transaction (the mail worker delivers queued rows).
 */
export async function completeRefunds(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  effects: StatusEffects,
  today = serviceToday(),
): Promise<number[]> {
  return inTransaction(db, async (tx) => {
    const locked = await lockAllowed(tx, ids, { kind: 'completeRefund' }, actor, today);
    await applyStatus(tx, actor, locked, 'Refunded', {}, effects);
    return locked.map((o) => o.orderId);
  });
}

/**
 * Locks the orders and checks that 'Refunded it' is allowed on each (the shared rules): answers the
 * locked orders, or refuses the whole request. A provider refund checks this before it calls out.
 */
export async function lockRefundable(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  today = serviceToday(),
): Promise<LockedOrder[]> {
  return inTransaction(db, (tx) => lockAllowed(tx, ids, { kind: 'completeRefund' }, actor, today));
}
