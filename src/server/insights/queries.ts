import dayjs from 'dayjs';
import {
  BACKLOG_FOLDERS,
  DEFAULT_SLA_HOURS,
  type InsightsData,
  type InsightsQuery,
  type MyDayData,
} from '../../shared/contracts/insights.js';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import type { SqlRunner } from '../db/client.js';

/*
 * The insights read the rollups of drizzle/0015_insights_rollup_triggers.sql (docs/decisions/120): a year
 * is a few thousand day rows instead of a million orders. The SQL is exported as text so the benchmark
 * replays exactly these statements. Percentiles are nearest-rank over whole hours: the first hour value
 * whose running count reaches ceil(n·p), which a histogram answers exactly.
 */

/** Per day: received, completed, refunded, deleted, chargebacks. $1, $2: first and last day. */
export const DAILY_SQL = `
  select to_char(day, 'YYYY-MM-DD') as day, sum(received)::int as received, sum(completed)::int as completed,
         sum(refunded)::int as refunded, sum(deleted)::int as deleted, sum(chargebacks)::int as chargebacks
  from insights_daily where day between $1::date and $2::date
  group by day order by day`;

/**
 * Payment → Completed per day: count, median and p90 from the per-day rows the trigger keeps
 * (insights_ttc_daily), and how many within the target from the histogram. $3: target hours.
 */
export const TIME_TO_COMPLETE_DAILY_SQL = `
  select to_char(t.day, 'YYYY-MM-DD') as day, t.completed, t.median_hours as median, t.p90_hours as p90,
         coalesce(w.within, 0)::int as within
  from insights_ttc_daily t
  left join (
    select day, sum(n) as within from insights_duration_daily
    where kind = 1 and day between $1::date and $2::date and hours < $3::int group by day) w on w.day = t.day
  where t.day between $1::date and $2::date and t.completed > 0
  order by t.day`;

/** The same over the whole period. */
export const TIME_TO_COMPLETE_OVERALL_SQL = `
  with h as (
    select hours, sum(n) as n from insights_duration_daily
    where kind = 1 and day between $1::date and $2::date group by hours having sum(n) <> 0),
  c as (select hours, n, sum(n) over (order by hours) as cum, (sum(n) over ())::bigint as total from h)
  select total::int as completed,
         min(hours) filter (where cum >= (total + 1) / 2) as median,
         min(hours) filter (where cum >= (9 * total + 9) / 10) as p90,
         coalesce(sum(n) filter (where hours < $3::int), 0)::int as within
  from c group by total`;

/** Per staff member (actor 0 = System): counts, and the median of assignment → Completed. */
export const PER_STAFF_SQL = `
  with counts as (
    select actor_id, sum(completed)::int as completed, sum(status_moves)::int as status_moves,
           sum(remarks)::int as remarks
    from insights_daily where day between $1::date and $2::date
    group by actor_id having sum(completed) + sum(status_moves) + sum(remarks) > 0),
  h as (
    select actor_id, hours, sum(n) as n from insights_duration_daily
    where kind = 2 and day between $1::date and $2::date group by actor_id, hours having sum(n) <> 0),
  c as (
    select actor_id, hours, n, sum(n) over (partition by actor_id order by hours) as cum,
           (sum(n) over (partition by actor_id))::bigint as total from h),
  handling as (
    select actor_id, total::int as handled, min(hours) filter (where cum >= (total + 1) / 2) as median
    from c group by actor_id, total)
  select coalesce(counts.actor_id, handling.actor_id) as staff_id,
         coalesce(s.name, 'System') as name,
         coalesce(counts.completed, 0) as completed, coalesce(counts.status_moves, 0) as status_moves,
         coalesce(counts.remarks, 0) as remarks, coalesce(handling.handled, 0) as handled,
         handling.median
  from counts full join handling on handling.actor_id = counts.actor_id
  left join staff_users s on s.id = coalesce(counts.actor_id, handling.actor_id)
  order by completed desc, name, staff_id`;

/** Mail rows per creation day and provider. */
export const MAIL_SQL = `
  select to_char(day, 'YYYY-MM-DD') as day, provider, sent, failed, pending
  from insights_mail_daily
  where day between $1::date and $2::date and (sent <> 0 or failed <> 0 or pending <> 0)
  order by day, provider`;

/** The folder of an open order (each order once); `due` is the processing-date column, $1 today. */
const folderCase = (due: string) => `case
    when process_status = 'New' and ${due} > $1::date then 'futureOrder'
    when process_status = 'New' and assigned_to is not null then 'pendingOrder'
    when process_status = 'New' and processing_mode = 'Priority' then 'priorityOrder'
    when process_status = 'New' then 'newOrder'
    when process_status = 'Awaiting' then 'awaitingOrder'
    when process_status = 'AwaitingGovt' then 'awaitingGovtOrder'
    when process_status = 'Customer Called' then 'customerCalledOrder'
    when process_status = 'Contact Customer' then 'contactCustomerOrder'
    when process_status = 'Refunds' then 'refundOrder'
    when process_status = 'ChargeBack' then 'chargeBack'
  end`;

