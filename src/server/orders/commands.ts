import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import {
  CLOSED_STATUSES,
  MAIL_HOLD_SECONDS,
  type MailProvider,
  ORDER_STATUSES,
  type OrderStatus,
  RECENT_MOVE_SECONDS,
} from '../../shared/constants.js';
import type { PendingMail, RemarkItem } from '../../shared/contracts/order-detail.js';
import { formatServiceMoment, serviceToday } from '../../shared/dates.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import { decide, type OrderAction, remarkMove, statusName } from '../../shared/order-rules.js';
import { can } from '../../shared/permissions.js';
import { recordAudit } from '../audit/audit.js';
import { now } from '../auth/clock.js';
import { applySubmissionWindow } from './submission-window.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { documents, orderRemarks, orders } from '../db/schema.js';
import { type ResendRefusal, resendRefusal } from '../documents/resend-limits.js';
import {
  OrderRefusal,
  refusalOf,
  refuseConflict,
  refuseForbidden,
  refuseInvalid,
  refuseNotFound,
} from './refusal.js';
import { notifyStatusEntered, type StatusMails } from '../communication/notifications.js';
import { cancelHeldDocumentMail, cancelHeldMails, mailLimitError } from '../mail/limits.js';
import { queueMail, queueMailHeld } from '../mail/outbox.js';
import { assertCardMayLeave } from './card-gate.js';
import { recordEvents } from './events.js';
import { assertNoRiskHold } from './risk-hold.js';
import { latestDocument, type LockedOrder, lockOrders, remarkItemOf } from './repository.js';
import { applyHolderRule, assertHolderAllows, assertVersion, enforceRules, ruleState } from './rules.js';
import { sqlList, sqlValue } from '../db/sql-lists.js';

/**
 * The order commands: every change of an order goes through one of these. Each locks the orders it
 * changes, checks the rules inside its transaction (the shared rule table, the version the client
 * saw, the holder rule), writes the change and records its events there (events.ts), so the change,
 * its history and its live event commit together or not at all.
 *
 * Each takes the database or a transaction as `db`: given a transaction, it runs inside it (a macro
 * can chain several commands atomically); given the database, it opens its own.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Runs `fn` in the caller's transaction when `db` is one, otherwise in a new transaction. */
export function inTransaction<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (db instanceof PgTransaction) return fn(db as Tx);
  return (db as Db).transaction(fn);
}

const ORDER_NOT_FOUND = 'Order not found';

async function lockOne(tx: DbOrTx, orderId: number, notFoundMessage = ORDER_NOT_FOUND) {
  return (await lockOrders(tx, [orderId], notFoundMessage))[0]!;
}

/** An order whose status is about to change, locked by the caller. */
type StatusChange = Pick<LockedOrder, 'orderId' | 'processStatus' | 'email'>;

/**
 * Writes a status change of locked orders whose rules were checked: the new status and its events. A
 * refund (not a restore to Completed Refunds) also sets the refund date. The customer mails of the new
 * status are queued as its notification setting says (none for a restore, none with `notify: false`).
 * Answers how many mails were queued.
 */
async function applyStatus(
  tx: DbOrTx,
  actor: { id: number | null },
  changed: StatusChange[],
  to: OrderStatus,
  opts: {
    restore?: boolean;
    notify?: boolean | undefined;
    forced?: boolean;
    /** The move to Awaiting Govt of POST .../submitted: the government's reference, stored with it. */
    governmentReference?: string | undefined;
  } = {},
): Promise<StatusMails> {
  // A restore puts an order back where it was; it is not a completion.
  if (to === 'Completed' && !opts.forced && !opts.restore) await assertCurrentDocuments(tx, changed);
  // A card whose check found a mismatch or another order's file never completes an order (card-gate.ts).
  if (to === 'Completed' && !opts.restore)
    await assertCardMayLeave(
      tx,
      changed.map((o) => o.orderId),
    );
  const ids = changed.map((o) => o.orderId);
  // No submission while the payment is on a risk hold (decision 372), on every path of a move.
  if (to === 'AwaitingGovt' && !opts.restore) await assertNoRiskHold(tx, ids);
  const refunding = to === 'Refunded' && !opts.restore;
  await tx
    .update(orders)
    .set({
      processStatus: to,
      updatedAt: sql`now()`,
      // A refund without a recorded reason records 'unspecified' (docs/product.md, "Refund reasons").
      ...(refunding
        ? { refundDate: sql`now()`, refundReason: sql`coalesce(refund_reason, 'unspecified')` }
        : {}),
      ...(opts.governmentReference !== undefined
        ? { governmentReference: opts.governmentReference, submittedAt: sql`now()`, submittedBy: actor.id }
        : {}),
    })
    .where(inArray(orders.orderId, ids));
  await syncReferenceCheck(tx, ids);
  // A submitted order's failed machine submission is behind it.
  if (to === 'AwaitingGovt') {
    await tx
      .update(orders)
      .set({ checkFlags: sql`array_remove(check_flags, 'submission_failed')` })
      .where(and(inArray(orders.orderId, ids), sql`'submission_failed' = any(check_flags)`));
  }
  // A government card sent with the completion is no longer waiting to be sent.
  if (to === 'Completed') {
    await tx
      .update(orders)
      .set({ checkFlags: sql`array_remove(check_flags, 'card_arrived_unsent')` })
      .where(and(inArray(orders.orderId, ids), sql`'card_arrived_unsent' = any(check_flags)`));
  }
  await recordEvents(
    tx,
    changed.map((o) => ({
      orderId: o.orderId,
      actorId: actor.id,
      action: 'status' as const,
      fromValue: o.processStatus,
      toValue: to,
    })),
  );
  return notifyStatusEntered(tx, actor.id, changed, to, {
    restore: opts.restore,
    skip: opts.notify === false || opts.forced,
  });
}

