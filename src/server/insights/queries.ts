import type { InsightsData, InsightsQuery, MyDayData } from '../../shared/contracts/insights.js';
import { CLOSED_STATUSES, type OrderStatus, SERVICE_TIME_ZONE } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import type { SqlRunner } from '../db/client.js';
import { sqlListText, sqlValueText } from '../db/sql-lists.js';
import {
  type AssignedRow,
  type BacklogRow,
  type BouncedRow,
  type DailyRow,
  type HistogramRow,
  type MailRow,
  backlogFigures,
  durationFigures,
  mailWithBounces,
  onTimeFigures,
  perStaffFigures,
  ratio,
} from './figures.js';

/*
 * The insights read the rollups of drizzle/0015_insights_rollup_triggers.sql (docs/decisions/120): a year
 * is a few thousand day rows instead of a million orders, all read in one statement (INSIGHTS_SQL).
 * Percentiles are nearest-rank over whole hours: the first hour value
 * whose running count reaches ceil(n·p), which a histogram answers exactly.
 */

/**
 * One pass over insights_daily: per day (received, completed, refunded, deleted, chargebacks, completions
 * with a due time and on time — drizzle/0031) and per actor with the member's name (completed, status
 * moves, remarks). $1, $2: first and last day.
 * Rows with a day are day rows; rows without are actor rows.
 */
const DAILY_SQL = `
  select to_char(i.day, 'YYYY-MM-DD') as day, i.actor_id, coalesce(s.name, 'System') as name,
         sum(i.received)::int as received, sum(i.completed)::int as completed,
         sum(i.refunded)::int as refunded, sum(i.deleted)::int as deleted,
         sum(i.chargebacks)::int as chargebacks, sum(i.status_moves)::int as status_moves,
         sum(i.remarks)::int as remarks, sum(i.completed_due)::int as completed_due,
         sum(i.completed_on_time)::int as completed_on_time
  from insights_daily i left join staff_users s on s.id = i.actor_id
  where i.day between $1::date and $2::date
  group by grouping sets ((i.day), (i.actor_id, s.name))`;

/**
 * One pass over the duration histograms: per (kind, actor, hour) for the whole period (overall and
 * per-staff percentiles).
 */
const HISTOGRAM_SQL = `
  select kind, actor_id, hours, sum(n)::int as n
  from insights_duration_daily
  where day between $1::date and $2::date
  group by kind, actor_id, hours
  having sum(n) <> 0`;

/**
 * Routing's figures per member (docs/product.md, "Routing"): the assignments to them in the period and the
 * median minutes from each to their first own action on the order (a move, remark, mail, call, upload or
 * correction; not another assignment), from assignment_first_actions (one row per assignment, its first
 * action filled by a trigger on order_events, drizzle/0112). $1, $2: first and last service day.
 * The count reads every assignment of the period; the median only those with a first action, from their
 * own partial index (drizzle/0119, decision 455), each member's values sorted apart from the rest.
 */
const IN_PERIOD = `f.assigned_at >= ($1::date)::timestamp at time zone '${SERVICE_TIME_ZONE}'
    and f.assigned_at < ($2::date + 1)::timestamp at time zone '${SERVICE_TIME_ZONE}'`;
const ASSIGNED_SQL = `
  with assigned as (
    select f.staff_id, count(*)::int as assigned
    from assignment_first_actions f
    where ${IN_PERIOD}
    group by f.staff_id),
  acted as (
    select f.staff_id,
           percentile_cont(0.5) within group (order by extract(epoch from f.first_action_at - f.assigned_at) / 60)
             as median_first_action_minutes
    from assignment_first_actions f
    where ${IN_PERIOD} and f.first_action_at is not null
    group by f.staff_id)
  select a.staff_id, coalesce(s.name, 'System') as name, a.assigned, acted.median_first_action_minutes
  from assigned a
  left join acted on acted.staff_id = a.staff_id
  left join staff_users s on s.id = a.staff_id`;

/** Payment → Completed per day: count, median and p90, kept per day by the event trigger. */
const TIME_TO_COMPLETE_DAILY_SQL = `
  select to_char(day, 'YYYY-MM-DD') as day, completed, median_hours as median, p90_hours as p90
  from insights_ttc_daily
  where day between $1::date and $2::date and completed > 0`;

