import { eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { Db } from '../db/client.js';
import { orders } from '../db/schema.js';
import { conflict, notFound } from '../http/errors.js';
import { addSystemRemark } from '../orders/remarks.js';
import { recordEvents } from '../orders/events.js';
import { type CheckSettings, setOrderFlag } from '../orders/order-checks.js';
import { now } from '../clock.js';

/**
 * A Manager clears an order's risk hold with a reason (docs/product.md, "Fraud warnings and risk",
 * decision 372): the check goes, the order may be submitted again; the reason is audited and remarked,
 * in one transaction with the order's event.
 */
export async function clearRiskHold(
  db: Db,
  settings: CheckSettings,
  actor: StaffIdentity,
  orderId: number,
  reason: string,
  ip: string | null,
): Promise<{ orderId: number; processStatus: string }> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({
        status: orders.processStatus,
        held: sql<boolean>`'risk_hold' = any(${orders.checkFlags})`,
        level: orders.riskLevel,
      })
      .from(orders)
      .where(eq(orders.orderId, orderId))
      .for('update');
    if (!order) throw notFound('Order not found');
    if (!order.held) throw conflict('This order is not on a risk hold.');
    await setOrderFlag(tx, orderId, 'risk_hold', false, settings, now());
    await recordEvents(tx, [
      { orderId, actorId: actor.id, action: 'risk', toValue: `risk hold cleared: ${reason}` },
    ]);
    await addSystemRemark(tx, orderId, `Risk hold cleared by ${actor.name}: ${reason}`);
    await recordAudit(tx, {
      action: 'order.risk-hold-clear',
      actorId: actor.id,
      target: `order ${orderId}`,
      from: { riskHold: true },
      to: { riskHold: false, reason },
      ip,
    });
    return { orderId, processStatus: order.status };
  });
}