const REFERENCE_CHECK = {
  code: 'government_reference_missing',
  severity: 'warn',
  fields: [],
  params: {},
} as const;

/**
 * An order in Awaiting Govt without the government's reference carries the check
 * government_reference_missing (warn), so it shows in Needs attention until one is stored; any other
 * order does not. Kept on the stored checks of `ids` in the transaction of the change (the server's
 * checksOfOrder computes the same, so a later run of the checks agrees).
 */
export async function syncReferenceCheck(tx: DbOrTx, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await tx.execute(sql`
    with x as (
      select order_id,
             process_status = ${sqlValue('AwaitingGovt')} and government_reference is null as wanted,
             coalesce((select jsonb_agg(c) from jsonb_array_elements(checks) c
                       where c->>'code' <> ${REFERENCE_CHECK.code}), '[]'::jsonb) as others
      from orders
      where order_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
        and (process_status = ${sqlValue('AwaitingGovt')} and government_reference is null)
            <> (checks @> ${JSON.stringify([{ code: REFERENCE_CHECK.code }])}::jsonb)),
    n as (
      select order_id,
             case when wanted then others || ${JSON.stringify([REFERENCE_CHECK])}::jsonb else others end as checks
      from x)
    update orders o
    set checks = n.checks,
        check_level = case when n.checks @> '[{"severity":"block"}]'::jsonb then 2
                           when jsonb_path_exists(n.checks, '$[*] ? (@.severity == "warn" && @.code != "arrival_past")')
                             then 1 else 0 end
    from n where o.order_id = n.order_id`);
}

/** The order's submission window has not opened yet (the portal would refuse it). */
function windowClosed(order: Pick<LockedOrder, 'submissionOpensAt'>): boolean {
  return order.submissionOpensAt !== null && order.submissionOpensAt.getTime() > now().getTime();
}

export function windowClosedMessage(opensAt: Date): string {
  return `Submission opens on ${formatServiceMoment(opensAt)}: the government's portal refuses the order until then. An Admin can submit it earlier, with a reason.`;
}

export const NO_CARD_MESSAGE =
  'This order has no approved card yet: upload the card before completing the order. An Admin can complete it without one, with a reason.';

/** Completed needs a current (not withdrawn) document on every path (decision 296). */
async function assertCurrentDocuments(tx: DbOrTx, changed: StatusChange[]): Promise<void> {
  const missing: number[] = [];
  for (const o of changed) if (!(await latestDocument(tx, o.orderId))) missing.push(o.orderId);
  if (!missing.length) return;
  if (changed.length === 1) {
    throw refuseConflict(NO_CARD_MESSAGE, {
      orders: [{ orderId: missing[0]!, processStatus: changed[0]!.processStatus, message: NO_CARD_MESSAGE }],
    });
  }
  throw refuseConflict(
    `${missing.length} of ${changed.length} orders have no approved card, so none was completed: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`,
    {
      orders: missing.map((orderId) => ({
        orderId,
        processStatus: changed.find((o) => o.orderId === orderId)!.processStatus,
        message: NO_CARD_MESSAGE,
      })),
    },
  );
}

/**
 * Someone else moved the order in the last few seconds: the move asks first (409 with `recentMove`),
 * unless the actor confirms.
 */
