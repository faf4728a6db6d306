import { eq, sql } from 'drizzle-orm';
import type { CorrectableField, CorrectOrderBody, FieldChange } from '../../shared/contracts/checks.js';
import { CORRECTABLE_FIELDS } from '../../shared/contracts/checks.js';
import type { DuplicateDecision } from '../../shared/duplicates.js';
import { recordAudit } from '../db/audit-log.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { orderDuplicateDecisions, orders } from '../db/schema.js';
import { refuseConflict, refuseNotFound } from './refusal.js';
import { orderValuesFromSnake, snakeToCamel } from './columns.js';
import { addRemark } from './remarks.js';
import type { StatusEffects } from './status-effects.js';
import { inTransaction } from './transaction.js';
import { recordEvents } from './events.js';
import { setRefundReason } from './refund-reason.js';
import { lockOrders, type OrderRow } from './repository.js';
import { assertVersion } from './rules.js';
import { applySubmissionWindow } from './submission-window.js';
import { checkLevel } from '../../shared/order-checks.js';
import { type CheckSettings, checksOfOrder, findDuplicates, refreshChecks } from './order-checks.js';
import { versionBump } from './version.js';

/** Orders whose data no longer changes: their card is issued, refunded or the order is gone. */
const CLOSED_FOR_CORRECTION = new Set(['Completed', 'Refunded', 'Deleted']);

const asText = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/**
 * A correction of an order's traveller and trip data (docs/product.md, "Order checks, duplicates and corrections"): refused on a
 * stale version (409) and on closed orders (409); the changed fields, one 'correction' event holding
 * each field's old and new value, the audit entry and the checks run again, in one transaction.
 * Fields sent with their current value are not changes. Answers the changes and the new version.
 */
export async function correctOrder(
  db: DbOrTx,
  actor: StaffIdentity | 'customer',
  orderId: number,
  body: CorrectOrderBody,
  settings: CheckSettings,
  /** When the checks run again (the caller's clock). */
  now: Date,
  ip: string | null = null,
  /** The customer's own checks (status, daily limit), run on the locked order before anything changes. */
  before?: (order: OrderRow) => Promise<void>,
  /** Raise the "Customer edited" flag in the same write (the customer's own correction). */
  options: { customerEdited?: boolean } = {},
): Promise<{ changes: FieldChange[]; version: number }> {
  const byCustomer = actor === 'customer';
  const actorId = byCustomer ? null : actor.id;
  return inTransaction(db, async (tx) => {
    const [order] = await lockOrders(tx, [orderId], 'Order not found');
    if (before) await before(order!);
    await assertVersion(tx, order!, body.expectedVersion);
    if (CLOSED_FOR_CORRECTION.has(order!.processStatus)) {
      throw refuseConflict(`A ${order!.processStatus} order cannot be corrected.`);
    }
    const sent: Record<string, unknown> = {};
    for (const f of CORRECTABLE_FIELDS) if (body[f] !== undefined) sent[f] = body[f];
    const values = orderValuesFromSnake(sent) as Record<string, unknown>;
    const current = order as unknown as Record<string, unknown>;
    const changes: FieldChange[] = [];
    const set: Record<string, unknown> = {};
    for (const f of Object.keys(sent) as CorrectableField[]) {
      const key = snakeToCamel(f);
      const from = asText(current[key]);
      const to = asText(values[key]);
      if (from === to) continue;
      changes.push({ field: f, from, to });
      set[key] = values[key];
    }
    if (body.governmentReference !== undefined && body.governmentReference !== order!.governmentReference) {
      changes.push({
        field: 'government_reference',
        from: order!.governmentReference,
        to: body.governmentReference,
      });
      set.governmentReference = body.governmentReference;
    }
    if (!changes.length) return { changes, version: order!.version };
    // A new arrival date may move the processing date (the submission window): its checks are run on the
    // stored row afterwards. Otherwise they are computed on the corrected values before the write, so the
    // order is updated once — fields, checks, the customer's flag and its version — and its triggers run
    // once for the change.
    const arrivalChanged = changes.some((c) => c.field === 'arrival_date');
    const corrected = { ...order!, ...(set as Partial<OrderRow>) } as OrderRow;
    const duplicates = arrivalChanged ? [] : await findDuplicates(tx, corrected);
    const checks = arrivalChanged ? null : await checksOfOrder(tx, corrected, settings, now, duplicates);
    const [written] = await tx
      .update(orders)
      .set({
        ...(set as Partial<OrderRow>),
        ...(checks ? { checks, checkLevel: checkLevel(checks) } : {}),
        ...(options.customerEdited ? { customerEditedAt: sql`now()` } : {}),
        updatedAt: sql`now()`,
        ...versionBump,
      })
      .where(eq(orders.orderId, orderId))
      .returning({ version: orders.version });
    await recordEvents(tx, [
      {
        orderId,
        actorId,
        actorKind: byCustomer ? 'customer' : null,
        action: 'correction',
        fromValue: JSON.stringify(Object.fromEntries(changes.map((c) => [c.field, c.from]))),
        toValue: JSON.stringify(Object.fromEntries(changes.map((c) => [c.field, c.to]))),
      },
    ]);
    await recordAudit(tx, {
      action: 'order.correct',
      actorId,
      ...(byCustomer ? { actorEmail: 'customer' } : {}),
      target: `order ${orderId}`,
      from: Object.fromEntries(changes.map((c) => [c.field, c.from])),
      to: Object.fromEntries(changes.map((c) => [c.field, c.to])),
      ip,
    });
    if (arrivalChanged) {
      await applySubmissionWindow(tx, [orderId]);
      await refreshChecks(tx, [orderId], settings, now, { withCandidates: true });
    } else {
      // Both sides of a new possible pair show it: the candidates' own checks run again.
      const others = duplicates.map((d) => d.candidate.order_id);
      if (others.length) await refreshChecks(tx, others, settings, now);
    }
    const [after] = arrivalChanged
      ? await tx.select({ version: orders.version }).from(orders).where(eq(orders.orderId, orderId))
      : [written!];
    return { changes, version: after!.version };
  });
}

