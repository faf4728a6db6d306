import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type {
  WaitingPolicy,
  WaitingPolicyPreview,
  WaitingPolicySwitch,
} from '../../shared/contracts/conversation.js';
import { recordAudit } from '../audit/audit.js';
import { queueTemplateMail } from '../mail/template-mail.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { sqlValue } from '../db/sql-lists.js';
import { appSettings, statusNotifications, waitingSteps } from '../db/schema.js';
import { inTransaction } from '../orders/transaction.js';
import { escalateUnanswered } from '../orders/customer-answers.js';
import { lockOrders } from '../orders/repository.js';
import { lookAgainAtAll, setNextLook, setNextLooks } from '../orders/waiting-next.js';

const KEY = 'waitingPolicy';
/** The on/off switch, and since when it is on: a separate setting, so the steps keep their shape. */
const SWITCH_KEY = 'waitingPolicySwitch';
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
    await lookAgainAtAll(tx);
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

interface StoredSwitch {
  enabled: boolean;
  /** ISO time the policy was last switched on; orders waiting since before it start their clock here. */
  since: string | null;
}

async function readSwitch(db: DbOrTx): Promise<StoredSwitch | null> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, SWITCH_KEY));
  return (row?.value as StoredSwitch | undefined) ?? null;
}

/** The switch as the screen shows it; a database that never had one counts as on since it was first used. */
export async function getWaitingSwitch(db: DbOrTx): Promise<WaitingPolicySwitch> {
  const stored = await readSwitch(db);
  return { enabled: stored?.enabled ?? true, enabledSince: stored?.since ?? null };
}

/**
 * On the first start of a database the policy is switched on *now*: orders already waiting (a demo set,
 * an imported backlog) start their clock at this moment instead of being escalated all at once.
 */
export async function ensureWaitingSwitch(db: DbOrTx, now: Date = new Date()): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: SWITCH_KEY, value: { enabled: true, since: now.toISOString() } satisfies StoredSwitch })
    .onConflictDoNothing();
}

export async function setWaitingSwitch(
  db: Db,
  actor: StaffIdentity,
  enabled: boolean,
  ip: string,
  now: Date = new Date(),
): Promise<WaitingPolicySwitch> {
  return db.transaction(async (tx) => {
    const before = await readSwitch(tx);
    const wasOn = before?.enabled ?? true;
    // Switching on starts the clock again; saving "on" over "on" keeps the moment it was switched on.
    const since = enabled && !(wasOn && before?.since) ? now.toISOString() : (before?.since ?? null);
    const value: StoredSwitch = { enabled, since };
    await tx
      .insert(appSettings)
      .values({ key: SWITCH_KEY, value, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: appSettings.key,
        set: { value, updatedBy: actor.id, updatedAt: sql`now()` },
      });
    if (enabled) await lookAgainAtAll(tx);
    await recordAudit(tx, {
      action: 'waiting-policy.switch',
      actorId: actor.id,
      actorEmail: actor.email,
      target: 'waiting policy',
      from: { enabled: wasOn },
      to: { enabled },
      ip,
    });
    return { enabled, enabledSince: since };
  });
}

interface Waiting {
  orderId: number;
  email: string;
  /** When the policy's clock started for this order: its move to Awaiting, or the switch-on if later. */
  since: Date;
  /** True when the order was already waiting when the policy was switched on. */
  waitedBefore: boolean;
}

const AWAITING = sqlValue('Awaiting');

/** Orders in Awaiting, with when they entered it (their latest move there; else their last change). */
async function waitingOrders(db: DbOrTx, switchedOn: Date | null): Promise<Waiting[]> {
  const { rows } = await db.execute<{ order_id: string; email: string; since: string | Date }>(sql`
    select o.order_id::text as order_id, o.email,
      coalesce((select max(e.created_at) from order_events e
                where e.order_id = o.order_id and e.action = 'status' and e.to_value = ${AWAITING}),
               o.updated_at) as since
    from orders o where o.process_status = ${AWAITING}`);
  return rows.map((r) => {
    const entered = new Date(r.since);
    const waitedBefore = switchedOn !== null && entered < switchedOn;
    return {
      orderId: Number(r.order_id),
      email: r.email,
      since: waitedBefore ? switchedOn : entered,
      waitedBefore,
    };
  });
}