/** Mail rows per creation day and provider. */
const MAIL_SQL = `
  select to_char(day, 'YYYY-MM-DD') as day, provider, sent, failed, pending
  from insights_mail_daily
  where day between $1::date and $2::date and (sent <> 0 or failed <> 0 or pending <> 0)
  order by day, provider`;

/**
 * Bounced mails per creation day and provider: a delivery report came back for a mail counted "sent",
 * so Insights counts it as failed (the partial index mail_log_bounced_idx holds only these rows).
 */
const MAIL_BOUNCED_SQL = `
  select to_char((created_at at time zone 'America/New_York')::date, 'YYYY-MM-DD') as day, provider,
         count(*)::int as bounced
  from mail_log
  where bounced_at is not null and status = 'sent'
    and created_at >= ($1::date)::timestamp at time zone 'America/New_York'
    and created_at < ($2::date + 1)::timestamp at time zone 'America/New_York'
  group by 1, 2`;

const is = (status: OrderStatus) => `process_status = ${sqlValueText(status)}`;

/** The folder of an open order (each order once); `due` is the processing-date column, $1 today. */
const folderCase = (due: string) => `case
    when ${is('New')} and ${due} > $1::date then 'futureOrder'
    when ${is('New')} and assigned_to is not null then 'pendingOrder'
    when ${is('New')} and processing_mode = ${sqlValueText('Priority')} then 'priorityOrder'
    when ${is('New')} then 'newOrder'
    when ${is('Awaiting')} then 'awaitingOrder'
    when ${is('AwaitingGovt')} then 'awaitingGovtOrder'
    when ${is('Customer Called')} then 'customerCalledOrder'
    when ${is('Contact Customer')} then 'contactCustomerOrder'
    when ${is('Refunds')} then 'refundOrder'
    when ${is('ChargeBack')} then 'chargeBack'
  end`;

/** Statuses that end work on an order (as in the folders): everything else is backlog. */
const CLOSED = `(${sqlListText(CLOSED_STATUSES)})`;

/**
 * Open orders per folder from the trigger-kept folder counters, and the ones younger than seven days
 * by age bucket from the orders themselves (a week of orders on the created_at index); older = the rest.
 * $1: today (service day); $2: now.
 */
const BACKLOG_SQL = `
  with totals as (
    select ${folderCase('due_date')} as folder, sum(n)::int as total
    from order_folder_counts where process_status not in ${CLOSED} group by 1),
  recent as (
    select ${folderCase('processing_date')} as folder,
           (count(*) filter (where created_at > $2::timestamptz - interval '24 hours'))::int as lt24h,
           (count(*) filter (where created_at <= $2::timestamptz - interval '24 hours'
                              and created_at > $2::timestamptz - interval '3 days'))::int as d1to3,
           (count(*) filter (where created_at <= $2::timestamptz - interval '3 days'))::int as d3to7
    from orders where created_at > $2::timestamptz - interval '7 days' and process_status not in ${CLOSED}
    group by 1)
  select totals.folder, totals.total, coalesce(recent.lt24h, 0) as lt24h, coalesce(recent.d1to3, 0) as d1to3,
         coalesce(recent.d3to7, 0) as d3to7
  from totals left join recent on recent.folder = totals.folder
  where totals.folder is not null`;

const DAY_MS = 86_400_000;

/**
 * Every day of the period, in order. Calendar days counted on UTC midnights (no daylight-saving step
 * there), with plain date arithmetic: a year's list is built on every Insights request.
 */