async function assertNoRecentMove(tx: DbOrTx, orderId: number, actor: StaffIdentity): Promise<void> {
  const { rows } = await tx.execute<{
    name: string | null;
    to_value: string | null;
    actor_id: number | null;
  }>(sql`
    select a.name, e.to_value, e.actor_id
    from order_events e left join staff_users a on a.id = e.actor_id
    where e.order_id = ${orderId} and e.action = 'status'
      and e.created_at > now() - make_interval(secs => ${RECENT_MOVE_SECONDS})
    order by e.created_at desc, e.id desc limit 1`);
  const last = rows[0];
  if (!last || last.actor_id === null || last.actor_id === actor.id) return;
  const by = last.name ?? 'Someone';
  const to = statusName(last.to_value ?? '');
  throw refuseConflict(`${by} just moved this to ${to} — continue?`, {
    recentMove: { by, to: last.to_value },
  });
}

/** Undo is for the actor's own move back, inside the undo window: anything else is refused. */
async function assertUndoable(tx: DbOrTx, orderId: number, actor: StaffIdentity, to: string): Promise<void> {
  const { rows } = await tx.execute<{ actor_id: number | null; from_value: string | null }>(sql`
    select e.actor_id, e.from_value from order_events e
    where e.order_id = ${orderId} and e.action = 'status'
      and e.created_at > now() - make_interval(secs => ${MAIL_HOLD_SECONDS})
    order by e.created_at desc, e.id desc limit 1`);
  const last = rows[0];
  if (!last || last.actor_id !== actor.id || last.from_value !== to) {
    throw refuseConflict('It is too late to undo this move: the order changed or the undo time is over.');
  }
}

export interface ChangeStatusInput {
  orderId: number;
  to: OrderStatus;
  /** The version the client last saw; a later change refuses the move (409). */
  expectedVersion?: number | undefined;
  /** Admin or Manager: take over an order someone else holds. */
  takeOver?: boolean | undefined;
  /** False: queue no status notification (the caller sends its own mail). Default true. */
  notify?: boolean | undefined;
  /** Undo of the actor's own move seconds ago: no notification, and its held mails are cancelled. */
  undo?: boolean | undefined;
  /** Continue although someone else moved the order seconds ago. */
  confirmRecent?: boolean | undefined;
  /** Admin only, to Completed: without a current document, for this reason; no customer mail. */
  forceReason?: string | undefined;
  /** To Awaiting Govt only: the government's reference, stored with the move (POST .../submitted). */
  governmentReference?: string | undefined;
}

/**
 * Moves one order to a status (the detail screen's buttons, macros). Deleting has its own rule for
 * held orders (Admin only); other moves follow the holder rule. `mail`: the customer mail it queued.
 */
export async function changeStatus(
  db: DbOrTx,
  actor: StaffIdentity,
  input: ChangeStatusInput,
): Promise<{
  orderId: number;
  from: OrderStatus;
  to: OrderStatus;
  mail: PendingMail | null;
  repeats: StatusMails['repeats'];
  cancelledMails: number;
}> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, input.orderId);
    // Refuse before asking (decision 357): the order rules, the role and the holder first; only a
    // move that would go through is met with "changed since you opened it" or "… just moved this —
    // continue?".
    enforceRules([order], { kind: 'move', to: input.to }, actor, serviceToday());
    const forced = input.forceReason !== undefined;
    const early = input.to === 'AwaitingGovt' && windowClosed(order);
    if (forced) {
      if (input.to !== 'Completed' && input.to !== 'AwaitingGovt') {
        throw refuseInvalid('forceReason: only for a move to Completed or Awaiting Govt');
      }
      if (actor.type !== 'Admin') {
        throw refuseForbidden(
          input.to === 'Completed'
            ? 'Only an Admin can complete an order without a card.'
            : 'Only an Admin can submit an order before its submission window opens.',
        );
      }
    }
    if (input.to !== 'Deleted') await assertHolderAllows(tx, order, actor, input.takeOver ?? false);
    // A refusal, like the rules': before the questions below.
    if (early && !forced) throw refuseConflict(windowClosedMessage(order.submissionOpensAt!));
    await assertVersion(tx, order, input.expectedVersion);
    if (input.undo) await assertUndoable(tx, order.orderId, actor, input.to);
    else if (!input.confirmRecent) await assertNoRecentMove(tx, order.orderId, actor);
    if (input.to !== 'Deleted') await applyHolderRule(tx, order, actor, input.takeOver ?? false);
    const cancelled = input.undo ? await cancelHeldMails(tx, order.orderId, actor.id) : [];
    if (cancelled.length) {
      await recordEvents(
        tx,
        cancelled.map((m) => ({
          orderId: order.orderId,
          actorId: actor.id,
          action: 'mail' as const,
          toValue: `${m.kind} mail ${m.id} cancelled by Undo`,
        })),
      );
    }
    if (input.governmentReference !== undefined && input.to !== 'AwaitingGovt') {
      throw refuseInvalid('governmentReference: only with a move to Awaiting Govt');
    }
    const mails = await applyStatus(tx, actor, [order], input.to, {
      notify: input.undo ? false : input.notify,
      forced: forced && input.to === 'Completed' && !(await latestDocument(tx, order.orderId)),
      governmentReference: input.governmentReference,
    });
    if (input.governmentReference !== undefined) {
      await recordEvents(tx, [
        {
          orderId: order.orderId,
          actorId: actor.id,
          action: 'submission',
          fromValue: order.governmentReference,
          toValue: input.governmentReference,
        },
      ]);
      await recordAudit(tx, {
        action: 'order.submitted',
        actorId: actor.id,
        target: `order ${order.orderId}`,
        from: { status: order.processStatus, governmentReference: order.governmentReference },
        to: { status: 'AwaitingGovt', governmentReference: input.governmentReference },
      });
    }
    if (forced && input.to === 'AwaitingGovt') {
      await recordAudit(tx, {
        action: 'order.force-submit',
        actorId: actor.id,
        target: `order ${order.orderId}`,
        from: {
          status: order.processStatus,
          submissionOpensAt: order.submissionOpensAt?.toISOString() ?? null,
        },
        to: { status: 'AwaitingGovt', reason: input.forceReason },
      });
    } else if (forced) {
      await recordAudit(tx, {
        action: 'order.force-complete',
        actorId: actor.id,
        target: `order ${order.orderId}`,
        from: order.processStatus,
        to: { status: 'Completed', reason: input.forceReason },
      });
    }
    return {
      orderId: order.orderId,
      from: order.processStatus as OrderStatus,
      to: input.to,
      mail: mails.queued[0] ?? null,
      repeats: mails.repeats,
      cancelledMails: cancelled.length,
    };
  });
}