/**
 * A staff decision on a pair of possible duplicates: 'not_duplicate' silences the pair for good;
 * 'duplicate' links them and moves the newer order to Refunds with the remark "Duplicate of order N"
 * through the order rules (refused, with nothing written, when they refuse). Audited; one event on each.
 */
export async function decideDuplicate(
  db: DbOrTx,
  actor: StaffIdentity,
  orderId: number,
  input: { otherOrderId: number; decision: DuplicateDecision },
  settings: CheckSettings,
  /** When the checks run again (the caller's clock). */
  now: Date,
  ip: string | null,
  effects: StatusEffects,
): Promise<{ movedOrderId: number | null }> {
  return inTransaction(db, async (tx) => {
    if (input.otherOrderId === orderId) throw refuseConflict('An order is not a duplicate of itself.');
    const [order] = await lockOrders(tx, [orderId], 'Order not found');
    const candidates = await findDuplicates(tx, order!);
    const pair = candidates.find((c) => c.candidate.order_id === input.otherOrderId);
    if (!pair) {
      const [other] = await tx
        .select({ id: orders.orderId })
        .from(orders)
        .where(eq(orders.orderId, input.otherOrderId));
      if (!other) throw refuseNotFound('Order not found');
      throw refuseConflict(`Order ${input.otherOrderId} is not a possible duplicate of order ${orderId}.`);
    }
    if (pair.decision) throw refuseConflict('This pair has already been decided.');
    const [low, high] = [orderId, input.otherOrderId].sort((a, b) => a - b) as [number, number];
    await tx.insert(orderDuplicateDecisions).values({
      orderId: low,
      otherOrderId: high,
      decision: input.decision,
      decidedBy: actor.id,
    });
    await recordEvents(tx, [
      {
        orderId,
        actorId: actor.id,
        action: 'duplicate',
        fromValue: String(input.otherOrderId),
        toValue: input.decision,
      },
      {
        orderId: input.otherOrderId,
        actorId: actor.id,
        action: 'duplicate',
        fromValue: String(orderId),
        toValue: input.decision,
      },
    ]);
    await recordAudit(tx, {
      action: 'order.duplicate-decision',
      actorId: actor.id,
      target: `order ${orderId}, order ${input.otherOrderId}`,
      to: { decision: input.decision },
      ip,
    });
    let movedOrderId: number | null = null;
    if (input.decision === 'duplicate') {
      // The newer order is the duplicate: the later one to arrive (the higher id on a tie).
      const thisCreated = order!.createdAt.toISOString();
      const otherCreated = pair.candidate.created_at;
      const otherIsNewer =
        otherCreated > thisCreated || (otherCreated === thisCreated && input.otherOrderId > orderId);
      const [newer, older] = otherIsNewer ? [input.otherOrderId, orderId] : [orderId, input.otherOrderId];
      const result = await addRemark(
        tx,
        actor,
        {
          orderId: newer,
          remark: `Duplicate of order ${older}`,
          whatsapp: 'N',
          telephone: 'N',
          statusRefund: 'Y',
          voided: 'N',
          chargeBack: 'N',
          reportError: 'N',
        },
        effects,
      );
      movedOrderId = result.moved ? newer : null;
      // The refund that follows is for a duplicate (docs/product.md, "Refund reasons").
      if (movedOrderId) await setRefundReason(tx, actor.id, [movedOrderId], { code: 'duplicate' });
    }
    await refreshChecks(tx, [orderId, input.otherOrderId], settings, now);
    return { movedOrderId };
  });
}
