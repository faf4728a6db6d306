import { inArray, type SQL, sql } from 'drizzle-orm';
import {
  FOLDER_COUNT_KEYS,
  FOLDERS,
  type Folder,
  type FolderCounts,
  MONTHS,
  ORDER_STATUSES,
  type OrderStatus,
} from '../../shared/constants.js';
import type { FutureMonthCounts, OrderListRow } from '../../shared/contracts/orders.js';
import { decide, type OrderAction, type OrderState } from '../../shared/order-rules.js';
import type { StaffIdentity } from '../context.js';
import { recordAudit } from '../audit/audit.js';
import type { DbOrTx } from '../db/client.js';
import { orderEvents, orders, staffUsers } from '../db/schema.js';
import { queueMail } from '../mail/outbox.js';
import { conflict, HttpError, notFound } from '../http/errors.js';
import { counterWhere, type FolderScope, folderWhere } from './folders.js';

/** Every folder count in one pass over the small counters table (folder meanings: docs/product.md). */
export async function folderCounts(db: DbOrTx, scope: FolderScope): Promise<FolderCounts> {
  const columns = sql.join(
    FOLDERS.map(
      (f) =>
        sql`coalesce(sum(n) filter (where ${counterWhere(f, scope)}), 0)::bigint::text as ${sql.identifier(FOLDER_COUNT_KEYS[f])}`,
    ),
    sql`, `,
  );
  // New orders' days fold into "due" and "future" first, so the sums run over ~100 rows, not thousands.
  const { rows } = await db.execute<Record<string, string>>(sql`
    with folded as (
      select process_status, processing_mode, assigned_to,
             case when due_date > ${scope.today}::date then ${scope.today}::date + 1
                  when due_date is not null then ${scope.today}::date end as due_date,
             sum(n)::bigint as n
      from order_folder_counts group by 1, 2, 3, 4)
    select ${columns} from folded`);
  const row = rows[0] ?? {};
  return Object.fromEntries(
    Object.values(FOLDER_COUNT_KEYS).map((k) => [k, Number(row[k] ?? 0)]),
  ) as FolderCounts;
}

/** Future order tiles: the count per process month. */
export async function futureMonthCounts(db: DbOrTx, today: string): Promise<FutureMonthCounts> {
  const { rows } = await db.execute<{ m: string; n: string }>(sql`
    select extract(month from due_date)::int::text as m, sum(n)::bigint::text as n
    from order_folder_counts where ${counterWhere('futureOrder', { today, staffId: 0 })}
    group by 1`);
  const counts = Object.fromEntries(MONTHS.map((m) => [m, 0])) as FutureMonthCounts;
  for (const r of rows) counts[MONTHS[Number(r.m) - 1]!] = Number(r.n);
  return counts;
}

type RawRow = Omit<OrderListRow, 'order_id'> & { order_id: string };

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * One page of a folder (optionally narrowed by a search condition), newest first. The inner query
 * reads only the folder's partial index (ids and sort keys), so skipping to a deep page touches no
 * table rows; the outer query fetches just the page.
 */
async function pageOf(
  db: DbOrTx,
  where: SQL,
  offset: number,
  limit: number,
  scan: 'newest-first' | 'oldest-first' = 'newest-first',
): Promise<OrderListRow[]> {
  // Oldest-first walks the same index backwards; the page is still answered newest first.
  const inner =
    scan === 'newest-first'
      ? sql`order by created_at desc nulls last, order_id desc nulls last`
      : sql`order by created_at asc nulls first, order_id asc nulls first`;
  const { rows } = await db.execute<RawRow>(sql`
    select o.order_id::text as order_id, o.process_status, o.first_name, o.last_name,
           o.arrival_date::text as arrival_date, o.email, o.telephone_number, o.phone_code,
           to_char(o.created_at at time zone 'UTC', ${sql.raw(ISO)}) as created_at,
           to_char(o.refund_date at time zone 'UTC', ${sql.raw(ISO)}) as refund_date,
           o.processing_date::text as processing_date,
           to_char(o.processing_date, 'Mon') as process_month,
           coalesce(s.name, '') as assign_to
    from (select order_id, created_at from orders where ${where}
          ${inner} limit ${limit} offset ${offset}) p
    join orders o on o.order_id = p.order_id
    left join staff_users s on s.id = o.assigned_to
    order by p.created_at desc nulls last, p.order_id desc nulls last`);
  return rows.map((r) => ({ ...r, order_id: Number(r.order_id) }));
}

/** Below this offset a page is read from the newest end directly; deeper pages may read from the other end. */
const REVERSE_SCAN_FROM = 5_000;

/** Exact size of one folder, from the counters table. */
async function folderTotal(db: DbOrTx, folder: Folder, scope: FolderScope): Promise<number> {
  const { rows } = await db.execute<{ n: string }>(
    sql`select coalesce(sum(n), 0)::bigint::text as n from order_folder_counts where ${counterWhere(folder, scope)}`,
  );
  return Number(rows[0]?.n ?? 0);
}

