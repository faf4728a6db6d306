import { inArray, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import type { PendingMail } from '../../shared/contracts/order-detail.js';
import { serviceToday } from '../../shared/dates.js';
import { decide } from '../../shared/order-rules.js';
import type { StaffIdentity } from '../context.js';
import { recordAudit } from '../db/audit-log.js';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { assertCardMayLeave } from './card-gate.js';
import { recordEvents } from './events.js';
import { refuseConflict, refuseForbidden, refuseInvalid } from './refusal.js';
import { latestDocument } from './repository.js';
import { assertNoRiskHold } from './risk-hold.js';
import { applyHolderRule, assertHolderAllows, assertVersion, enforceRules, ruleState } from './rules.js';
import {
  assertCurrentDocuments,
  assertNoRecentMove,
  assertUndoable,
  syncReferenceCheck,
  windowClosed,
  windowClosedMessage,
} from './status-checks.js';
import type { EnteredMails, StatusChange, StatusEffects } from './status-effects.js';
import { inTransaction, lockOne } from './transaction.js';
import { versionBump } from './version.js';

/**
 * Writes a status change of locked orders whose rules were checked: the new status and its events. A
 * refund (not a restore to Completed Refunds) also sets the refund date. The customer mails of the new
 * status are queued through `effects` (none for a restore, none with `notify: false`). Answers them.
 */
export async function applyStatus(
  tx: DbOrTx,
  actor: { id: number | null },
  changed: StatusChange[],
  to: OrderStatus,
  opts: {
    restore?: boolean;
    notify?: boolean | undefined;
    forced?: boolean;
    /** The move to Awaiting Govt of POST .../submitted: the government's reference, stored with it. */
    governmentReference?: string | undefined;
  },
  effects: StatusEffects,
): Promise<EnteredMails> {
  // A restore puts an order back where it was; it is not a completion.
  if (to === 'Completed' && !opts.forced && !opts.restore) await assertCurrentDocuments(tx, changed);
  // A card whose check found a mismatch or another order's file never completes an order (card-gate.ts).
  if (to === 'Completed' && !opts.restore)
    await assertCardMayLeave(
      tx,
      changed.map((o) => o.orderId),
    );
  const ids = changed.map((o) => o.orderId);
  // No submission while the payment is on a risk hold (decision 372), on every path of a move.
  if (to === 'AwaitingGovt' && !opts.restore) await assertNoRiskHold(tx, ids);
  const refunding = to === 'Refunded' && !opts.restore;
  await tx
    .update(orders)
    .set({
      processStatus: to,
      updatedAt: sql`now()`,
      // One pass of the order triggers (drizzle/0099): the version is raised here, not by the events.
      ...versionBump,
      // A submitted order's failed machine submission is behind it; a government card sent with the
      // completion is no longer waiting to be sent (in the same update: no second pass of the triggers).
      ...(to === 'AwaitingGovt'
        ? { checkFlags: sql`array_remove(check_flags, 'submission_failed')` }
        : to === 'Completed'
          ? { checkFlags: sql`array_remove(check_flags, 'card_arrived_unsent')` }
          : {}),
      // A refund without a recorded reason records 'unspecified' (docs/product.md, "Refund reasons").
      ...(refunding
        ? { refundDate: sql`now()`, refundReason: sql`coalesce(refund_reason, 'unspecified')` }
        : {}),
      ...(opts.governmentReference !== undefined
        ? { governmentReference: opts.governmentReference, submittedAt: sql`now()`, submittedBy: actor.id }
        : {}),
    })
    .where(inArray(orders.orderId, ids));
  await syncReferenceCheck(tx, ids);
  await recordEvents(
    tx,
    changed.map((o) => ({
      orderId: o.orderId,
      actorId: actor.id,
      action: 'status' as const,
      fromValue: o.processStatus,
      toValue: to,
    })),
  );
  return effects.entered(tx, actor.id, changed, to, {
    restore: opts.restore,
    skip: opts.notify === false || opts.forced,
  });
}

export interface ChangeStatusInput {
  orderId: number;
  to: OrderStatus;
  /** The version the client last saw; a later change refuses the move (409). */
  expectedVersion?: number | undefined;
  /** Admin or Manager: take over an order someone else holds. */
  takeOver?: boolean | undefined;
  /** False: queue no status notification (the caller sends its own mail). Default true. */
  notify?: boolean | undefined;
  /** Undo of the actor's own move seconds ago: no notification, and its held mails are cancelled. */
  undo?: boolean | undefined;
  /** Continue although someone else moved the order seconds ago. */
  confirmRecent?: boolean | undefined;
  /** Admin only, to Completed: without a current document, for this reason; no customer mail. */
  forceReason?: string | undefined;
  /** To Awaiting Govt only: the government's reference, stored with the move (POST .../submitted). */
  governmentReference?: string | undefined;
}

/**
 * Moves one order to a status (the detail screen's buttons, macros). Deleting has its own rule for
 * held orders (Admin only); other moves follow the holder rule. `mail`: the customer mail it queued.
 */
export async function changeStatus(
  db: DbOrTx,
  actor: StaffIdentity,
  input: ChangeStatusInput,
  effects: StatusEffects,
): Promise<{
  orderId: number;
  from: OrderStatus;
  to: OrderStatus;
  mail: PendingMail | null;
  repeats: EnteredMails['repeats'];
  cancelledMails: number;
}> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, input.orderId);
    // Refuse before asking (decision 357): the order rules, the role and the holder first; only a
    // move that would go through is met with "changed since you opened it" or "… just moved this —
    // continue?".
    enforceRules([order], { kind: 'move', to: input.to }, actor, serviceToday());
    const forced = input.forceReason !== undefined;
    const early = input.to === 'AwaitingGovt' && windowClosed(order);
    if (forced) {
      if (input.to !== 'Completed' && input.to !== 'AwaitingGovt') {
        throw refuseInvalid('forceReason: only for a move to Completed or Awaiting Govt');
      }
      if (actor.type !== 'Admin') {
        throw refuseForbidden(
          input.to === 'Completed'
            ? 'Only an Admin can complete an order without a card.'
            : 'Only an Admin can submit an order before its submission window opens.',
        );
      }
    }
    if (input.to !== 'Deleted') await assertHolderAllows(tx, order, actor, input.takeOver ?? false);
    // A refusal, like the rules': before the questions below.
    if (early && !forced) throw refuseConflict(windowClosedMessage(order.submissionOpensAt!));
    await assertVersion(tx, order, input.expectedVersion);
    if (input.undo) await assertUndoable(tx, order.orderId, actor, input.to);
    else if (!input.confirmRecent) await assertNoRecentMove(tx, order.orderId, actor);
    if (input.to !== 'Deleted') await applyHolderRule(tx, order, actor, input.takeOver ?? false);
    const cancelled = input.undo ? await effects.cancelHeld(tx, order.orderId, actor.id) : [];
    if (cancelled.length) {
      await recordEvents(
        tx,
        cancelled.map((m) => ({
          orderId: order.orderId,
          actorId: actor.id,
          action: 'mail' as const,
          toValue: `${m.kind} mail ${m.id} cancelled by Undo`,
        })),
      );
    }
    if (input.governmentReference !== undefined && input.to !== 'AwaitingGovt') {
      throw refuseInvalid('governmentReference: only with a move to Awaiting Govt');
    }
    const mails = await applyStatus(
      tx,
      actor,
      [order],
      input.to,
      {
        notify: input.undo ? false : input.notify,
        forced: forced && input.to === 'Completed' && !(await latestDocument(tx, order.orderId)),
        governmentReference: input.governmentReference,
      },
      effects,
    );
    if (input.governmentReference !== undefined) {
      await recordEvents(tx, [
        {
          orderId: order.orderId,
          actorId: actor.id,
          action: 'submission',
          fromValue: order.governmentReference,
          toValue: input.governmentReference,
        },
      ]);
      await recordAudit(tx, {
        action: 'order.submitted',
        actorId: actor.id,
        target: `order ${order.orderId}`,
        from: { status: order.processStatus, governmentReference: order.governmentReference },
        to: { status: 'AwaitingGovt', governmentReference: input.governmentReference },
      });
    }
    if (forced && input.to === 'AwaitingGovt') {
      await recordAudit(tx, {
        action: 'order.force-submit',
        actorId: actor.id,
        target: `order ${order.orderId}`,
        from: {
          status: order.processStatus,
          submissionOpensAt: order.submissionOpensAt?.toISOString() ?? null,
        },
        to: { status: 'AwaitingGovt', reason: input.forceReason },
      });
    } else if (forced) {
      await recordAudit(tx, {
        action: 'order.force-complete',
        actorId: actor.id,
        target: `order ${order.orderId}`,
        from: order.processStatus,
        to: { status: 'Completed', reason: input.forceReason },
      });
    }
    return {
      orderId: order.orderId,
      from: order.processStatus as OrderStatus,
      to: input.to,
      mail: mails.queued[0] ?? null,
      repeats: mails.repeats,
      cancelledMails: cancelled.length,
    };
  });
}

/**
 * The system user of provider events (docs/decisions/301): the shared rules with a Manager's rights, and
 * no holder rule (the holder keeps the order and sees the change live). Its changes carry no actor.
 */
const SYSTEM_RULES_ROLE = 'Manager' as const;

export const systemActor = { id: null, type: SYSTEM_RULES_ROLE } as const;

/**
 * A move by the system user, through the shared rules: answers whether it moved, or the rules' reason
 * when they refuse (nothing changes then). Mails as the status's notification setting says.
 */
export async function moveAsSystem(
  db: DbOrTx,
  orderId: number,
  to: OrderStatus,
  opts: { notify?: boolean; today?: string },
  effects: StatusEffects,
): Promise<{ moved: boolean; from: OrderStatus; refusal: string | null }> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, orderId);
    const from = order.processStatus as OrderStatus;
    const decision = decide(
      ruleState(order),
      { kind: 'move', to },
      systemActor.type,
      opts.today ?? serviceToday(),
    );
    if (!decision.allowed) return { moved: false, from, refusal: decision.message };
    await applyStatus(tx, systemActor, [order], to, { notify: opts.notify }, effects);
    return { moved: true, from, refusal: null };
  });
}
