import dayjs from 'dayjs';
import type { CountryReportRow, ProcessedByRow, ReportRange } from '../../shared/contracts/reports.js';
import { serviceDayStart, serviceToday } from '../../shared/dates.js';
import type { SqlRunner } from '../db/client.js';

/** The instants a report range covers: from the start of fromDate to the start of the day after toDate. */
export function rangeBounds(range: ReportRange): { from: string; to: string } {
  const dayAfter = dayjs(range.toDate).add(1, 'day').format('YYYY-MM-DD');
  return {
    from: serviceDayStart(range.fromDate).toISOString(),
    to: serviceDayStart(dayAfter).toISOString(),
  };
}

/**
 * Orders created in the range, per nationality, Deleted excluded. A mode other than Priority counts as
 * Standard (as in the folders), so standard + priority = count. future = still in the Future Orders
 * folder today: status New with a processing date after today (docs/decisions/060).
 * Exported as text so the benchmark can run the same SQL directly.
 */
export const COUNTRY_REPORT_SQL = `
  select coalesce(nationality, 'Unknown') as nationality,
         count(*)::int as count,
         (count(*) filter (where processing_mode <> 'Priority'))::int as standard_count,
         (count(*) filter (where processing_mode = 'Priority'))::int as priority_count,
         (count(*) filter (where process_status = 'New' and processing_date > $3::date))::int as future_count
  from orders
  where created_at >= $1::timestamptz and created_at < $2::timestamptz and process_status <> 'Deleted'
  group by 1
  order by count desc, nationality`;

export async function countryReport(
  sql: SqlRunner,
  range: ReportRange,
  now: Date = new Date(),
): Promise<CountryReportRow[]> {
  const { from, to } = rangeBounds(range);
  const { rows } = await sql.query<CountryReportRow>(COUNTRY_REPORT_SQL, [from, to, serviceToday(now)]);
  return rows;
}

/**
 * Per staff member, the orders they moved to Completed in the range, from the order event log (an order
 * completed twice by the same person counts once). The name is the member's current name, deleted
 * members included; an event without an actor (a system move) is reported as 'System'.
 */
export const PROCESSED_BY_SQL = `
  select coalesce(s.name, 'System') as processed_by, c.count
  from (
    select actor_id, count(distinct order_id)::int as count
    from order_events
    where action = 'status' and to_value = 'Completed'
      and created_at >= $1::timestamptz and created_at < $2::timestamptz
    group by actor_id
  ) c
  left join staff_users s on s.id = c.actor_id
  order by c.count desc, processed_by`;

export async function processedByReport(sql: SqlRunner, range: ReportRange): Promise<ProcessedByRow[]> {
  const { from, to } = rangeBounds(range);
  const { rows } = await sql.query<ProcessedByRow>(PROCESSED_BY_SQL, [from, to]);
  return rows;
}