export async function listFolder(
  db: DbOrTx,
  folder: Folder,
  scope: FolderScope,
  page: number,
  limit: number,
): Promise<OrderListRow[]> {
  const where = folderWhere(folder, scope);
  const offset = (page - 1) * limit;
  if (offset < REVERSE_SCAN_FROM) return pageOf(db, where, offset, limit);
  // OFFSET costs as many index entries as it skips: a page in the older half is read from the oldest
  // end instead, so the last page costs what the first does (the total is exact, from the counters).
  const total = await folderTotal(db, folder, scope);
  if (offset >= total) return [];
  const newerThanPage = offset;
  const olderThanPage = Math.max(0, total - offset - limit);
  if (newerThanPage <= olderThanPage) return pageOf(db, where, offset, limit);
  return pageOf(db, where, olderThanPage, Math.min(limit, total - offset), 'oldest-first');
}

/** Escapes LIKE wildcards so that user text is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Must stay identical to the expression of orders_search_trgm_idx. */
const SEARCH_TEXT = sql.raw(
  `lower(first_name || ' ' || last_name || ' ' || email || ' ' || coalesce(phone_code, '') || coalesce(telephone_number, ''))`,
);

/**
 * Search condition (issue 4): exact order id; case-insensitive substring of name, e-mail or phone for
 * 3+ characters (trigram index); shorter text matches a whole field exactly.
 */
export function searchCondition(searchVal: string): SQL {
  const value = searchVal.trim().toLowerCase();
  const parts: SQL[] = [];
  if (/^\d{1,15}$/.test(value)) parts.push(sql`order_id = ${Number(value)}`);
  if (value.length >= 3) {
    parts.push(sql`${SEARCH_TEXT} like ${`%${likeLiteral(value)}%`}`);
    const digits = value.replace(/[\s()+-]/g, '');
    if (digits !== value && /^\d{3,}$/.test(digits)) {
      parts.push(sql`${SEARCH_TEXT} like ${`%${digits}%`}`);
    }
  } else {
    parts.push(
      sql`(lower(first_name) = ${value} or lower(last_name) = ${value} or lower(email) = ${value} or telephone_number = ${value})`,
    );
  }
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Matches counted exactly up to here; a search that finds more should be narrowed, not paged. */
export const SEARCH_TOTAL_CAP = 1000;

/** Rows [start, end) of the matches: the order whose id was typed comes first, then the rest newest first. */
async function searchPage(db: DbOrTx, where: SQL, searchVal: string, start: number, end: number) {
  const typed = searchVal.trim();
  const [exact] = /^\d{1,15}$/.test(typed)
    ? await pageOf(db, sql`${where} and order_id = ${Number(typed)}`, 0, 1)
    : [];
  if (!exact) return pageOf(db, where, start, end - start);
  const others = sql`${where} and order_id <> ${exact.order_id}`;
  if (start > 0) return pageOf(db, others, start - 1, end - start);
  return [exact, ...(await pageOf(db, others, 0, end - start - 1))];
}

export async function searchFolder(
  db: DbOrTx,
  folder: Folder,
  scope: FolderScope,
  searchVal: string,
  start: number,
  end: number,
): Promise<{ rows: OrderListRow[]; total: number; totalCapped: boolean }> {
  const where = sql`${folderWhere(folder, scope)} and ${searchCondition(searchVal)}`;
  const [rows, count] = await Promise.all([
    searchPage(db, where, searchVal, start, end),
    db.execute<{ n: string }>(
      sql`select count(*)::text as n from (select 1 from orders where ${where} limit ${SEARCH_TOTAL_CAP + 1}) m`,
    ),
  ]);
  const n = Number(count.rows[0]?.n ?? 0);
  // Rows beyond the cap can still be paged to; the total then covers at least what was asked for.
  const total = n > SEARCH_TOTAL_CAP ? Math.max(SEARCH_TOTAL_CAP, start + rows.length) : n;
  return { rows, total, totalCapped: n > SEARCH_TOTAL_CAP };
}

interface LockedOrder {
  orderId: number;
  processStatus: string;
  processingDate: string;
  assignedTo: number | null;
  email: string;
  holder: string | null;
}

/** Locks the orders (in id order, so two bulk actions never deadlock); 404 names the unknown ids. */
export async function lockOrders(tx: DbOrTx, ids: number[]): Promise<LockedOrder[]> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const rows = await tx
    .select({
      orderId: orders.orderId,
      processStatus: orders.processStatus,
      processingDate: orders.processingDate,
      assignedTo: orders.assignedTo,
      email: orders.email,
    })
    .from(orders)
    .where(inArray(orders.orderId, unique))
    .orderBy(orders.orderId)
    .for('update');
  const found = new Set(rows.map((r) => r.orderId));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) {
    throw notFound(`Order not found: ${missing.join(', ')}`);
  }
  const holderIds = [...new Set(rows.map((r) => r.assignedTo).filter((v): v is number => v !== null))];
  const names = new Map<number, string>();
  if (holderIds.length) {
    const staff = await tx
      .select({ id: staffUsers.id, name: staffUsers.name })
      .from(staffUsers)
      .where(inArray(staffUsers.id, holderIds));
    for (const s of staff) names.set(s.id, s.name);
  }
  return rows.map((r) => ({ ...r, holder: r.assignedTo === null ? null : (names.get(r.assignedTo) ?? '') }));
}

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
  await tx.insert(orderEvents).values(
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
): Promise<number[]> {
  return db.transaction(async (tx) => {
    const locked = await lockOrders(tx, ids);
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
    await tx.insert(orderEvents).values(
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
