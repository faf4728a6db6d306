import type { Db } from '../db/client.js';
import { ROUTING_BATCH, routeWaitingOrders, startRoutingPass } from '../routing/assignments.js';

/**
 * Automatic assignment (docs/product.md, "Routing"): hands the unassigned orders of the routed folders to
 * the members on shift, a batch per transaction, until none is left or nobody can take more. Safe on
 * several instances: one pass at a time holds the routing advisory lock (another instance's pass finds it
 * taken and leaves the work to it), and the orders are locked with SKIP LOCKED, so a claim or a move in
 * progress is never waited for nor assigned twice. It finds its orders by itself: whatever brought an
 * order into a routed folder (intake, a submission window opening, a customer's answer, a release), the
 * next pass picks it up. Answers how many orders were assigned.
 */
export async function routeOrders(db: Db, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const assigned = await db.transaction(async (tx) => {
      const start = await startRoutingPass(tx);
      return start ? (await routeWaitingOrders(tx, start, now)).length : 0;
    });
    total += assigned;
    if (assigned < ROUTING_BATCH) return total;
  }
}