/** Locks the orders (in id order) and refuses the whole batch unless the rules allow `action` on each. */
async function lockAllowed(
  tx: DbOrTx,
  ids: number[],
  action: OrderAction,
  actor: StaffIdentity,
  today: string,
): Promise<LockedOrder[]> {
  const locked = await lockOrders(tx, ids);
  enforceRules(locked, action, actor, today);
  return locked;
}

/**
 * Soft delete from any queue or row. Who may delete is decided per order from the folder it really
 * sits in (the shared rules), never from the folder the request names.
 */
export async function deleteOrders(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  today = serviceToday(),
): Promise<number[]> {
  return inTransaction(db, async (tx) => {
    await refuseMissingOrDeleted(tx, ids);
    const locked = await lockAllowed(tx, ids, { kind: 'delete' }, actor, today);
    await applyStatus(tx, actor, locked, 'Deleted');
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
    for (const [to, group] of byTarget) await applyStatus(tx, actor, group, to, { restore: true });
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
  today = serviceToday(),
): Promise<number[]> {
  return inTransaction(db, async (tx) => {
    const locked = await lockAllowed(tx, ids, { kind: 'completeRefund' }, actor, today);
    await applyStatus(tx, actor, locked, 'Refunded');
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

/**
 * A macro's mail step follows the rules of a move even without one (decision 295): the holder rule
 * (takeover for Admin/Manager) and, for a mail-only step, no mail to Deleted or Completed Refunds orders.
 */
export async function assertMayMail(
  tx: DbOrTx,
  actor: StaffIdentity,
  order: LockedOrder,
  mailOnly: boolean,
  takeOver: boolean,
): Promise<void> {
  if (mailOnly && order.processStatus === 'Deleted')
    throw refuseConflict('The order is deleted: no mail is sent.');
  if (mailOnly && order.processStatus === 'Refunded') {
    throw refuseConflict('The order is in Completed Refunds: no mail is sent.');
  }
  await applyHolderRule(tx, order, actor, takeOver);
}

/**
 * Cancels the customer mails of an order that the actor caused and that still wait for delivery (a
 * macro's mail in its hold window). 409 when there is none (it has gone already, or was never held).
 */
export async function cancelPendingMail(db: DbOrTx, actor: StaffIdentity, orderId: number): Promise<number> {
  return inTransaction(db, async (tx) => {
    await lockOne(tx, orderId);
    const cancelled = await cancelHeldMails(tx, orderId, actor.id);
    if (!cancelled.length)
      throw refuseConflict('There is no pending mail of yours for this order: it may have gone already.');
    await recordEvents(
      tx,
      cancelled.map((m) => ({
        orderId,
        actorId: actor.id,
        action: 'mail' as const,
        toValue: `${m.kind} mail ${m.id} cancelled`,
      })),
    );
    return cancelled.length;
  });
}

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
           (select count(*)::int from orders where assigned_to = ${actor.id}
              and process_status not in (${sqlList(CLOSED_STATUSES)})) as held
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
        action: 'assign' as const,
        fromValue: o.assignedTo === null ? null : String(o.assignedTo),
        toValue: to === null ? null : String(to),
      })),
    );
    return changed.map((o) => o.orderId);
  });
}

