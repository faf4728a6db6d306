import type { Db } from '../db/client.js';
import { subtractWorkingMinutes, workingHoursSet } from '../due-time/working-hours.js';
import { releaseIdle } from '../orders/routing-writes.js';
import { getRoutingPolicy } from '../routing/policy.js';

/** At most this many orders released per transaction. */
const RELEASE_BATCH = 500;

/**
 * Claims that do not rot (docs/product.md, "Routing"): held orders whose holder did nothing for the
 * policy's `idleMinutesToRelease` (working minutes where the calendar is set) go back to their folder, unheld, each with its event (no actor:
 * "Routing"); the former holder hears it on the live stream. Routing hands them out again on its next
 * pass. Answers the released orders and their former holders.
 */
export async function releaseIdleOrders(db: Db, now: Date): Promise<{ orderId: number; holder: number }[]> {
  const { idleMinutesToRelease, updatedAt } = await getRoutingPolicy(db);
  // Until someone saves the routing policy nothing is released: an upgrade never empties My Orders by
  // surprise (decision 380).
  if (idleMinutesToRelease === null || updatedAt === null) return [];
  // Working minutes where the calendar is set: a claim does not rot over a weekend nobody works.
  const cutoff = (await workingHoursSet(db))
    ? await subtractWorkingMinutes(db, now, idleMinutesToRelease)
    : new Date(now.getTime() - idleMinutesToRelease * 60_000);
  const all: { orderId: number; holder: number }[] = [];
  for (;;) {
    const released = await db.transaction((tx) => releaseIdle(tx, cutoff, RELEASE_BATCH));
    all.push(...released);
    if (released.length < RELEASE_BATCH) return all;
  }
}
