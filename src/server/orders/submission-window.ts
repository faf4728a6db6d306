import { sql } from 'drizzle-orm';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';

/** The key of the submission policy in app_settings (src/server/submission/policy.ts keeps it). */
export const SUBMISSION_POLICY_KEY = 'submissionPolicy';

/**
 * The submission window over New orders (docs/product.md, "Submitting to the government"). With a
 * window of W hours, an order's submission opens at the start of the service day on which
 * (start of its arrival day − W hours) falls; its processing date becomes that day when it is later
 * than the one it came with (kept in ordered_processing_date). Future Orders, the month tiles, the
 * counters (and so the counts on every instance) and the due time read the processing date, so they
 * all follow; at the start of that day the order is in New or Priority Orders as any order whose
 * processing date has come. Without a window (the default) the processing date it came with is back.
 *
 * Runs over `ids` (an intake, a corrected arrival) or every New order (the policy changed); answers
 * the orders whose processing date changed. Call it in the transaction of the change.
 */
export async function applySubmissionWindow(tx: DbOrTx, ids: readonly number[] | 'all'): Promise<number[]> {
  if (ids !== 'all' && !ids.length) return [];
  const only =
    ids === 'all'
      ? sql``
      : sql`and o.order_id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`;
  const zone = sql.raw(`'${SERVICE_TIME_ZONE}'`);
  const { rows } = await tx.execute<{ order_id: string; moved: boolean }>(sql`
    with p as (
      select case when jsonb_typeof(value->'windowHours') = 'number' then (value->>'windowHours')::int end as w
      from app_settings where key = ${SUBMISSION_POLICY_KEY}),
    x as (
      select o.order_id, o.processing_date as current_day,
             coalesce(o.ordered_processing_date, o.processing_date) as base,
             case when p.w is null or o.arrival_date is null then null
                  else ((o.arrival_date::timestamp - make_interval(hours => p.w))::date)::timestamp
                       at time zone ${zone} end as opens
      from orders o left join p on true
      where o.process_status = ${sqlValue('New')} ${only}),
    n as (
      select order_id, current_day, opens,
             case when opens is null then null else base end as ordered,
             case when opens is null then base
                  else greatest(base, (opens at time zone ${zone})::date) end as day
      from x)
    update orders o
    set processing_date = n.day, ordered_processing_date = n.ordered, submission_opens_at = n.opens
    from n
    where o.order_id = n.order_id
      and (o.processing_date is distinct from n.day or o.ordered_processing_date is distinct from n.ordered
           or o.submission_opens_at is distinct from n.opens)
    returning o.order_id::text as order_id, (n.current_day is distinct from n.day) as moved`);
  return rows.filter((r) => r.moved).map((r) => Number(r.order_id));
}