type Flag = 'Y' | 'N';

export interface AddRemarkInput {
  orderId: number;
  remark: string;
  whatsapp: Flag;
  telephone: Flag;
  statusRefund: Flag;
  voided: Flag;
  chargeBack: Flag;
  reportError: Flag;
  expectedVersion?: number | undefined;
  takeOver?: boolean | undefined;
}

/**
 * A remark by the actor. The Refund and Chargeback flags move the order (the shared rules and the
 * holder rule decide); an order already where the flag points only gets the remark.
 */
export async function addRemark(
  db: DbOrTx,
  actor: StaffIdentity,
  input: AddRemarkInput,
): Promise<{ remark: RemarkItem; processStatus: OrderStatus; moved: boolean }> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, input.orderId);
    await assertVersion(tx, order, input.expectedVersion);
    const today = serviceToday();
    const move = remarkMove(ruleState(order), input, actor.type, today);
    if (move) {
      await applyHolderRule(tx, order, actor, input.takeOver ?? false);
      enforceRules([order], { kind: 'move', to: move.to }, actor, today);
    }
    const [remark] = await tx
      .insert(orderRemarks)
      .values({
        orderId: input.orderId,
        authorId: actor.id,
        remark: input.remark,
        whatsapp: input.whatsapp,
        telephone: input.telephone,
        statusRefund: input.statusRefund,
        voided: input.voided,
        chargeback: input.chargeBack,
        reportError: input.reportError,
      })
      .returning();
    await recordEvents(tx, [
      { orderId: input.orderId, actorId: actor.id, action: 'remark', toValue: String(remark!.id) },
    ]);
    let status = order.processStatus as OrderStatus;
    if (move) {
      await applyStatus(tx, actor, [order], move.to);
      status = move.to;
    }
    return { remark: remarkItemOf(remark!, actor.name), processStatus: status, moved: !!move };
  });
}

export interface SaveTransactionInput {
  orderId: number;
  transactionId: string;
  merchantName: string;
  expectedVersion?: number | undefined;
}

/** Enter Transaction Details: the payment's transaction id and merchant, with the old values in the event. */
export async function saveTransaction(
  db: DbOrTx,
  actor: StaffIdentity,
  input: SaveTransactionInput,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const order = await lockOne(tx, input.orderId);
    await assertVersion(tx, order, input.expectedVersion);
    await tx
      .update(orders)
      .set({ transactionId: input.transactionId, merchantName: input.merchantName, updatedAt: sql`now()` })
      .where(eq(orders.orderId, input.orderId));
    await recordEvents(tx, [
      {
        orderId: input.orderId,
        actorId: actor.id,
        action: 'transaction',
        fromValue: `${order.transactionId ?? ''} / ${order.merchantName ?? ''}`,
        toValue: `${input.transactionId} / ${input.merchantName}`,
      },
    ]);
  });
}

/** A file already checked and stored (documents/upload.ts), to attach to an order. */
export interface StoredDocument {
  key: string;
  originalName: string;
  mimeType: string;
  size: number;
  sha256: string;
}

export interface AttachDocumentInput {
  orderId: number;
  file: StoredDocument;
  /** Where the approval mail goes, and through which provider. */
  email: string;
  provider: MailProvider;
  expectedVersion?: number | undefined;
  /** Admin or Manager: take over an order someone else holds. */
  takeOver?: boolean | undefined;
  /** Admin or Manager: the card really goes to an address other than the order's. */
  confirmOtherAddress?: boolean | undefined;
  /**
   * A caller that checks the card before it leaves (flows/card-check.ts) stores it with `false`, then
   * sends it with queueApprovalMail when the card gate is clear. Default true: stored and mailed at once.
   */
  mail?: boolean | undefined;
  /** The approval mail waits for the undo window (a file a customer sent, used as the card). */
  hold?: boolean | undefined;
}

/**
 * The card goes to the order's own address; another address only when an Admin or Manager confirms it
 * (decision 297): 403 for other roles, 409 asking for the confirmation.
 */
function assertRecipient(order: LockedOrder, email: string, actor: StaffIdentity, confirmed?: boolean): void {
  if (email.trim().toLowerCase() === order.email.trim().toLowerCase()) return;
  if (actor.type !== 'Admin' && actor.type !== 'Manager') {
    throw refuseForbidden(
      `The card is mailed to the order's own address (${order.email}); only an Admin or Manager can send it elsewhere.`,
    );
  }
  if (!confirmed) {
    throw refuseConflict(
      `${email} is not the order's address (${order.email}). Confirm to mail the card to ${email}.`,
      { orderEmail: order.email, confirmOtherAddress: true },
    );
  }
}

