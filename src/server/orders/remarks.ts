import { eq, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import type { RemarkItem } from '../../shared/contracts/order-detail.js';
import { serviceToday } from '../../shared/dates.js';
import { remarkMove } from '../../shared/order-rules.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { orderRemarks, orders } from '../db/schema.js';
import { recordEvents } from './events.js';
import { remarkItemOf } from './repository.js';
import { applyHolderRule, assertVersion, enforceRules, ruleState } from './rules.js';
import { applyStatus } from './status.js';
import type { StatusEffects } from './status-effects.js';
import { inTransaction, lockOne } from './transaction.js';
import { versionBump } from './version.js';

/** Remarks (the staff's and the system's) and the payment's transaction details. */

/** A remark's yes/no box as stored: 'Y' or 'N'. */
type YesNo = 'Y' | 'N';

export interface AddRemarkInput {
  orderId: number;
  remark: string;
  whatsapp: YesNo;
  telephone: YesNo;
  statusRefund: YesNo;
  voided: YesNo;
  chargeBack: YesNo;
  reportError: YesNo;
  expectedVersion?: number | undefined;
  takeOver?: boolean | undefined;
}

/**
 * A remark by the actor. The Refund and Chargeback flags move the order (the shared rules and the
 * holder rule decide); an order already where the flag points only gets the remark.
 */
export async function addRemark(
  db: DbOrTx,
  actor: StaffIdentity,
  input: AddRemarkInput,
  effects: StatusEffects,
): Promise<{ remark: RemarkItem; processStatus: OrderStatus; moved: boolean }> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, input.orderId);
    await assertVersion(tx, order, input.expectedVersion);
    const today = serviceToday();
    const move = remarkMove(ruleState(order), input, actor.type, today);
    if (move) {
      await applyHolderRule(tx, order, actor, input.takeOver ?? false);
      enforceRules([order], { kind: 'move', to: move.to }, actor, today);
    }
    const [remark] = await tx
      .insert(orderRemarks)
      .values({
        orderId: input.orderId,
        authorId: actor.id,
        remark: input.remark,
        whatsapp: input.whatsapp,
        telephone: input.telephone,
        statusRefund: input.statusRefund,
        voided: input.voided,
        chargeback: input.chargeBack,
        reportError: input.reportError,
      })
      .returning();
    await recordEvents(tx, [
      { orderId: input.orderId, actorId: actor.id, action: 'remark', toValue: String(remark!.id) },
    ]);
    let status = order.processStatus as OrderStatus;
    if (move) {
      await applyStatus(tx, actor, [order], move.to, {}, effects);
      status = move.to;
    }
    return { remark: remarkItemOf(remark!, actor.name), processStatus: status, moved: !!move };
  });
}

/**
 * A remark by the system (no author), with its order event, in the caller's transaction or a new one:
 * one statement writes both.
 */
export async function addSystemRemark(db: DbOrTx, orderId: number, remark: string): Promise<void> {
  await inTransaction(db, (tx) =>
    tx.execute(sql`
      with remark as (
        insert into order_remarks (order_id, author_id, remark) values (${orderId}, null, ${remark})
        returning id
      )
      insert into order_events (order_id, action, to_value) select ${orderId}, 'remark', id::text from remark`),
  );
}

export interface SaveTransactionInput {
  orderId: number;
  transactionId: string;
  merchantName: string;
  expectedVersion?: number | undefined;
}

/** Enter Transaction Details: the payment's transaction id and merchant, with the old values in the event. */
export async function saveTransaction(
  db: DbOrTx,
  actor: StaffIdentity,
  input: SaveTransactionInput,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const order = await lockOne(tx, input.orderId);
    await assertVersion(tx, order, input.expectedVersion);
    await tx
      .update(orders)
      .set({
        transactionId: input.transactionId,
        merchantName: input.merchantName,
        updatedAt: sql`now()`,
        ...versionBump,
      })
      .where(eq(orders.orderId, input.orderId));
    await recordEvents(tx, [
      {
        orderId: input.orderId,
        actorId: actor.id,
        action: 'transaction',
        fromValue: `${order.transactionId ?? ''} / ${order.merchantName ?? ''}`,
        toValue: `${input.transactionId} / ${input.merchantName}`,
      },
    ]);
  });
}
