import { inArray, type SQL, sql } from 'drizzle-orm';
import {
  FOLDER_COUNT_KEYS,
  FOLDERS,
  type Folder,
  type FolderCounts,
  MONTHS,
} from '../../shared/constants.js';
import type { FutureMonthCounts, OrderListRow } from '../../shared/contracts/orders.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { orderEvents, orders, staffUsers } from '../db/schema.js';
import { queueMail } from '../mail/outbox.js';
import { conflict, notFound } from '../http/errors.js';
import { counterWhere, type FolderScope, folderWhere } from './folders.js';

/** All fourteen counts in one pass over the small counters table (DESIGN §4 meanings). */
export async function folderCounts(db: DbOrTx, scope: FolderScope): Promise<FolderCounts> {
  const columns = sql.join(
    FOLDERS.map(
      (f) =>
        sql`coalesce(sum(n) filter (where ${counterWhere(f, scope)}), 0)::bigint::text as ${sql.identifier(FOLDER_COUNT_KEYS[f])}`,
    ),
    sql`, `,
  );
  // New orders' days fold into "due" and "future" first, so the 14 sums run over ~100 rows, not thousands.
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
    pageOf(db, where, start, end - start),
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
async function lockOrders(tx: DbOrTx, ids: number[]): Promise<LockedOrder[]> {
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

/** An order whose status is about to change, locked by the caller. */
export type StatusChange = Pick<LockedOrder, 'orderId' | 'processStatus' | 'email'>;

/**
 * The one way an order's status changes (queues, detail screen, remark flags): the new status, its
 * event, and for Refunded the refund date and the refund mail, all in the caller's transaction.
 */
export async function changeStatus(tx: DbOrTx, actor: StaffIdentity, changed: StatusChange[], to: string) {
  const ids = changed.map((o) => o.orderId);
  await tx
    .update(orders)
    .set({
      processStatus: to,
      updatedAt: sql`now()`,
      ...(to === 'Refunded' ? { refundDate: sql`now()` } : {}),
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
  if (to !== 'Refunded') return;
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
 * Soft delete (spec §4). In the future queue everyone may delete, so there every order must really be
 * a future order; already deleted orders are left as they are.
 */
export async function deleteOrders(
  db: DbOrTx,
  actor: StaffIdentity,
  ids: number[],
  folder: Folder,
  today: string,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    const locked = await lockOrders(tx, ids);
    if (folder === 'futureOrder') {
      const notFuture = locked.find((o) => !(o.processStatus === 'New' && o.processingDate > today));
      if (notFuture) throw conflict(`Order ${notFuture.orderId} is not a future order any more.`);
    }
    const changed = locked.filter((o) => o.processStatus !== 'Deleted');
    if (changed.length) await changeStatus(tx, actor, changed, 'Deleted');
    return changed.map((o) => o.orderId);
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
 * 'Refunded it' / Move to Completed Refunds: status Refunded, refund date now, and the refund
 * confirmation mail queued in the same transaction (the mail worker delivers queued rows).
 */
export async function completeRefunds(db: DbOrTx, actor: StaffIdentity, ids: number[]): Promise<number[]> {
  return db.transaction(async (tx) => {
    const locked = await lockOrders(tx, ids);
    const changed = locked.filter((o) => o.processStatus !== 'Refunded');
    if (!changed.length) return [];
    await changeStatus(tx, actor, changed, 'Refunded');
    return changed.map((o) => o.orderId);
  });
}