/**
 * The orders of a pass: in Awaiting with their next step's time passed (orders_waiting_next_idx), the
 * most overdue first, at most `limit`; with when each entered Awaiting as waitingOrders reads it.
 */
async function dueWaitingOrders(
  db: DbOrTx,
  switchedOn: Date | null,
  now: Date,
  limit: number,
): Promise<Waiting[]> {
  const { rows } = await db.execute<{ order_id: string; email: string; since: string | Date }>(sql`
    select o.order_id::text as order_id, o.email,
      coalesce((select max(e.created_at) from order_events e
                where e.order_id = o.order_id and e.action = 'status' and e.to_value = ${AWAITING}),
               o.updated_at) as since
    from orders o
    where o.process_status = ${AWAITING} and o.waiting_next_at <= ${now.toISOString()}::timestamptz
    order by o.waiting_next_at limit ${limit}`);
  return rows.map((r) => {
    const entered = new Date(r.since);
    const waitedBefore = switchedOn !== null && entered < switchedOn;
    return {
      orderId: Number(r.order_id),
      email: r.email,
      since: waitedBefore ? switchedOn : entered,
      waitedBefore,
    };
  });
}

/** When the step after `taken` is due (null: no step is left, the policy never looks again). */
function nextStepAt(policy: WaitingPolicy, since: Date, taken: number): Date | null {
  const minutes = [policy.remindAfterMinutes, policy.secondReminderAfterMinutes, policy.escalateAfterMinutes][
    taken
  ];
  return minutes === undefined ? null : new Date(since.getTime() + minutes * 60_000);
}

function dueStep(policy: WaitingPolicy, waitedMinutes: number): 0 | 1 | 2 | 3 {
  if (waitedMinutes >= policy.escalateAfterMinutes) return 3;
  if (waitedMinutes >= policy.secondReminderAfterMinutes) return 2;
  if (waitedMinutes >= policy.remindAfterMinutes) return 1;
  return 0;
}

/** How many orders each step would act on if the policy ran now (a step already taken is not counted). */
export async function previewWaiting(db: DbOrTx, now: Date = new Date()): Promise<WaitingPolicyPreview> {
  const policy = await getWaitingPolicy(db);
  const sw = await getWaitingSwitch(db);
  const waiting = await waitingOrders(db, sw.enabledSince ? new Date(sw.enabledSince) : null);
  const counts = [0, 0, 0, 0];
  const taken = new Set(
    (
      await db
        .select({ orderId: waitingSteps.orderId, since: waitingSteps.since, step: waitingSteps.step })
        .from(waitingSteps)
    ).map((r) => `${r.orderId}|${new Date(r.since).getTime()}|${r.step}`),
  );
  for (const order of waiting) {
    const step = dueStep(policy, (now.getTime() - order.since.getTime()) / 60_000);
    if (step > 0 && !taken.has(`${order.orderId}|${order.since.getTime()}|${step}`)) counts[step]!++;
  }
  return {
    ...sw,
    waiting: waiting.length,
    steps: [
      { step: 1, action: 'reminder', afterMinutes: policy.remindAfterMinutes, orders: counts[1]! },
      {
        step: 2,
        action: 'second-reminder',
        afterMinutes: policy.secondReminderAfterMinutes,
        orders: counts[2]!,
      },
      { step: 3, action: 'contact-customer', afterMinutes: policy.escalateAfterMinutes, orders: counts[3]! },
    ],
  };
}

/** The remark of the escalation: what really happened before it, not what the policy would have done. */
export function escalationRemark(
  policy: WaitingPolicy,
  remindersSent: number,
  waitedBefore: boolean,
): string {
  const days = Math.round(policy.escalateAfterMinutes / DAY);
  const waited = `No answer from the customer ${days > 0 ? `in ${days} day(s)` : 'in time'}`;
  if (remindersSent >= 2) return `${waited} after the request and two reminders: please call.`;
  if (remindersSent === 1) return `${waited} after the request and one reminder: please call.`;
  return waitedBefore
    ? `${waited}: no reminder was sent: the order was waiting before the policy existed. Please call.`
    : `${waited}: no reminder was sent: the reminder steps had passed before the policy checked the order. Please call.`;
}

