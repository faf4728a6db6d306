import { eq, sql } from 'drizzle-orm';
import { CUSTOMER_MSG } from '../../shared/contracts/customer.js';
import { serviceToday } from '../../shared/dates.js';
import { formatMinor, toMinor } from '../../shared/money.js';
import { recordAudit } from '../audit/audit.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { customerCancellations, mailLog, orderEvents, orderRemarks } from '../db/schema.js';
import { conflict, httpErrorOf, serviceUnavailable, unauthorized } from '../http/errors.js';
import { writeMail } from '../mail/outbox.js';
import { moveAsSystem } from './move-status.js';
import { addSystemRemark } from '../orders/remarks.js';
import { inTransaction } from '../orders/transaction.js';
import type { OrderRow } from '../orders/repository.js';
import type { OrderStatus } from '../../shared/constants.js';
import { lockForCustomer, undoCustomerCancel } from '../orders/self-service.js';
import { paymentRouteOf } from '../payments/payment-route.js';
import { refundOrders } from './refund-orders.js';
import { customerOrder, customerSide, type CustomerSide, selfServiceOpen } from '../customer/self-service.js';
import { getCancellationPolicy } from '../customer/self-service-settings.js';

/**
 * The customer cancels before submission (docs/product.md, "Customers help themselves"): the refund
 * follows the cancellation policy's ladder (all while untouched, less once worked on, none once
 * submitted); paid through an integrated provider, the refund is made there and the order ends in
 * Completed Refunds, otherwise it goes to Refunds for the team, flagged "Cancelled by the customer".
 * Once per order: a replay answers the first result and refunds nothing.
 */

export interface CancelResult {
  percent: number;
  amount: string;
  outcome: 'refunded' | 'refunds';
  replayed: boolean;
  message: string;
}

/** The flag the team sees on the order (a system remark). */
export const CANCELLED_BY_CUSTOMER = 'Cancelled by the customer';

/**
 * The customer as the refund's actor: no staff member (the events and the refund carry no actor), the
 * shared rules with a Manager's rights as for the system's own moves.
 */
const CUSTOMER_ACTOR = { id: null, name: 'Customer', type: 'Manager', email: '' } as unknown as StaffIdentity;

/**
 * The one call of the refund entry point for a customer's cancellation: the amount (a partial refund
 * below 100 %), the reason the entry point accepts for a customer's request.
 */
function refundAsCustomer(db: Db, config: Config, orderId: number, amount: string | undefined) {
  return refundOrders(db, config, CUSTOMER_ACTOR, {
    orderIds: [orderId],
    amount,
    reason: 'requested_by_customer',
    why: { code: 'customer_request' },
    close: true,
    today: serviceToday(),
  });
}

/** Worked on: anything beyond the order arriving and its confirmation (a remark, a hold, a move, a mail). */
async function workedOn(tx: DbOrTx, order: OrderRow): Promise<boolean> {
  if (order.processStatus !== 'New' || order.assignedTo !== null) return true;
  const [row] = await tx
    .execute<{ remarks: number; holds: number; mails: number }>(sql`
    select (select count(*)::int from ${orderRemarks} where order_id = ${order.orderId}) as remarks,
           (select count(*)::int from ${orderEvents} where order_id = ${order.orderId}
              and action in ('assign', 'takeover', 'status')) as holds,
           (select count(*)::int from ${mailLog} where order_id = ${order.orderId}) as mails`)
    .then((r) => r.rows);
  return !!row && (Number(row.remarks) > 0 || Number(row.holds) > 0 || Number(row.mails) > 1);
}

/** What the ladder refunds of this order now (percent and amount), or null once it may not be cancelled. */
export async function cancellationQuote(tx: DbOrTx, order: OrderRow) {
  if (!selfServiceOpen(order.processStatus)) return null;
  const policy = await getCancellationPolicy(tx);
  const percent = (await workedOn(tx, order)) ? policy.workedOnPercent : policy.untouchedPercent;
  const currency = order.currency.toUpperCase();
  const paid = toMinor(order.amount, currency) ?? 0;
  const minor = Math.floor((paid * percent) / 100);
  return { percent, minor, currency, amount: formatMinor(minor, currency), policy };
}

const answerOf = (
  row: typeof customerCancellations.$inferSelect,
  side: CustomerSide,
  orderId: number,
  replayed: boolean,
): CancelResult => ({
  percent: row.percent,
  amount: row.amount,
  outcome: row.outcome,
  replayed,
  message: side.t(row.outcome === 'refunded' ? 'self.cancelledRefunded' : 'self.cancelledPending', {
    orderId: String(orderId),
    amount: row.amount,
  }),
});

async function earlier(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select()
    .from(customerCancellations)
    .where(eq(customerCancellations.orderId, orderId));
  return row ?? null;
}

