import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { WaitingPolicy } from '../../shared/contracts/conversation.js';
import { recordAudit } from '../audit/audit.js';
import { queueTemplateMail } from '../communication/notifications.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';
import { appSettings, statusNotifications, waitingSteps } from '../db/schema.js';
import { inTransaction } from '../orders/commands.js';
import { escalateUnanswered } from '../orders/customer-answers.js';
import { lockOrders } from '../orders/repository.js';

const KEY = 'waitingPolicy';
const DAY = 24 * 60;
export const DEFAULT_WAITING_POLICY: WaitingPolicy = {
  remindAfterMinutes: 2 * DAY,
  secondReminderAfterMinutes: 4 * DAY,
  escalateAfterMinutes: 6 * DAY,
};
/** The template of the reminders when the Awaiting status notification names none. */
const FALLBACK_TEMPLATE = 'awaiting-customer';

export async function getWaitingPolicy(db: DbOrTx): Promise<WaitingPolicy> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, KEY));
  return { ...DEFAULT_WAITING_POLICY, ...((row?.value as Partial<WaitingPolicy> | undefined) ?? {}) };
}

export async function setWaitingPolicy(
  db: Db,
  actor: StaffIdentity,
  policy: WaitingPolicy,
  ip: string,
): Promise<WaitingPolicy> {
  return db.transaction(async (tx) => {
    const before = await getWaitingPolicy(tx);
    await tx
      .insert(appSettings)
      .values({ key: KEY, value: policy, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: appSettings.key,
        set: { value: policy, updatedBy: actor.id, updatedAt: sql`now()` },
      });
    await recordAudit(tx, {
      action: 'waiting-policy.update',
      actorId: actor.id,
      actorEmail: actor.email,
      target: 'waiting policy',
      from: before,
      to: policy,
      ip,
    });
    return policy;
  });
}

interface Waiting {
  orderId: number;
  email: string;
  since: Date;
}

const AWAITING = sqlValue('Awaiting');

/** Orders in Awaiting, with when they entered it (their latest move there; else their last change). */
async function waitingOrders(db: DbOrTx): Promise<Waiting[]> {
  const { rows } = await db.execute<{ order_id: string; email: string; since: string | Date }>(sql`
    select o.order_id::text as order_id, o.email,
      coalesce((select max(e.created_at) from order_events e
                where e.order_id = o.order_id and e.action = 'status' and e.to_value = ${AWAITING}),
               o.updated_at) as since
    from orders o where o.process_status = ${AWAITING}`);
  return rows.map((r) => ({ orderId: Number(r.order_id), email: r.email, since: new Date(r.since) }));
}

/** Steps acted on in one pass at most; the rest wait for the next pass, a minute later. */
const MAX_STEPS_PER_PASS = 200;

interface ScanLimits {
  maxSteps?: number;
  /** True once the server is stopping: the pass ends after the step it is in. */
  stopping?: () => boolean;
}

/**
 * One pass of the waiting policy at `now` (the clock is injected: tests pass theirs). For each order in
 * Awaiting, only the furthest step that is due is acted on, once: the (order, since, step) key makes a
 * second instance's identical pass a no-op, and an answer (which moves the order out of Awaiting) ends
 * its steps. Answers how many steps were acted on.
 */
export async function scanWaiting(
  db: Db,
  now: Date = new Date(),
  { maxSteps = MAX_STEPS_PER_PASS, stopping = () => false }: ScanLimits = {},
): Promise<number> {
  const policy = await getWaitingPolicy(db);
  let acted = 0;
  // The longest-waiting first; a backlog (a policy switched on over many old orders) is worked off a
  // bounded number of steps per pass, so that a pass stays short and the server can stop between them.
  const waiting = (await waitingOrders(db)).sort((a, b) => a.since.getTime() - b.since.getTime());
  for (const order of waiting) {
    if (acted >= maxSteps || stopping()) break;
    const waited = (now.getTime() - order.since.getTime()) / 60_000;
    const step =
      waited >= policy.escalateAfterMinutes
        ? 3
        : waited >= policy.secondReminderAfterMinutes
          ? 2
          : waited >= policy.remindAfterMinutes
            ? 1
            : 0;
    if (step === 0) continue;
    const done = await inTransaction(db, async (tx) => {
      const [locked] = await lockOrders(tx, [order.orderId]);
      if (locked!.processStatus !== 'Awaiting') return false;
      // Earlier steps that were never taken are skipped, not sent late.
      const inserted = await tx
        .insert(waitingSteps)
        .values(
          Array.from({ length: step }, (_, i) => ({
            orderId: order.orderId,
            since: order.since,
            step: i + 1,
          })),
        )
        .onConflictDoNothing()
        .returning({ step: waitingSteps.step });
      if (!inserted.some((r) => r.step === step)) return false;
      if (step === 3) {
        const days = Math.round(policy.escalateAfterMinutes / DAY);
        return escalateUnanswered(
          tx,
          order.orderId,
          `No answer from the customer ${days > 0 ? `in ${days} day(s)` : 'in time'} after the request and two reminders: please call.`,
        );
      }
      const [setting] = await tx
        .select({ key: statusNotifications.templateKey })
        .from(statusNotifications)
        .where(and(eq(statusNotifications.status, 'Awaiting')));
      await queueTemplateMail(tx, {
        orderId: order.orderId,
        templateKey: setting?.key ?? FALLBACK_TEMPLATE,
        kind: 'notification',
        toEmail: locked!.email,
        requestedBy: null,
        // A step of the policy happens once by itself (waiting_steps): no Undo to wait for, and the
        // second reminder is meant to repeat the first.
        hold: false,
        repeatGuard: false,
      });
      return true;
    });
    if (done) acted++;
  }
  return acted;
}

/** Runs the waiting policy every minute on this instance (each step still happens once overall). */
export async function startWaitingPolicy(app: FastifyInstance): Promise<() => Promise<void>> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running) return;
    running = scanWaiting(app.ctx.db, new Date(), { stopping: () => stopped })
      .catch((err) => app.log.warn({ err }, 'waiting policy scan failed'))
      .finally(() => {
        running = null;
      });
  }, 60_000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