/** The card limits of resend-mail hold for the upload too: an upload mails the card. */
function refusalError(refusal: ResendRefusal): ReturnType<typeof mailLimitError> {
  return mailLimitError(refusal.message, refusal.retryAfterSeconds);
}

/**
 * The approved document: attached to the order (it becomes the current document) and the approval
 * mail with it queued, in one transaction. It follows the rules of a move (decision 297): no upload to a
 * Deleted order, the holder rule, the card limits per order and per staff member, and the order's own
 * address unless an Admin or Manager confirms another. The caller removes the stored file if this throws.
 */
export async function attachDocument(
  db: DbOrTx,
  actor: StaffIdentity,
  input: AttachDocumentInput,
): Promise<{ mailId: number | null; documentId: number; heldUntil: string | null }> {
  return inTransaction(db, async (tx) => {
    const { orderId, file } = input;
    const order = await lockOne(tx, orderId);
    await assertVersion(tx, order, input.expectedVersion);
    if (order.processStatus === 'Deleted') {
      throw refuseConflict('The order is deleted: restore it before uploading a document.');
    }
    await applyHolderRule(tx, order, actor, input.takeOver ?? false);
    assertRecipient(order, input.email, actor, input.confirmOtherAddress);
    const refusal = await resendRefusal(tx, orderId, actor.id, { uploads: true });
    if (refusal) throw refusalError(refusal);
    const [doc] = await tx
      .insert(documents)
      .values({
        orderId,
        storageKey: file.key,
        originalName: file.originalName,
        mimeType: file.mimeType,
        sizeBytes: file.size,
        sha256: file.sha256,
        mailServiceProvider: input.provider,
        uploadedBy: actor.id,
      })
      .returning({ id: documents.id });
    await recordEvents(tx, [{ orderId, actorId: actor.id, action: 'upload', toValue: file.originalName }]);
    if (input.mail === false) return { mailId: null, documentId: doc!.id, heldUntil: null };
    await assertCardMayLeave(tx, [orderId]);
    const mail = await queueApprovalMail(tx, actor, {
      orderId,
      documentId: doc!.id,
      email: input.email,
      provider: input.provider,
      hold: input.hold ?? false,
    });
    return { mailId: mail.id, documentId: doc!.id, heldUntil: mail.holdUntil?.toISOString() ?? null };
  });
}

/**
 * The approval mail of a document just attached (attachDocument with `mail: false`), in the caller's
 * transaction, once the card gate is clear (the caller asked it).
 */
export async function queueApprovalMail(
  tx: DbOrTx,
  actor: StaffIdentity,
  input: {
    orderId: number;
    documentId: number;
    email: string;
    provider: MailProvider;
    /** The mail waits for the undo window (a file a customer sent, used as the card). */
    hold?: boolean | undefined;
  },
): Promise<{ id: number; holdUntil: Date | null }> {
  return queueMailHeld(tx, {
    orderId: input.orderId,
    kind: 'approval',
    toEmail: input.email,
    provider: input.provider,
    documentId: input.documentId,
    requestedBy: actor.id,
    hold: input.hold ?? false,
  });
}

/**
 * The approval mail with the current document again. Refused (409) without a document or for a Deleted
 * order; over the resend limits it answers the refusal (nothing written) for the caller to answer 429.
 */
export async function resendDocument(
  db: DbOrTx,
  actor: StaffIdentity,
  input: {
    orderId: number;
    email: string;
    provider: MailProvider;
    expectedVersion?: number | undefined;
    confirmOtherAddress?: boolean | undefined;
  },
): Promise<{ mailId: number; documentId: number } | { refused: ResendRefusal }> {
  return inTransaction(db, async (tx) => {
    const { orderId } = input;
    const order = await lockOne(tx, orderId);
    await assertVersion(tx, order, input.expectedVersion);
    if (order.processStatus === 'Deleted') throw refuseConflict('The order is deleted: no mail is sent.');
    const doc = await latestDocument(tx, orderId);
    if (!doc) throw refuseConflict('No document has been uploaded for this order yet.');
    assertRecipient(order, input.email, actor, input.confirmOtherAddress);
    const refusal = await resendRefusal(tx, orderId, actor.id);
    if (refusal) return { refused: refusal };
    await assertCardMayLeave(tx, [orderId]);
    const mailId = await queueMail(tx, {
      orderId,
      kind: 'resend',
      toEmail: input.email,
      provider: input.provider,
      documentId: doc.id,
      requestedBy: actor.id,
    });
    return { mailId, documentId: doc.id };
  });
}

/**
 * Undo of "Use as approved card" inside the undo window (decision 358): only the member who did it,
 * only while its approval mail is still held. The mail is cancelled and the document withdrawn (kept
 * for the record), in one transaction with their events. 403 for someone else's upload, 409 when the
 * window is over or the mail already left.
 */