export function periodDays(from: string, to: string): string[] {
  const days: string[] = [];
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= last; t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

export interface InsightsOptions {
  now?: Date;
}

/** The figures of the Insights screen for a period (service-time-zone days), from the rollups. */
export async function insights(
  sql: SqlRunner,
  period: InsightsQuery,
  { now = new Date() }: InsightsOptions = {},
): Promise<InsightsData> {
  const { daily, histogram, ttcDays, mail, bouncedMail, backlog, assignedRows } = await readInsightsRows(
    sql,
    period,
    now,
  );
  const days = periodDays(period.from, period.to);
  const dayRows = daily.filter((r) => r.day !== null);
  const byDay = new Map(dayRows.map((r) => [r.day as string, r]));
  const ttcByDay = new Map(ttcDays.map((r) => [r.day, r]));
  const { overall, handlingBins } = durationFigures(histogram);
  const totalChargebacks = dayRows.reduce((sum, r) => sum + r.chargebacks, 0);
  const totalCompleted = dayRows.reduce((sum, r) => sum + r.completed, 0);
  return {
    from: period.from,
    to: period.to,
    timeZone: SERVICE_TIME_ZONE,
    asOf: now.toISOString(),
    backlog: backlogFigures(backlog),
    throughput: days.map((day) => {
      const r = byDay.get(day);
      return {
        day,
        received: r?.received ?? 0,
        completed: r?.completed ?? 0,
        refunded: r?.refunded ?? 0,
        deleted: r?.deleted ?? 0,
      };
    }),
    timeToComplete: {
      overall: {
        completed: overall?.completed ?? 0,
        medianHours: overall?.median ?? null,
        p90Hours: overall?.p90 ?? null,
      },
      days: days.map((day) => {
        const r = ttcByDay.get(day);
        return {
          day,
          completed: r?.completed ?? 0,
          medianHours: r?.median ?? null,
          p90Hours: r?.p90 ?? null,
        };
      }),
    },
    perStaff: perStaffFigures(daily, handlingBins, assignedRows),
    onTime: {
      overall: onTimeFigures(dayRows),
      days: days.map((day) => {
        const r = byDay.get(day);
        return { day, ...onTimeFigures(r ? [r] : []) };
      }),
    },
    chargebacks: {
      overall: {
        chargebacks: totalChargebacks,
        completed: totalCompleted,
        share: ratio(totalChargebacks, totalCompleted),
      },
      days: days.map((day) => {
        const r = byDay.get(day);
        const chargebacks = r?.chargebacks ?? 0;
        const completed = r?.completed ?? 0;
        return { day, chargebacks, completed, share: ratio(chargebacks, completed) };
      }),
    },
    mail: mailWithBounces(mail, bouncedMail),
  };
}

/** A statement's rows as one JSON array (empty: []), for INSIGHTS_SQL. */
const rowsOf = (statement: string) => `(select coalesce(json_agg(r), '[]'::json) from (${statement}) r)`;

/**
 * Every row behind the insights in one statement: each part's rows as a JSON array in its own column
 * (one round trip, one snapshot). $1, $2: the first and last day; $3: today (service day); $4: now.
 */
const INSIGHTS_SQL = `
  select ${rowsOf(DAILY_SQL)} as daily,
         ${rowsOf(HISTOGRAM_SQL)} as histogram,
         ${rowsOf(TIME_TO_COMPLETE_DAILY_SQL)} as ttc_days,
         ${rowsOf(MAIL_SQL)} as mail,
         ${rowsOf(MAIL_BOUNCED_SQL)} as bounced_mail,
         ${rowsOf(BACKLOG_SQL.replace(/\$([12])\b/g, (_, n) => `$${Number(n) + 2}`))} as backlog,
         ${rowsOf(ASSIGNED_SQL)} as assigned_rows`;

interface InsightsRows {
  daily: DailyRow[];
  histogram: HistogramRow[];
  ttc_days: { day: string; completed: number; median: number | null; p90: number | null }[];
  mail: MailRow[];
  bounced_mail: BouncedRow[];
  backlog: BacklogRow[];
  assigned_rows: AssignedRow[];
}

/** The rows behind the insights: one statement (INSIGHTS_SQL). */
async function readInsightsRows(sql: SqlRunner, period: InsightsQuery, now: Date) {
  const { rows } = await sql.query<InsightsRows>(INSIGHTS_SQL, [
    period.from,
    period.to,
    serviceToday(now),
    now.toISOString(),
  ]);
  const r = rows[0]!;
  return {
    daily: r.daily,
    histogram: r.histogram,
    ttcDays: r.ttc_days,
    mail: r.mail,
    bouncedMail: r.bounced_mail,
    backlog: r.backlog,
    assignedRows: r.assigned_rows,
  };
}

/** The caller's completions today and their open assigned orders (from the folder counters). */
export const MY_DAY_SQL = `
  select (select coalesce(sum(completed), 0)::int from insights_daily where day = $1::date and actor_id = $2) as completed,
         (select coalesce(sum(n), 0)::int from order_folder_counts
           where assigned_to = $2 and process_status not in ${CLOSED}) as open`;

export async function myDay(sql: SqlRunner, staffId: number, now = new Date()): Promise<MyDayData> {
  const day = serviceToday(now);
  const { rows } = await sql.query<{ completed: number; open: number }>(MY_DAY_SQL, [day, staffId]);
  return { day, completedToday: rows[0]?.completed ?? 0, openAssigned: rows[0]?.open ?? 0 };
}
