import { and, eq, isNull, sql } from 'drizzle-orm';
import { CLOSED_STATUSES, type OrderStatus } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';
import { dueNow } from '../due-time/policy.js';
import { failingAddresses, mailLog, orderRemarks, orders } from '../db/schema.js';
import { refuseNotFound } from './refusal.js';
import { type OrderEvent, recordEvents } from './events.js';
import { lockOrders } from './repository.js';
import { VERSION_BUMP } from './version.js';

/**
 * The order side of what customers send (src/server/inbound/ reads and matches the messages): an answer
 * brings an order waiting on the customer back, a bounce sends it to the Telecaller. Each runs in the
 * caller's transaction, with its events.
 */

/** Statuses that wait on the customer: an answer brings the order back to New. */
export const WAITING_STATUSES: readonly OrderStatus[] = ['Awaiting', 'Contact Customer', 'Customer Called'];
/** A bounce moves the order to Contact Customer unless it is closed this way or already there. */
const NO_BOUNCE_MOVE: readonly string[] = [
  'Contact Customer',
  'Deleted',
  'Refunds',
  'Refunded',
  'ChargeBack',
];

/**
 * The order's status, its row locked for the caller's transaction (a named prepared statement). The
 * inbound pipeline takes it first, before it writes the message.
 */
export const lockOrderStatus = (tx: DbOrTx, orderId: number) =>
  tx
    .select({ processStatus: orders.processStatus })
    .from(orders)
    .where(eq(orders.orderId, sql.placeholder('orderId')))
    .for('update')
    .prepare('customer_answer_lock')
    .execute({ orderId });

/**
 * The effects of a customer's answer on its order, in the caller's transaction: the "Customer replied"
 * flag, the answer in the history, and an order waiting on the customer back to New (docs/decisions/307).
 * A verified answer to an open order also starts the customer answer's due-time target (the due-time
 * policy's `customerAnswer`, kept by the trigger orders_due_at).
 * `verified: false` (a sender our receiving server did not authenticate, decision 350): the flag and the
 * history only; the order does not move and no failing address is cleared. The order is locked first,
 * then written, then its events: the same order as every other move (the waiting policy's among them),
 * so the rows the triggers keep (folder counters, then the events' rollups) are taken in one order and
 * two such transactions never deadlock (docs/decisions/384).
 */
export async function customerAnswered(
  tx: DbOrTx,
  orderId: number,
  summary: string,
  fromEmail: string | null,
  verified = true,
): Promise<{ from: OrderStatus; to: OrderStatus }> {
  const [order] = await lockOrderStatus(tx, orderId);
  if (!order) throw refuseNotFound(`Order not found: ${orderId}`);
  const from = order.processStatus as OrderStatus;
  const moving = verified && WAITING_STATUSES.includes(from);
  // A verified answer to an open order starts the customer answer's due-time target (where the policy
  // has one) at the due clock's now: the trigger orders_due_at makes the order due by then at the latest.
  const closed = (CLOSED_STATUSES as readonly string[]).includes(from);
  const clearing = verified && fromEmail;
  // The status is set only when it changes: the folder counters follow a move alone (the answer's target,
  // where verified, fires the due time's trigger too). The update raises the version itself, so the
  // events' publish trigger only notifies (decision 400). The order and its events are two statements,
  // in this order: in one statement with data-modifying CTEs the
  // events' triggers ran first, and a reply then waited on the counters a scan held while the scan
  // waited on the events' rollup the reply held (a deadlock).
  await tx.execute(sql`
    ${clearing ? sql`with cleared as (delete from failing_addresses where email = ${fromEmail}) ` : sql``}update orders set customer_replied_at = now(), ${verified && !closed ? sql`answer_due_from = ${dueNow().toISOString()}::timestamptz, ` : sql``}${moving ? sql`process_status = ${sqlValue('New')}, ` : sql``}updated_at = now(), ${VERSION_BUMP}
    where order_id = ${orderId}`);
  await tx.execute(sql`
    insert into order_events (order_id, action, from_value, to_value)
    values (${orderId}::bigint, 'customer_reply', null, ${(verified ? summary : `${summary} (sender not verified)`).slice(0, 200)}::text)
      ${moving ? sql`, (${orderId}::bigint, 'status', ${from}::text, ${sqlValue('New')})` : sql``}`);
  return { from, to: moving ? 'New' : from };
}

