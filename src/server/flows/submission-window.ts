import { sql } from 'drizzle-orm';
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
 * On PostgreSQL the opener prepares an opening this long before its moment and commits it on the moment
 * (decision 443): every order of an arrival day opens at the same moment, and moving 10,000 of them takes
 * seconds at a million orders, so the work is done ahead and the orders enter New Orders at the moment
 * itself. Those orders' rows stay locked meanwhile: a change of one of them in the last seconds before its
 * opening waits for the opening.
 */
export const OPENING_LEAD_MS = 10_000;

/** Key of the advisory lock of a prepared opening: one instance prepares it, the others leave it. */
const OPENING_LOCK = sql`8743, 2`;

/**
 * Opens, at the moment `at` (still to come), the windows that open then: the orders are moved now in a
 * transaction that waits for the moment and commits on it, so every instance's counts and lists hear of
 * them then. Another instance preparing the same opening: nothing done here. `stopping` rolls it back
 * (the next tick, or another instance, opens them).
 */
async function openOnTheMoment(db: Db, at: Date, stopping: AbortSignal): Promise<void> {
  await db
    .transaction(async (tx) => {
      const { rows } = await tx.execute<{ ok: boolean }>(
        sql`select pg_try_advisory_xact_lock(${OPENING_LOCK}) as ok`,
      );
      if (rows[0]?.ok !== true) return;
      await openDueSubmissionWindows(tx, at);
      await waitUntil(at, stopping);
      if (stopping.aborted) tx.rollback();
    })
    .catch((err: unknown) => {
      // Stopped while waiting: rolled back on purpose.
      if (!stopping.aborted) throw err;
    });
}

/** Resolves at `at` (the service clock), or at once when `signal` aborts. */
function waitUntil(at: Date, signal: AbortSignal): Promise<void> {
  const ms = at.getTime() - now().getTime();
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The background job that opens submission windows at their exact moment (an opening later in a day;
 * one at midnight needs no job, the service day's change opens it). It sleeps until the next opening,
 * at most a minute, then moves the orders whose opening has come; with `leadMs` (PostgreSQL: the
 * embedded database has one connection, which a waiting transaction would hold) it wakes that long
 * before the opening and prepares it (openOnTheMoment). Every instance runs it; the statement is
 * idempotent, so two instances moving the same order change it once.
 */
export async function startSubmissionWindowOpener(
  db: Db,
  log: { error: (obj: object, msg: string) => void },
  { leadMs = 0 }: { leadMs?: number } = {},
): Promise<() => Promise<void>> {
  let timer: NodeJS.Timeout | null = null;
  const stopping = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    let sleep = OPENER_MAX_SLEEP_MS;
    try {
      await db.transaction((tx) => openDueSubmissionWindows(tx));
      let next = await nextSubmissionOpening(db);
      if (next && leadMs > 0 && next.getTime() - now().getTime() <= leadMs) {
        await openOnTheMoment(db, next, stopping.signal);
        next = await nextSubmissionOpening(db);
      }
      if (next) sleep = Math.min(sleep, Math.max(next.getTime() - now().getTime() - leadMs + 50, 250));
    } catch (err) {
      log.error({ err }, 'opening submission windows failed');
    }
    if (stopping.signal.aborted) return;
    timer = setTimeout(() => {
      running = tick();
    }, sleep);
    timer.unref();
  };
  running = tick();
  return async () => {
    stopping.abort();
    if (timer) clearTimeout(timer);
    await running;
  };
}
