import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import type { refusedOrders } from '../../shared/contracts/orders.js';
import {
  decide,
  holderDecision,
  type OrderAction,
  type OrderState,
  statusName,
} from '../../shared/order-rules.js';
import { recordAudit } from '../db/audit-log.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { orders, staffUsers } from '../db/schema.js';
import { OrderRefusal, refuseConflict } from './refusal.js';
import { recordEvents } from './events.js';
import type { LockedOrder } from './repository.js';
import { versionBump } from './version.js';

/**
 * The checks every order command makes inside its transaction, on orders it has locked: the shared
 * rule table (src/shared/order-rules.ts), the version the client last saw, and the holder rule.
 */

/** What the shared order rules need to know about a locked order. */
export function ruleState(
  o: Pick<LockedOrder, 'processStatus' | 'assignedTo' | 'processingDate'>,
): OrderState {
  return {
    processStatus: o.processStatus,
    assigned: o.assignedTo !== null,
    processingDate: o.processingDate,
  };
}

/** One order the rules refused, as the error answer lists it (`data.orders` of the contract). */
type RefusedOrder = z.infer<typeof refusedOrders>['orders'][number];

/**
 * Checks every locked order against the shared rules. One refusal refuses the whole request (nothing
 * changes); the refusal is `forbidden` when a role may never do it, otherwise a `conflict`, and lists each refused order.
 */
export function enforceRules(
  locked: Pick<LockedOrder, 'orderId' | 'processStatus' | 'assignedTo' | 'processingDate'>[],
  action: OrderAction,
  actor: StaffIdentity,
  today: string,
): void {
  const refused: RefusedOrder[] = [];
  let kind: 'forbidden' | 'conflict' = 'conflict';
  for (const o of locked) {
    const decision = decide(ruleState(o), action, actor.type, today);
    if (decision.allowed) continue;
    if (decision.code === 403) kind = 'forbidden';
    refused.push({ orderId: o.orderId, processStatus: o.processStatus, message: decision.message });
  }
  if (!refused.length) return;
  const [first] = refused;
  const message =
    refused.length === 1 && locked.length === 1
      ? first!.message
      : `${refused.length} of ${locked.length} orders cannot be changed, so none was: ${refused
          .slice(0, 5)
          .map((r) => `${r.orderId} (${r.message})`)
          .join('; ')}${refused.length > 5 ? '; …' : ''}`;
  throw new OrderRefusal(kind, message, { orders: refused });
}

/** How the latest change reads in a conflict message ("moved it to Awaiting Govt"). */
function describeChange(action: string, to: string | null, toName: string | null): string {
  switch (action) {
    case 'status':
      return `moved it to ${statusName(to ?? '')}`;
    case 'assign':
      return to === null ? 'released it' : `assigned it to ${toName ?? 'someone'}`;
    case 'takeover':
      return `took it over`;
    case 'remark':
      return 'added a remark';
    case 'upload':
      return 'uploaded a document';
    case 'withdraw':
      return 'withdrew a document';
    case 'mail':
      return 'queued a mail';
    case 'transaction':
      return 'changed the transaction details';
    case 'correction':
      return 'corrected its data';
    case 'submission':
      return 'stored the government reference';
    default:
      return 'changed it';
  }
}

/**
 * Optimistic concurrency: a change sent with the version the client last saw is refused when the order
 * has changed since, naming who changed it, what and when. Without `expected` (API clients) no check.
 */
export async function assertVersion(
  tx: DbOrTx,
  order: { orderId: number; version: number },
  expected: number | undefined,
): Promise<void> {
  if (expected === undefined || expected === order.version) return;
  const { rows } = await tx.execute<{
    action: string;
    to_value: string | null;
    actor: string | null;
    to_name: string | null;
    at: string;
  }>(sql`
    select e.action, e.to_value, a.name as actor, t.name as to_name,
           to_char(e.created_at at time zone ${SERVICE_TIME_ZONE}, 'HH24:MI') as at
    from order_events e
    left join staff_users a on a.id = e.actor_id
    left join staff_users t on e.action in ('assign', 'takeover') and t.id::text = e.to_value
    where e.order_id = ${order.orderId}
    order by e.created_at desc, e.id desc limit 1`);
  const last = rows[0];
  const what = last
    ? `${last.actor ?? 'The system'} ${describeChange(last.action, last.to_value, last.to_name)} at ${last.at}`
    : 'Someone changed it';
  throw refuseConflict(`This order changed since you opened it: ${what}. Reload to see the change.`, {
    version: order.version,
    expectedVersion: expected,
  });
}

/**
 * The holder rule's answer alone, changing nothing (a refusal comes before any question); the holder's
 * name when someone else holds the order.
 */
export async function assertHolderAllows(
  tx: DbOrTx,
  order: { orderId: number; assignedTo: number | null },
  actor: StaffIdentity,
  takeOver: boolean,
): Promise<string | null> {
  if (order.assignedTo === null || order.assignedTo === actor.id) return null;
  const [holder] = await tx
    .select({ name: staffUsers.name })
    .from(staffUsers)
    .where(sql`${staffUsers.id} = ${order.assignedTo}`);
  const decision = holderDecision(
    { assignedToId: order.assignedTo, holder: holder?.name ?? null },
    { id: actor.id, role: actor.type },
    takeOver,
  );
  if (!decision.allowed) throw refuseConflict(decision.message, { holder: holder?.name ?? null });
  return holder?.name ?? null;
}

/**
 * The holder rule for status moves and remark-flag moves on one locked order: refused (409, naming the
 * holder) for anyone else, or, for an Admin or Manager who asks, a takeover: the order is reassigned to
 * them with its own event and audit entry, in the same transaction.
 */
export async function applyHolderRule(
  tx: DbOrTx,
  order: { orderId: number; assignedTo: number | null },
  actor: StaffIdentity,
  takeOver: boolean,
): Promise<void> {
  if (order.assignedTo === null || order.assignedTo === actor.id) return;
  const holder = await assertHolderAllows(tx, order, actor, takeOver);
  await tx
    .update(orders)
    .set({ assignedTo: actor.id, updatedAt: sql`now()`, ...versionBump })
    .where(sql`${orders.orderId} = ${order.orderId}`);
  await recordEvents(tx, [
    {
      orderId: order.orderId,
      actorId: actor.id,
      action: 'takeover',
      fromValue: String(order.assignedTo),
      toValue: String(actor.id),
    },
  ]);
  await recordAudit(tx, {
    action: 'order.takeover',
    actorId: actor.id,
    target: `order ${order.orderId}`,
    from: holder ?? order.assignedTo,
    to: actor.name,
  });
  order.assignedTo = actor.id;
}
