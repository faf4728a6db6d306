import { sql } from 'drizzle-orm';
import { FOLDER_COUNT_KEYS, FOLDERS, type FolderCounts, MONTHS } from '../../shared/constants.js';
import type { FutureMonthCounts } from '../../shared/contracts/orders.js';
import type { DbOrTx } from '../db/client.js';
import type { DueClock } from '../due-time/policy.js';
import { counterWhere, type FolderScope } from './folders.js';

/** The counts of the order lists: folders, future months, due states, Needs attention. */

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

/**
 * Open orders at risk of or past their due time, and still-worked orders whose trip has passed, whole
 * system: range scans of the due-time and trip-end indexes (closed and waiting orders have no due time),
 * so the figures are exact at every moment without a nightly job. The same definition as dueStateSql.
 */
export async function dueCounts(
  db: DbOrTx,
  clock: DueClock,
): Promise<{ atRiskCount: number; breachedCount: number; tripPassedCount: number }> {
  const now = clock.now.toISOString();
  const edge = new Date(clock.now.getTime() + clock.marginHours * 3_600_000).toISOString();
  const { rows } = await db.execute<{ breached: string; at_risk: string; trip_passed: string }>(sql`
    select count(*) filter (where due_at <= ${now}::timestamptz)::text as breached,
           count(*) filter (where due_at > ${now}::timestamptz)::text as at_risk,
           (select count(*) from orders where trip_ends_at <= ${now}::timestamptz)::text as trip_passed
    from orders where due_at < ${edge}::timestamptz
      and (trip_ends_at is null or trip_ends_at > ${now}::timestamptz)`);
  return {
    atRiskCount: Number(rows[0]?.at_risk ?? 0),
    breachedCount: Number(rows[0]?.breached ?? 0),
    tripPassedCount: Number(rows[0]?.trip_passed ?? 0),
  };
}

/** Orders still being worked with a failing check, whole system: the sum of their counters (drizzle/0115). */
export async function needsAttentionCount(db: DbOrTx): Promise<number> {
  const { rows } = await db.execute<{ n: string }>(
    sql`select coalesce(sum(n), 0)::bigint::text as n from order_attention_counts`,
  );
  return Number(rows[0]?.n ?? 0);
}