export async function undoDocumentUpload(
  db: DbOrTx,
  actor: StaffIdentity,
  input: { orderId: number; documentId: number },
): Promise<{ documentId: number; cancelledMailId: number }> {
  return inTransaction(db, async (tx) => {
    await lockOne(tx, input.orderId);
    const [doc] = await tx
      .select()
      .from(documents)
      .where(and(eq(documents.id, input.documentId), eq(documents.orderId, input.orderId)))
      .limit(1);
    if (!doc) throw refuseNotFound('Document not found');
    if (doc.uploadedBy !== actor.id)
      throw refuseForbidden('Only the member who used the file as the card can undo it.');
    const cancelled = await cancelHeldDocumentMail(tx, input.orderId, doc.id, actor.id);
    if (!cancelled || doc.withdrawnAt) {
      throw refuseConflict('It is too late to undo: the approval mail has left or the undo time is over.');
    }
    await tx
      .update(documents)
      .set({
        withdrawnAt: sql`now()`,
        withdrawnBy: actor.id,
        withdrawReason: 'Undone within the undo window',
      })
      .where(eq(documents.id, doc.id));
    await recordEvents(tx, [
      {
        orderId: input.orderId,
        actorId: actor.id,
        action: 'mail',
        toValue: `${cancelled.kind} mail ${cancelled.id} cancelled by Undo`,
      },
      {
        orderId: input.orderId,
        actorId: actor.id,
        action: 'withdraw',
        fromValue: doc.originalName,
        toValue: 'Undone within the undo window',
      },
    ]);
    return { documentId: doc.id, cancelledMailId: cancelled.id };
  });
}

/**
 * Withdraws a wrongly uploaded document with a reason: kept for the record, never served or mailed
 * again; the previous upload becomes current. 404 for an unknown document, 409 when already withdrawn.
 */
export async function withdrawDocument(
  db: DbOrTx,
  actor: StaffIdentity,
  input: { documentId: number; reason: string; ip?: string | null },
): Promise<{ id: number; order_id: number; current_document_id: number | null }> {
  return inTransaction(db, async (tx) => {
    const [found] = await tx
      .select({ orderId: documents.orderId })
      .from(documents)
      .where(eq(documents.id, input.documentId))
      .limit(1);
    if (!found) throw refuseNotFound('Document not found');
    await lockOne(tx, found.orderId);
    const [doc] = await tx
      .update(documents)
      .set({ withdrawnAt: sql`now()`, withdrawnBy: actor.id, withdrawReason: input.reason })
      .where(and(eq(documents.id, input.documentId), isNull(documents.withdrawnAt)))
      .returning();
    if (!doc) throw refuseConflict('The document has already been withdrawn.');
    await recordEvents(tx, [
      {
        orderId: doc.orderId,
        actorId: actor.id,
        action: 'withdraw',
        fromValue: doc.originalName,
        toValue: input.reason,
      },
    ]);
    await recordAudit(tx, {
      action: 'document.withdraw',
      actorId: actor.id,
      target: `order ${doc.orderId}, document ${doc.id}`,
      from: { fileName: doc.originalName },
      to: { reason: input.reason },
      ip: input.ip ?? null,
    });
    const current = await latestDocument(tx, doc.orderId);
    return { id: doc.id, order_id: doc.orderId, current_document_id: current?.id ?? null };
  });
}

/**
 * Send Invoice: the invoice mail to the order's own e-mail address, queued with its event. Unknown
 * orders answer 404 with `notFoundMessage`.
 */
export async function sendInvoice(
  db: DbOrTx,
  actor: StaffIdentity,
  input: { orderId: number; notFoundMessage: string },
): Promise<{ mailId: number; email: string }> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, input.orderId, input.notFoundMessage);
    const mailId = await queueMail(tx, {
      orderId: order.orderId,
      kind: 'invoice',
      toEmail: order.email,
      provider: 'AWS',
      requestedBy: actor.id,
    });
    return { mailId, email: order.email };
  });
}

/**
 * A paid order from the application site, in New with its 'created' event. Idempotent on the client
 * reference: the same order sent again answers the id of the first.
 */
export async function createOrder(db: DbOrTx, values: typeof orders.$inferInsert): Promise<number> {
  return inTransaction(db, async (tx) => {
    const [created] = await tx
      .insert(orders)
      .values({ ...values, processStatus: 'New' })
      .onConflictDoNothing({ target: orders.clientReference })
      .returning({ orderId: orders.orderId });
    if (created) {
      await recordEvents(tx, [{ orderId: created.orderId, action: 'created', toValue: 'New' }]);
      await applySubmissionWindow(tx, [created.orderId]);
      return created.orderId;
    }
    const [existing] = await tx
      .select({ orderId: orders.orderId })
      .from(orders)
      .where(eq(orders.clientReference, values.clientReference ?? ''));
    return existing!.orderId;
  });
}

