import dayjs from 'dayjs';
import type { CountryReportRow, ProcessedByRow, ReportRange } from '../../shared/contracts/reports.js';
import { serviceDayStart, serviceToday } from '../../shared/dates.js';
import type { SqlRunner } from '../db/client.js';
import { sqlValueText } from '../db/sql-lists.js';

/*
 * Both reports read day rollups kept by triggers (drizzle/0005_report_rollup_triggers.sql,
 * docs/decisions/061): a year is ~12 month rows and the partial months' days per nationality instead of ~800,000 orders. The SQL is exported as text
 * so the benchmark can run exactly the same statements directly.
 */

/**
 * Orders created on the range's days (service time zone), per nationality, Deleted excluded. A mode other
 * than Priority counts as Standard (as in the folders), so standard + priority = count. future = still a
 * future order today: status New with a processing date after today (docs/decisions/060).
 * Whole months come from the month rows, the partial months at both ends from the day rows.
 * $1, $2: fromDate, toDate (both included); $3, $4: the whole months [start, end) inside them
 * (see wholeMonths). Each row also carries the day the future counts are for: one round trip.
 */
export const COUNTRY_REPORT_SQL = `
  select nationality,
         sum(orders)::int as count,
         sum(orders - priority_orders)::int as standard_count,
         sum(priority_orders)::int as priority_count,
         sum(future_orders)::int as future_count,
         (select to_char(as_of, 'YYYY-MM-DD') from report_future_state where id = 1) as as_of
  from (
    select nationality, orders, priority_orders, future_orders
    from report_country_monthly
    where month >= $3::date and month < $4::date
    union all
    select nationality, orders, priority_orders, future_orders
    from report_country_daily
    where day between $1::date and $2::date and (day < $3::date or day >= $4::date)
  ) x
  group by nationality
  having sum(orders) > 0
  order by count desc, nationality`;

/** The whole calendar months inside a range, as [first day of the first, first day after the last). */
export function wholeMonths(range: ReportRange): [string, string] {
  const from = dayjs(range.fromDate);
  const start = from.date() === 1 ? from : from.add(1, 'month').startOf('month');
  const dayAfter = dayjs(range.toDate).add(1, 'day');
  const end = dayAfter.date() === 1 ? dayAfter : dayAfter.startOf('month');
  return [start.format('YYYY-MM-DD'), end.format('YYYY-MM-DD')];
}

/**
 * The same report computed from the orders themselves: the reference the rollup is tested against, and
 * the fallback when another instance has already moved the future rollup past this instance's today.
 * $1, $2: the instants the range covers [from, to); $3: today.
 */
export const COUNTRY_REPORT_DIRECT_SQL = `
  select coalesce(nationality, 'Unknown') as nationality,
         count(*)::int as count,
         (count(*) filter (where processing_mode <> ${sqlValueText('Priority')}))::int as standard_count,
         (count(*) filter (where processing_mode = ${sqlValueText('Priority')}))::int as priority_count,
         (count(*) filter (where process_status = ${sqlValueText('New')} and processing_date > $3::date))::int as future_count
  from orders
  where created_at >= $1::timestamptz and created_at < $2::timestamptz and process_status <> ${sqlValueText('Deleted')}
  group by 1
  order by count desc, nationality`;

/** The instants a report range covers: from the start of fromDate to the start of the day after toDate. */
export function rangeBounds(range: ReportRange): { from: string; to: string } {
  const dayAfter = dayjs(range.toDate).add(1, 'day').format('YYYY-MM-DD');
  return {
    from: serviceDayStart(range.fromDate).toISOString(),
    to: serviceDayStart(dayAfter).toISOString(),
  };
}

async function futureAsOf(sql: SqlRunner): Promise<string | undefined> {
  const { rows } = await sql.query<{ as_of: string }>(
    `select to_char(as_of, 'YYYY-MM-DD') as as_of from report_future_state where id = 1`,
  );
  return rows[0]?.as_of;
}

export async function countryReport(
  sql: SqlRunner,
  range: ReportRange,
  now: Date = new Date(),
): Promise<CountryReportRow[]> {
  const today = serviceToday(now);
  const params = [range.fromDate, range.toDate, ...wholeMonths(range)];
  let { rows } = await sql.query<CountryReportRow & { as_of: string }>(COUNTRY_REPORT_SQL, params);
  const asOf = rows[0]?.as_of ?? (await futureAsOf(sql));
  if (!asOf || asOf < today) {
    // The service day has turned since the future counts were made: once per day, bring them to today.
    await sql.query('select report_future_refresh($1::date)', [today]);
    rows = (await sql.query<CountryReportRow & { as_of: string }>(COUNTRY_REPORT_SQL, params)).rows;
  } else if (asOf > today) {
    // Another instance is already past midnight: answer for this clock's today from the orders.
    const { from, to } = rangeBounds(range);
    return (await sql.query<CountryReportRow>(COUNTRY_REPORT_DIRECT_SQL, [from, to, today])).rows;
  }
  return rows.map(({ as_of: _asOf, ...row }) => row);
}

/**
 * Per staff member, the moves to Completed they made on the range's days, from the order event log
 * (docs/decisions/060). The name is the member's current name, deleted members included; a move without
 * an actor (a system move, actor 0 in the rollup) is reported as 'System'.
 */
export const PROCESSED_BY_SQL = `
  select coalesce(s.name, 'System') as processed_by, c.count
  from (
    select actor_id, sum(completions)::int as count
    from report_processed_daily
    where day between $1::date and $2::date
    group by actor_id
    having sum(completions) > 0
  ) c
  left join staff_users s on s.id = c.actor_id
  order by c.count desc, processed_by`;

export async function processedByReport(sql: SqlRunner, range: ReportRange): Promise<ProcessedByRow[]> {
  const { rows } = await sql.query<ProcessedByRow>(PROCESSED_BY_SQL, [range.fromDate, range.toDate]);
  return rows;
}
