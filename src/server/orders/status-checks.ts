import { sql } from 'drizzle-orm';
import { MAIL_HOLD_SECONDS, RECENT_MOVE_SECONDS } from '../../shared/constants.js';
import { formatServiceMoment } from '../../shared/dates.js';
import { statusName } from '../../shared/order-rules.js';
import { now } from '../clock.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';
import { refuseConflict } from './refusal.js';
import { type LockedOrder, latestDocument } from './repository.js';
import type { StatusChange } from './status-effects.js';

/** The checks of a status move beyond the rule table, and the reference check a move keeps in step. */

const REFERENCE_CHECK = {
  code: 'government_reference_missing',
  severity: 'warn',
  fields: [],
  params: {},
} as const;

/**
 * An order in Awaiting Govt without the government's reference carries the check
 * government_reference_missing (warn), so it shows in Needs attention until one is stored; any other
 * order does not. Kept on the stored checks of `ids` in the transaction of the change (the server's
 * checksOfOrder computes the same, so a later run of the checks agrees).
 */
export async function syncReferenceCheck(tx: DbOrTx, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await tx.execute(sql`
    with x as (
      select order_id,
             process_status = ${sqlValue('AwaitingGovt')} and government_reference is null as wanted,
             coalesce((select jsonb_agg(c) from jsonb_array_elements(checks) c
                       where c->>'code' <> ${REFERENCE_CHECK.code}), '[]'::jsonb) as others
      from orders
      where order_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
        and (process_status = ${sqlValue('AwaitingGovt')} and government_reference is null)
            <> (checks @> ${JSON.stringify([{ code: REFERENCE_CHECK.code }])}::jsonb)),
    n as (
      select order_id,
             case when wanted then others || ${JSON.stringify([REFERENCE_CHECK])}::jsonb else others end as checks
      from x)
    update orders o
    set checks = n.checks,
        check_level = case when n.checks @> '[{"severity":"block"}]'::jsonb then 2
                           when jsonb_path_exists(n.checks, '$[*] ? (@.severity == "warn" && @.code != "arrival_past")')
                             then 1 else 0 end
    from n where o.order_id = n.order_id`);
}

/** The order's submission window has not opened yet (the portal would refuse it). */
export function windowClosed(order: Pick<LockedOrder, 'submissionOpensAt'>): boolean {
  return order.submissionOpensAt !== null && order.submissionOpensAt.getTime() > now().getTime();
}

export function windowClosedMessage(opensAt: Date): string {
  return `Submission opens on ${formatServiceMoment(opensAt)}: the government's portal refuses the order until then. An Admin can submit it earlier, with a reason.`;
}

export const NO_CARD_MESSAGE =
  'This order has no approved card yet: upload the card before completing the order. An Admin can complete it without one, with a reason.';

/** Completed needs a current (not withdrawn) document on every path (decision 296). */
export async function assertCurrentDocuments(tx: DbOrTx, changed: StatusChange[]): Promise<void> {
  const missing: number[] = [];
  for (const o of changed) if (!(await latestDocument(tx, o.orderId))) missing.push(o.orderId);
  if (!missing.length) return;
  if (changed.length === 1) {
    throw refuseConflict(NO_CARD_MESSAGE, {
      orders: [{ orderId: missing[0]!, processStatus: changed[0]!.processStatus, message: NO_CARD_MESSAGE }],
    });
  }
  throw refuseConflict(
    `${missing.length} of ${changed.length} orders have no approved card, so none was completed: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`,
    {
      orders: missing.map((orderId) => ({
        orderId,
        processStatus: changed.find((o) => o.orderId === orderId)!.processStatus,
        message: NO_CARD_MESSAGE,
      })),
    },
  );
}

/**
 * Someone else moved the order in the last few seconds: the move asks first (409 with `recentMove`),
 * unless the actor confirms.
 */
export async function assertNoRecentMove(tx: DbOrTx, orderId: number, actor: StaffIdentity): Promise<void> {
  const { rows } = await tx.execute<{
    name: string | null;
    to_value: string | null;
    actor_id: number | null;
  }>(sql`
    select a.name, e.to_value, e.actor_id
    from order_events e left join staff_users a on a.id = e.actor_id
    where e.order_id = ${orderId} and e.action = 'status'
      and e.created_at > now() - make_interval(secs => ${RECENT_MOVE_SECONDS})
    order by e.created_at desc, e.id desc limit 1`);
  const last = rows[0];
  if (!last || last.actor_id === null || last.actor_id === actor.id) return;
  const by = last.name ?? 'Someone';
  const to = statusName(last.to_value ?? '');
  throw refuseConflict(`${by} just moved this to ${to} — continue?`, {
    recentMove: { by, to: last.to_value },
  });
}

/** Undo is for the actor's own move back, inside the undo window: anything else is refused. */
export async function assertUndoable(
  tx: DbOrTx,
  orderId: number,
  actor: StaffIdentity,
  to: string,
): Promise<void> {
  const { rows } = await tx.execute<{ actor_id: number | null; from_value: string | null }>(sql`
    select e.actor_id, e.from_value from order_events e
    where e.order_id = ${orderId} and e.action = 'status'
      and e.created_at > now() - make_interval(secs => ${MAIL_HOLD_SECONDS})
    order by e.created_at desc, e.id desc limit 1`);
  const last = rows[0];
  if (!last || last.actor_id !== actor.id || last.from_value !== to) {
    throw refuseConflict('It is too late to undo this move: the order changed or the undo time is over.');
  }
}
