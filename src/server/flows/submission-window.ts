import type { SubmissionPolicy } from '../../shared/contracts/submission.js';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { Db } from '../db/client.js';
import { now } from '../auth/clock.js';
import {
  applySubmissionWindow,
  nextSubmissionOpening,
  openDueSubmissionWindows,
} from '../orders/submission-window.js';
import { getSubmissionPolicy, saveSubmissionPolicy } from '../submission/policy.js';

/**
 * A change of the submission policy (docs/product.md, "Submitting to the government"): the policy, the
 * New orders moved into or out of Future Orders at once, and the audit entry, in one transaction. The
 * counters follow the orders (their trigger), so every instance's counts and lists hear of it.
 */
export async function changeSubmissionPolicy(
  db: Db,
  actor: StaffIdentity,
  next: SubmissionPolicy,
  ip: string | null,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { updatedAt: _a, updatedBy: _b, ...before } = await getSubmissionPolicy(tx);
    await saveSubmissionPolicy(tx, next, actor.id);
    const moved = before.windowHours === next.windowHours ? [] : await applySubmissionWindow(tx, 'all');
    await recordAudit(tx, {
      action: 'submission-policy.update',
      actorId: actor.id,
      actorEmail: actor.email,
      target: 'settings:submissionPolicy',
      from: before,
      to: { ...next, movedOrders: moved.length },
      ip,
    });
    return moved.length;
  });
}

/** The opener looks again at least this often (a policy change or an intake may bring a nearer opening). */
const OPENER_MAX_SLEEP_MS = 60_000;

/**
 * The background job that opens submission windows at their exact moment (an opening later in a day;
 * one at midnight needs no job, the service day's change opens it). It sleeps until the next opening,
 * at most a minute, then moves the orders whose opening has come. Every instance runs it; the statement
 * is idempotent, so two instances moving the same order change it once.
 */
export async function startSubmissionWindowOpener(
  db: Db,
  log: { error: (obj: object, msg: string) => void },
): Promise<() => Promise<void>> {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    let sleep = OPENER_MAX_SLEEP_MS;
    try {
      await db.transaction((tx) => openDueSubmissionWindows(tx));
      const next = await nextSubmissionOpening(db);
      if (next) sleep = Math.min(sleep, Math.max(next.getTime() - now().getTime() + 50, 250));
    } catch (err) {
      log.error({ err }, 'opening submission windows failed');
    }
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick();
    }, sleep);
    timer.unref();
  };
  running = tick();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}
