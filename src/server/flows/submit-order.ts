import { eq } from 'drizzle-orm';
import type { MarkSubmittedBody, SubmissionPacket } from '../../shared/contracts/submission.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { changeStatus } from './move-status.js';
import { type CheckSettings, checkItem, checksOfOrder } from '../orders/order-checks.js';
import { orderRowById } from '../orders/repository.js';
import { buildPacket } from '../submission/packet.js';
import { now } from '../clock.js';

/**
 * Submitting an order to the government (docs/product.md, "Submitting to the government"): the packet
 * a person or a machine types into the portal, and the move to Awaiting Govt with the reference the
 * portal gave.
 */

/** The packet of the order as it is now, with the order's failing checks among its warnings. */
export async function submissionPacketOf(
  db: DbOrTx,
  orderId: number,
  settings: CheckSettings,
): Promise<SubmissionPacket> {
  const order = await orderRowById(db, orderId);
  if (!order) throw notFound('Order not found');
  const packet = buildPacket(order);
  const checks = await checksOfOrder(db, order, settings, now());
  for (const check of checks) {
    if (check.severity === 'info' || check.code === 'government_reference_missing') continue;
    const item = checkItem(check);
    packet.warnings.push({ key: null, code: item.code, message: item.message });
  }
  return packet;
}

/**
 * The move to Awaiting Govt with the government's reference: the rules of any move (holder rule,
 * version, the shared rules), the reference, its event and the audit entry in one transaction.
 */
export async function markSubmitted(
  db: Db | DbOrTx,
  actor: StaffIdentity,
  orderId: number,
  body: MarkSubmittedBody,
): Promise<{
  order_id: number;
  from: string;
  process_status: string;
  government_reference: string;
  submitted_at: string;
}> {
  const moved = await changeStatus(db, actor, {
    orderId,
    to: 'AwaitingGovt',
    expectedVersion: body.expectedVersion,
    takeOver: body.takeOver,
    confirmRecent: body.confirmRecent,
    governmentReference: body.governmentReference,
  });
  const [after] = await db
    .select({ submittedAt: orders.submittedAt })
    .from(orders)
    .where(eq(orders.orderId, orderId));
  return {
    order_id: orderId,
    from: moved.from,
    process_status: 'AwaitingGovt',
    government_reference: body.governmentReference,
    submitted_at: (after?.submittedAt ?? new Date()).toISOString(),
  };
}
