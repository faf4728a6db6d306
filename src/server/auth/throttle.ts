import { eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { loginThrottle } from '../db/schema.js';
import { now } from './clock.js';

export interface ThrottleRule {
  /** Checks allowed per window. */
  limit: number;
  windowMinutes: number;
}

export interface ThrottleHit {
  /** This attempt is within the limit: the check may run. */
  allowed: boolean;
  /** Whole minutes until the window ends (at least 1). */
  retryMinutes: number;
}

let lastSweep = 0;

/**
 * Counts one attempt under `key` atomically (one upsert: concurrent attempts each get their own
 * number) and says whether it is within the limit. Call it BEFORE the costly check, so a burst of
 * parallel attempts can never run more checks than the limit.
 */
export async function hitThrottle(db: DbOrTx, key: string, rule: ThrottleRule): Promise<ThrottleHit> {
  const at = now();
  const windowStartMin = new Date(at.getTime() - rule.windowMinutes * 60_000);
  const stale = sql`${loginThrottle.windowStart} <= ${windowStartMin.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(loginThrottle)
    .values({ key, windowStart: at, attempts: 1 })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        attempts: sql`case when ${stale} then 1 else ${loginThrottle.attempts} + 1 end`,
        windowStart: sql`case when ${stale} then ${at.toISOString()}::timestamptz else ${loginThrottle.windowStart} end`,
      },
    })
    .returning({ attempts: loginThrottle.attempts, windowStart: loginThrottle.windowStart });
  await sweep(db, at);
  const endsAt = new Date(row!.windowStart).getTime() + rule.windowMinutes * 60_000;
  return {
    allowed: row!.attempts <= rule.limit,
    retryMinutes: Math.max(1, Math.ceil((endsAt - at.getTime()) / 60_000)),
  };
}

/** Gives back one counted attempt (a check that succeeded does not use up the budget). */
export async function refundThrottle(db: DbOrTx, key: string): Promise<void> {
  await db
    .update(loginThrottle)
    .set({ attempts: sql`greatest(${loginThrottle.attempts} - 1, 0)` })
    .where(eq(loginThrottle.key, key));
}

/** Clears a key (a successful sign-in from that address). */
export async function resetThrottle(db: DbOrTx, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

/** Drops counters whose window ended a day ago, at most every ten minutes per process. */
async function sweep(db: DbOrTx, at: Date): Promise<void> {
  if (at.getTime() - lastSweep < 10 * 60_000) return;
  lastSweep = at.getTime();
  await db.delete(loginThrottle).where(lt(loginThrottle.windowStart, new Date(at.getTime() - 86_400_000)));
}