/**
 * A delivery report on one mail we sent (named by our signed Message-ID or reply address, decision 351):
 * the mail marked bounced with the reason, the address it went to failing, and an open order to Contact
 * Customer with a remark. A closed order never moves. A second report on the same mail changes nothing
 * but the history.
 */
export async function bounced(
  tx: DbOrTx,
  orderId: number,
  mailId: number,
  report: { status: string; diagnostic: string | null },
): Promise<void> {
  const reason = `${report.status}${report.diagnostic ? ` ${report.diagnostic}` : ''}`.slice(0, 500);
  const [order] = await lockOrders(tx, [orderId]);
  const [mail] = await tx
    .update(mailLog)
    .set({ bouncedAt: sql`now()`, bounceReason: reason, updatedAt: sql`now()` })
    .where(and(eq(mailLog.id, mailId), eq(mailLog.orderId, orderId), isNull(mailLog.bouncedAt)))
    .returning({ toEmail: mailLog.toEmail });
  if (!mail) {
    await recordEvents(tx, [{ orderId, action: 'bounce', toValue: `again: ${reason}`.slice(0, 200) }]);
    return;
  }
  const address = mail.toEmail.trim().toLowerCase();
  await tx
    .insert(failingAddresses)
    .values({ email: address, reason, mailId })
    .onConflictDoUpdate({ target: failingAddresses.email, set: { reason, mailId, createdAt: sql`now()` } });
  const from = order!.processStatus;
  const closed = (CLOSED_STATUSES as readonly string[]).includes(from);
  const moving = !closed && !NO_BOUNCE_MOVE.includes(from);
  const events: OrderEvent[] = [
    { orderId, action: 'bounce', toValue: `${address}: ${reason}`.slice(0, 200) },
  ];
  if (!closed) {
    const remark = `The mail to ${address} did not arrive (${reason}). Please call the customer for a correct e-mail address.`;
    const [row] = await tx
      .insert(orderRemarks)
      .values({ orderId, authorId: null, remark, telephone: 'Y' })
      .returning({ id: orderRemarks.id });
    events.push({ orderId, action: 'remark', toValue: String(row!.id) });
  }
  if (moving) {
    await tx
      .update(orders)
      .set({ processStatus: 'Contact Customer', updatedAt: sql`now()` })
      .where(eq(orders.orderId, orderId));
    events.push({ orderId, action: 'status', fromValue: from, toValue: 'Contact Customer' });
  }
  await recordEvents(tx, events);
}

/** Opening the conversation reads the answers: the "Customer replied" flag goes (no order change, no event). */
export async function clearRepliedFlag(db: DbOrTx, orderId: number): Promise<void> {
  await db.update(orders).set({ customerRepliedAt: null }).where(eq(orders.orderId, orderId));
}

/** The waiting policy's last step: no answer, so the order goes to the Telecaller with a remark. */
export async function escalateUnanswered(tx: DbOrTx, orderId: number, remark: string): Promise<boolean> {
  const [order] = await lockOrders(tx, [orderId]);
  if (order!.processStatus !== 'Awaiting') return false;
  const [row] = await tx
    .insert(orderRemarks)
    .values({ orderId, authorId: null, remark, telephone: 'Y' })
    .returning({ id: orderRemarks.id });
  await tx
    .update(orders)
    .set({ processStatus: 'Contact Customer', updatedAt: sql`now()` })
    .where(eq(orders.orderId, orderId));
  await recordEvents(tx, [
    { orderId, action: 'remark', toValue: String(row!.id) },
    { orderId, action: 'status', fromValue: 'Awaiting', toValue: 'Contact Customer' },
  ]);
  return true;
}