/** Steps acted on in one pass at most; the rest wait for the next pass, a minute later. */
const MAX_STEPS_PER_PASS = 200;

interface ScanLimits {
  maxSteps?: number;
  /** True once the server is stopping: the pass ends after the step it is in. */
  stopping?: () => boolean;
}

/** Orders looked at in one pass at most (read with one index range; a step is acted on for at most MAX_STEPS_PER_PASS). */
const MAX_LOOKS_PER_PASS = 2000;

/**
 * One pass of the waiting policy at `now` (the clock is injected: tests pass theirs). It reads only the
 * orders in Awaiting whose next step's time has passed (waiting_next_at, drizzle/0100); for each, only
 * the furthest step that is due is acted on, once: the (order, since, step) key makes a second
 * instance's identical pass a no-op, and an answer (which moves the order out of Awaiting) ends its
 * steps. Every order looked at gets its next step's time. Answers how many steps were acted on.
 */
export async function scanWaiting(
  db: Db,
  now: Date = new Date(),
  { maxSteps = MAX_STEPS_PER_PASS, stopping = () => false }: ScanLimits = {},
): Promise<number> {
  const policy = await getWaitingPolicy(db);
  const sw = await getWaitingSwitch(db);
  if (!sw.enabled) return 0;
  let acted = 0;
  // The most overdue read, the longest-waiting of them first; a backlog (a policy switched on over many
  // old orders) is worked off a bounded number of steps per pass, so that a pass stays short and the
  // server can stop between them.
  const waiting = (
    await dueWaitingOrders(db, sw.enabledSince ? new Date(sw.enabledSince) : null, now, MAX_LOOKS_PER_PASS)
  ).sort((a, b) => a.since.getTime() - b.since.getTime());
  // Orders with no step due yet (their time was a first look, or the policy or switch changed): when
  // to look again, written together at the end of the pass.
  const later: { orderId: number; at: Date | null }[] = [];
  for (const order of waiting) {
    if (acted >= maxSteps || stopping()) break;
    const step = dueStep(policy, (now.getTime() - order.since.getTime()) / 60_000);
    if (step === 0) {
      later.push({ orderId: order.orderId, at: nextStepAt(policy, order.since, 0) });
      continue;
    }
    const done = await inTransaction(db, async (tx) => {
      const [locked] = await lockOrders(tx, [order.orderId]);
      if (locked!.processStatus !== 'Awaiting') return false;
      // Earlier steps that were never taken are skipped, not sent late; the rows say which were taken.
      const before = await tx
        .select({ step: waitingSteps.step })
        .from(waitingSteps)
        .where(and(eq(waitingSteps.orderId, order.orderId), eq(waitingSteps.since, order.since)));
      const furthest = Math.max(0, ...before.map((r) => r.step));
      if (furthest >= step) {
        await setNextLook(tx, order.orderId, nextStepAt(policy, order.since, furthest));
        return false;
      }
      const inserted = await tx
        .insert(waitingSteps)
        .values({ orderId: order.orderId, since: order.since, step })
        .onConflictDoNothing()
        .returning({ step: waitingSteps.step });
      if (inserted.length === 0) return false;
      await setNextLook(tx, order.orderId, nextStepAt(policy, order.since, step));
      if (step === 3) {
        const remindersSent = before.filter((r) => r.step < 3).length;
        return escalateUnanswered(
          tx,
          order.orderId,
          escalationRemark(policy, remindersSent, order.waitedBefore),
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
  await setNextLooks(db, later);
  return acted;
}

/** Runs the waiting policy every minute on this instance (each step still happens once overall). */
export async function startWaitingPolicy(app: FastifyInstance): Promise<() => Promise<void>> {
  await ensureWaitingSwitch(app.ctx.db);
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
