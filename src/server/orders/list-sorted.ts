import { type SQL, sql } from 'drizzle-orm';
import type { ListSortKey, OrderListRow, SortDirection } from '../../shared/contracts/orders.js';
import type { DbOrTx } from '../db/client.js';
import type { DueClock } from '../due-time/policy.js';
import { type ChainGroup, groupChain } from './group-chain.js';
import { type RawRow, rowColumns } from './list-rows.js';

/**
 * Sort expressions over the unaliased orders table. Text keys compare byte-wise (collation "C") so
 * the order is the same on every server; names compare without case.
 */
const SORT_EXPRESSIONS: Record<ListSortKey, SQL[]> = {
  order_id: [],
  created_at: [sql`created_at`],
  arrival_date: [sql`arrival_date`],
  due_at: [sql`due_at`],
  name: [sql`lower(last_name) collate "C"`, sql`lower(first_name) collate "C"`],
  status: [sql`process_status collate "C"`],
  assign_to: [sql`(select su.name from staff_users su where su.id = orders.assigned_to) collate "C"`],
};

/**
 * One page in the asked order, ties broken by order id in the same direction. Nulls follow
 * PostgreSQL's default (last going up, first going down), so one plain index serves both directions.
 */
export async function sortedPage(
  db: DbOrTx,
  where: SQL,
  sort: ListSortKey,
  dir: SortDirection,
  offset: number,
  limit: number,
  clock: DueClock,
  work = false,
): Promise<OrderListRow[]> {
  const direction = sql.raw(dir);
  const asc = sql.raw('asc');
  // A working queue in its default order starts with the work (decision 391, as claim-next does):
  // unread customer answers first, orders whose trip has passed last, then the folder's own sort.
  const now = clock.now.toISOString();
  const workKeys = work ? [sql`(customer_replied_at is null)`, tripPassedKey(now)] : [];
  const keys = [...workKeys, ...SORT_EXPRESSIONS[sort]];
  const dirOf = (i: number) => (i < workKeys.length ? asc : direction);
  const keyColumns = keys.map((k, i) => sql`, ${k} as ${sql.identifier(`k${i}`)}`);
  const innerOrder = sql.join(
    [...keys.map((k, i) => sql`${k} ${dirOf(i)}`), sql`order_id ${direction}`],
    sql`, `,
  );
  const outerOrder = sql.join(
    [...keys.map((_, i) => sql`p.${sql.identifier(`k${i}`)} ${dirOf(i)}`), sql`p.order_id ${direction}`],
    sql`, `,
  );
  const page = work
    ? workGroupsPage(where, keyColumns, sortOrder(sort, direction), outerOrder, now, offset, limit)
    : sql`select order_id ${sql.join(keyColumns, sql``)} from orders where ${where}
          order by ${innerOrder} limit ${limit} offset ${offset}`;
  const { rows } = await db.execute<RawRow>(sql`
    select ${rowColumns(clock)}
    from (${page}) p
    join orders o on o.order_id = p.order_id
    left join staff_users s on s.id = o.assigned_to
    order by ${outerOrder}`);
  return rows.map((r) => ({ ...r, order_id: Number(r.order_id) }));
}

/** The working order's second key: true when the order's trip has passed (undated trips never pass). */
function tripPassedKey(now: string): SQL {
  return sql`(trip_ends_at is not null and trip_ends_at <= ${now}::timestamptz)`;
}

/** A folder's own sort (its keys, then the order id), in one direction. */
function sortOrder(sort: ListSortKey, direction: SQL): SQL {
  return sql.join(
    [...SORT_EXPRESSIONS[sort].map((k) => sql`${k} ${direction}`), sql`order_id ${direction}`],
    sql`, `,
  );
}

/**
 * A page of a working queue (decision 452): its order's groups one after another — unread answers,
 * then trip ahead, then trip passed — each read in the folder's own sort, so the two large groups walk
 * the folder's due index and stop at the rows the page needs, instead of sorting every due order of the
 * folder. Each group asks only for what the groups before it left over (a LIMIT of 0 reads nothing);
 * the union is then put in the whole order and cut to the page.
 */
function workGroupsPage(
  where: SQL,
  keyColumns: SQL[],
  groupOrder: SQL,
  outerOrder: SQL,
  now: string,
  offset: number,
  limit: number,
): SQL {
  // The answered group holds both trip states: its own order starts with the working order's second key.
  const groups: (ChainGroup & { order: SQL })[] = [
    {
      name: 'answered',
      where: sql`customer_replied_at is not null`,
      order: sql`${tripPassedKey(now)} asc, ${groupOrder}`,
    },
    {
      name: 'ahead',
      where: sql`customer_replied_at is null and (trip_ends_at is null or trip_ends_at > ${now}::timestamptz)`,
      order: groupOrder,
    },
    {
      name: 'passed',
      where: sql`customer_replied_at is null and trip_ends_at <= ${now}::timestamptz`,
      order: groupOrder,
    },
  ];
  const { ctes, all } = groupChain(
    groups,
    sql`${offset + limit}::int`,
    (g, rest) => sql`select order_id ${sql.join(keyColumns, sql``)} from orders where ${where} and ${g.where}
      order by ${g.order} limit ${rest}`,
  );
  return sql`with ${ctes}
    select * from (${all}) p order by ${outerOrder} limit ${limit} offset ${offset}`;
}
