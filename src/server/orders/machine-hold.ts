import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { orders } from '../db/schema.js';
import { recordEvents } from './events.js';
import { assignEach } from './routing-writes.js';

/**
 * Holding of orders by a machine of the job API (src/server/flows/submission-jobs.ts): its staff row
 * (decision 365) becomes or stops being the holder, with the assign event. Call in the caller's
 * transaction, the order locked. Holding raises the version in its own update (VERSION_BUMP), so the
 * assign event only publishes.
 */
export async function holdForMachines(
  tx: DbOrTx,
  holds: readonly { orderId: number; machineUserId: number }[],
): Promise<void> {
  await assignEach(
    tx,
    holds.map((h) => ({ orderId: h.orderId, staffId: h.machineUserId })),
    'assignee',
  );
}

/** The machine lets go of the order, when it still holds it. */
export async function releaseFromMachine(tx: DbOrTx, orderId: number, machineUserId: number): Promise<void> {
  const released = await tx
    .update(orders)
    .set({ assignedTo: null, updatedAt: sql`now()` })
    .where(and(eq(orders.orderId, orderId), eq(orders.assignedTo, machineUserId)))
    .returning({ orderId: orders.orderId });
  if (!released.length) return;
  await recordEvents(tx, [
    { orderId, actorId: machineUserId, action: 'assign', fromValue: String(machineUserId), toValue: null },
  ]);
}
