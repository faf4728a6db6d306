import { sql } from 'drizzle-orm';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import { now } from '../clock.js';
import type { DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';

/** The key of the submission policy in app_settings (src/server/submission/policy.ts keeps it). */
export const SUBMISSION_POLICY_KEY = 'submissionPolicy';

/**
 * The submission window over New orders (docs/product.md, "Submitting to the government"; decision 410).
 * With a window of W hours, an order's submission opens at the exact moment (start of its arrival day −
 * W hours), service time (`submission_opens_at`). Future Orders, the month tiles, the counters (and so
 * the counts on every instance) and the due time read the processing date, so the window moves that
 * date (the one the order came with is kept in ordered_processing_date):
 * - opened already, or opening at the start of a day: the opening's day (at midnight the order is in
 *   New or Priority Orders as any order whose processing date has come);
 * - opening later in a day: the day after, until the opening moment, when `openDueSubmissionWindows`
 *   (a background job, every instance) sets it to the opening's day.
 * A processing date the order came with that is later still wins. Without a window (the default) the
 * processing date it came with is back.
 *
 * Runs over `ids` (an intake, a corrected arrival), every New order (the policy changed) or the orders
 * whose opening has come (`'opening'`); answers the orders whose processing date changed. Call it in the
 * transaction of the change.
 */
export async function applySubmissionWindow(
  tx: DbOrTx,
  ids: readonly number[] | 'all' | 'opening',
  at: Date = now(),
): Promise<number[]> {
  if (Array.isArray(ids) && !ids.length) return [];
  const zone = sql.raw(`'${SERVICE_TIME_ZONE}'`);
  const only =
    ids === 'all'
      ? sql``
      : ids === 'opening'
        ? sql`and o.submission_opens_at <= ${at}
              and o.processing_date > greatest(o.ordered_processing_date,
                                               (o.submission_opens_at at time zone ${zone})::date)`
        : sql`and o.order_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`;
  const { rows } = await tx.execute<{ order_id: string; moved: boolean }>(sql`
    with p as (
      select case when jsonb_typeof(value->'windowHours') = 'number' then (value->>'windowHours')::int end as w
      from app_settings where key = ${SUBMISSION_POLICY_KEY}),
    x as (
      select o.order_id, o.processing_date as current_day,
             coalesce(o.ordered_processing_date, o.processing_date) as base,
             case when p.w is null or o.arrival_date is null then null
                  else (o.arrival_date::timestamp - make_interval(hours => p.w)) at time zone ${zone} end as opens
      from orders o left join p on true
      where o.process_status = ${sqlValue('New')} ${only}),
    y as (
      select x.*, (opens at time zone ${zone})::date as opens_day,
             (opens <= ${at} or (opens at time zone ${zone})::time = time '00:00') as day_open
      from x),
    n as (
      select order_id, current_day, opens,
             case when opens is null then null else base end as ordered,
             case when opens is null then base
                  when day_open then greatest(base, opens_day)
                  else greatest(base, opens_day + 1) end as day
      from y)
    update orders o
    set processing_date = n.day, ordered_processing_date = n.ordered, submission_opens_at = n.opens
    from n
    where o.order_id = n.order_id
      and (o.processing_date is distinct from n.day or o.ordered_processing_date is distinct from n.ordered
           or o.submission_opens_at is distinct from n.opens)
    returning o.order_id::text as order_id, (n.current_day is distinct from n.day) as moved`);
  return rows.filter((r) => r.moved).map((r) => Number(r.order_id));
}

/**
 * Opens the windows whose moment has come (an opening later in a day): their orders' processing date
 * becomes the opening's day, so they enter New or Priority Orders now and the counters tell every
 * instance. Idempotent; any instance may run it at any time.
 */
export function openDueSubmissionWindows(tx: DbOrTx, at: Date = now()): Promise<number[]> {
  return applySubmissionWindow(tx, 'opening', at);
}

/** The next opening still to come of a New order (the job sleeps until then), or null. */
export async function nextSubmissionOpening(tx: DbOrTx, at: Date = now()): Promise<Date | null> {
  const { rows } = await tx.execute<{ next: Date | string | null }>(sql`
    select min(submission_opens_at) as next from orders
    where process_status = ${sqlValue('New')} and submission_opens_at > ${at}`);
  const next = rows[0]?.next;
  return next ? new Date(next) : null;
}