/** The cancellation's record, flag, audit entry and mail, in the caller's transaction. */
async function recordCancellation(
  tx: DbOrTx,
  order: OrderRow,
  side: CustomerSide,
  input: {
    reason: string;
    percent: number;
    amount: string;
    outcome: 'refunded' | 'refunds';
    refundId: string | null;
  },
  ip: string | null,
) {
  const [row] = await tx
    .insert(customerCancellations)
    .values({
      orderId: order.orderId,
      reason: input.reason,
      percent: input.percent,
      amount: input.amount,
      currency: order.currency.toUpperCase(),
      fromStatus: order.processStatus,
      outcome: input.outcome,
      refundId: input.refundId,
    })
    .returning();
  await addSystemRemark(
    tx,
    order.orderId,
    `${CANCELLED_BY_CUSTOMER} (${input.percent} %, ${input.amount}): ${input.reason}`.slice(0, 2000),
  );
  await recordAudit(tx, {
    action: 'order.customer-cancel',
    actorEmail: 'customer',
    target: `order ${order.orderId}`,
    from: { status: order.processStatus },
    to: { outcome: input.outcome, percent: input.percent, amount: input.amount },
    ip,
  });
  const t = side.t;
  const values = {
    orderId: String(order.orderId),
    amount: input.amount,
    name: `${order.firstName} ${order.lastName}`.trim(),
    supportEmail: side.supportEmail,
  };
  await writeMail(
    tx,
    {
      orderId: order.orderId,
      kind: 'notification',
      toEmail: order.email,
      provider: 'AWS',
      requestedBy: null,
      bodyText: `${t('self.cancelMail.subject', values)}\n\n${t('self.cancelMail.body', values)}`,
    },
    'customer cancellation',
  );
  return row!;
}

export async function customerCancel(
  ctx: { db: Db; config: Config },
  orderId: number,
  body: { reason: string; expectedVersion: number; lang?: string | undefined },
  ip: string | null,
): Promise<CancelResult> {
  const { db, config } = ctx;
  const found = await customerOrder(db, orderId);
  if (!found) throw unauthorized(CUSTOMER_MSG.sessionExpired);
  const side = customerSide(config, found, body.lang);
  const policy = await getCancellationPolicy(db);
  // Refused once submitted: how to reach support, and the policy's text.
  const closed = () =>
    conflict(
      `${side.t('self.cancelClosed', { orderId: String(orderId), supportEmail: side.supportEmail })} ${side.t(
        'self.policy',
        { untouched: policy.untouchedPercent, workedOn: policy.workedOnPercent },
      )}`,
    );
  const stale = () => conflict(side.t('self.stale'));

  // The order locked, the replay answered, the rules and the version checked; the manual way ends here.
  const first = await inTransaction(db, async (tx) => {
    const previous = await earlier(tx, orderId);
    if (previous) return { done: answerOf(previous, side, orderId, true) as CancelResult | undefined };
    const got: { quote: Awaited<ReturnType<typeof cancellationQuote>> } = { quote: null };
    let order: OrderRow;
    try {
      order = await lockForCustomer(tx, orderId, body.expectedVersion, async (locked) => {
        got.quote = await cancellationQuote(tx, locked);
        if (!got.quote) throw closed();
      });
    } catch (err) {
      // A conflict after the stage was found open is the version's: worded for the customer.
      if (httpErrorOf(err)?.statusCode === 409 && got.quote) throw stale();
      throw err;
    }
    const quote = got.quote;
    if (!quote) throw closed();
    const moved = await moveAsSystem(tx, orderId, 'Refunds', { notify: false });
    if (!moved.moved) throw closed();
    const route = paymentRouteOf(config, order);
    if (route.kind === 'integrated' && quote.minor > 0) return { order, quote };
    const row = await recordCancellation(
      tx,
      order,
      side,
      {
        reason: body.reason,
        percent: quote.percent,
        amount: quote.amount,
        outcome: 'refunds',
        refundId: null,
      },
      ip,
    );
    return { done: answerOf(row, side, orderId, false) };
  });
  if (first.done) return first.done;

  // Through the provider: the order waits in Refunds while the refund is made there.
  const { order, quote } = first as {
    order: OrderRow;
    quote: NonNullable<Awaited<ReturnType<typeof cancellationQuote>>>;
  };
  const partial = quote.percent < 100 ? quote.amount.split(' ')[0] : undefined;
  let failure: string | null = null;
  let refundId: string | null = null;
  try {
    const result = await refundAsCustomer(db, config, orderId, partial);
    if (result.failed.length) failure = result.failed[0]!.message;
    refundId = result.throughProvider[0]?.refundId ?? null;
  } catch (err) {
    const refused = httpErrorOf(err);
    if (!refused) throw err;
    failure = refused.message;
  }
  if (failure !== null) {
    // The order as it was: back to its status (the refund's attempt is kept, so a retry repeats it).
    await inTransaction(db, (tx) => undoCustomerCancel(tx, orderId, order.processStatus as OrderStatus));
    // The provider's own words stay with the team (the payment event and the refund's record).
    throw serviceUnavailable(side.t('self.providerError', { supportEmail: side.supportEmail }));
  }
  return inTransaction(db, async (tx) => {
    const row = await recordCancellation(
      tx,
      order,
      side,
      { reason: body.reason, percent: quote.percent, amount: quote.amount, outcome: 'refunded', refundId },
      ip,
    );
    return answerOf(row, side, orderId, false);
  });
}