/** Statuses that end work on an order (as in the folders): everything else is backlog. */
const CLOSED = `('Completed', 'Deleted', 'Refunded')`;

/**
 * Open orders per folder from the trigger-kept folder counters, and the ones younger than seven days
 * by age bucket from the orders themselves (a week of orders on the created_at index); older = the rest.
 * $1: today (service day); $2: now.
 */
export const BACKLOG_SQL = `
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

/** Every day of the period, in order. */
export function periodDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = dayjs(from); !d.isAfter(dayjs(to)); d = d.add(1, 'day')) days.push(d.format('YYYY-MM-DD'));
  return days;
}

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

export interface InsightsOptions {
  now?: Date;
  slaHours?: number;
}

export async function insights(
  sql: SqlRunner,
  period: InsightsQuery,
  { now = new Date(), slaHours = DEFAULT_SLA_HOURS }: InsightsOptions = {},
): Promise<InsightsData> {
  const range = [period.from, period.to];
  const today = serviceToday(now);
  const [daily, ttcDays, ttcAll, staff, mail, backlog] = await Promise.all([
    sql.query<{
      day: string;
      received: number;
      completed: number;
      refunded: number;
      deleted: number;
      chargebacks: number;
    }>(DAILY_SQL, range),
    sql.query<{ day: string; completed: number; median: number | null; p90: number | null; within: number }>(
      TIME_TO_COMPLETE_DAILY_SQL,
      [...range, slaHours],
    ),
    sql.query<{ completed: number; median: number | null; p90: number | null; within: number }>(
      TIME_TO_COMPLETE_OVERALL_SQL,
      [...range, slaHours],
    ),
    sql.query<{
      staff_id: number;
      name: string;
      completed: number;
      status_moves: number;
      remarks: number;
      handled: number;
      median: number | null;
    }>(PER_STAFF_SQL, range),
    sql.query<{ day: string; provider: string; sent: number; failed: number; pending: number }>(
      MAIL_SQL,
      range,
    ),
    sql.query<{ folder: string; total: number; lt24h: number; d1to3: number; d3to7: number }>(BACKLOG_SQL, [
      today,
      now.toISOString(),
    ]),
  ]);

  const days = periodDays(period.from, period.to);
  const byDay = new Map(daily.rows.map((r) => [r.day, r]));
  const ttcByDay = new Map(ttcDays.rows.map((r) => [r.day, r]));
  const overall = ttcAll.rows[0];
  const totalChargebacks = daily.rows.reduce((s, r) => s + r.chargebacks, 0);
  const totalCompleted = daily.rows.reduce((s, r) => s + r.completed, 0);

  const backlogByFolder = new Map(backlog.rows.map((r) => [r.folder, r]));
  const folders = BACKLOG_FOLDERS.map(({ key, label }) => {
    const r = backlogByFolder.get(key);
    const total = r?.total ?? 0;
    const lt24h = r?.lt24h ?? 0;
    const d1to3 = r?.d1to3 ?? 0;
    const d3to7 = r?.d3to7 ?? 0;
    return { folder: key, label, lt24h, d1to3, d3to7, gt7d: total - lt24h - d1to3 - d3to7, total };
  });
  const sum = (k: 'lt24h' | 'd1to3' | 'd3to7' | 'gt7d' | 'total') => folders.reduce((s, f) => s + f[k], 0);

  return {
    from: period.from,
    to: period.to,
    timeZone: SERVICE_TIME_ZONE,
    asOf: now.toISOString(),
    slaHours,
    backlog: {
      total: {
        lt24h: sum('lt24h'),
        d1to3: sum('d1to3'),
        d3to7: sum('d3to7'),
        gt7d: sum('gt7d'),
        total: sum('total'),
      },
      folders,
    },
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
    perStaff: staff.rows.map((r) => ({
      staffId: r.staff_id,
      name: r.name,
      completed: r.completed,
      statusMoves: r.status_moves,
      remarks: r.remarks,
      handled: r.handled,
      medianHandlingHours: r.median,
    })),
    sla: {
      overall: {
        completed: overall?.completed ?? 0,
        withinTarget: overall?.within ?? 0,
        share: ratio(overall?.within ?? 0, overall?.completed ?? 0),
      },
      days: days.map((day) => {
        const r = ttcByDay.get(day);
        const completed = r?.completed ?? 0;
        const withinTarget = r?.within ?? 0;
        return { day, completed, withinTarget, share: ratio(withinTarget, completed) };
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
    mail: mail.rows,
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