/**
 * Keeps the customer's language on the order (docs/decisions/210): a choice (`?lang=` or the picker)
 * replaces the stored language; a browser's language only fills an empty one. A change is one
 * transaction with its order event; no change writes nothing. Unknown and deleted orders are left alone.
 */
export async function rememberOrderLanguage(
  db: DbOrTx,
  orderId: number,
  language: CustomerLanguage,
  chosen: boolean,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const [row] = await lockOrders(tx, [orderId]).catch((err: unknown) => {
      if (refusalOf(err, 'not_found')) return [];
      throw err;
    });
    if (!row || row.processStatus === 'Deleted' || row.language === language) return false;
    if (row.language !== null && !chosen) return false;
    await tx.update(orders).set({ language }).where(eq(orders.orderId, orderId));
    await recordEvents(tx, [{ orderId, action: 'language', fromValue: row.language, toValue: language }]);
    return true;
  });
}

/**
 * The system user of provider events (docs/decisions/301): the shared rules with a Manager's rights, and
 * no holder rule (the holder keeps the order and sees the change live). Its changes carry no actor.
 */
const SYSTEM_RULES_ROLE = 'Manager' as const;
const systemActor = { id: null, type: SYSTEM_RULES_ROLE } as const;

/**
 * A remark by the system (no author), with its order event, in the caller's transaction or a new one:
 * one statement writes both.
 */
export async function addSystemRemark(db: DbOrTx, orderId: number, remark: string): Promise<void> {
  await inTransaction(db, (tx) =>
    tx.execute(sql`
      with remark as (
        insert into order_remarks (order_id, author_id, remark) values (${orderId}, null, ${remark})
        returning id
      )
      insert into order_events (order_id, action, to_value) select ${orderId}, 'remark', id::text from remark`),
  );
}

/**
 * A move by the system user, through the shared rules: answers whether it moved, or the rules' reason
 * when they refuse (nothing changes then). Mails as the status's notification setting says.
 */
export async function moveAsSystem(
  db: DbOrTx,
  orderId: number,
  to: OrderStatus,
  opts: { notify?: boolean; today?: string } = {},
): Promise<{ moved: boolean; from: OrderStatus; refusal: string | null }> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, orderId);
    const from = order.processStatus as OrderStatus;
    const d = decide(ruleState(order), { kind: 'move', to }, systemActor.type, opts.today ?? serviceToday());
    if (!d.allowed) return { moved: false, from, refusal: d.message };
    await applyStatus(tx, systemActor, [order], to, { notify: opts.notify });
    return { moved: true, from, refusal: null };
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
      .set({ assignedTo: to, updatedAt: sql`now()` })
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

/** A file the government mailed, stored under the upload rules (src/server/flows/government-mail.ts). */
export interface GovernmentFile {
  key: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/**
 * The government's card for an order, as an upload by the system user "Government mail": it becomes the
 * order's current document, with its upload event. The same PDF (sha256) twice on one order, or a
 * closed order, stores nothing (null).
 */
export async function attachGovernmentCard(
  db: DbOrTx,
  orderId: number,
  file: GovernmentFile,
): Promise<{ documentId: number } | null> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, orderId);
    if ((CLOSED_STATUSES as readonly string[]).includes(order.processStatus)) return null;
    const [same] = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.orderId, orderId), eq(documents.sha256, file.sha256)))
      .limit(1);
    if (same) return null;
    const [doc] = await tx
      .insert(documents)
      .values({
        orderId,
        storageKey: file.key,
        originalName: file.name,
        mimeType: file.mimeType,
        sizeBytes: file.size,
        sha256: file.sha256,
        uploadedBy: null,
      })
      .returning({ id: documents.id });
    await recordEvents(tx, [
      { orderId, actorId: null, action: 'upload', toValue: `${file.name} (Government mail)`.slice(0, 200) },
    ]);
    return { documentId: doc!.id };
  });
}

/**
 * "Upload, mail and complete" by the system user "Government mail": the approval mail with the card to
 * the order's address and the move to Completed (the shared rules decide; no Completed notification
 * besides the approval mail). Answers whether it completed the order.
 */
export async function sendGovernmentCard(
  db: DbOrTx,
  orderId: number,
  documentId: number,
  provider: MailProvider,
): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, orderId);
    const moved = await moveAsSystem(tx, orderId, 'Completed', { notify: false });
    if (!moved.moved) return false;
    await queueMail(tx, {
      orderId,
      kind: 'approval',
      toEmail: order.email,
      provider,
      documentId,
      requestedBy: null,
    });
    return true;
  });
}
