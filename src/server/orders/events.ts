import type { OrderEventAction } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { orderEvents } from '../db/schema.js';

/** One entry of an order's history. */
export interface OrderEvent {
  orderId: number;
  /** The staff member who did it; null for the system and the customer. */
  actorId?: number | null;
  /** 'customer' when the customer made the change on the track page. */
  actorKind?: 'customer' | null;
  action: OrderEventAction;
  fromValue?: string | null;
  toValue?: string | null;
}

/**
 * The one writer of the order history (order_events). Call it in the transaction of the change it
 * records: the live stream publishes each row at commit (a trigger on order_events), so a change and its
 * event are seen together or not at all.
 */
export async function recordEvents(tx: DbOrTx, events: readonly OrderEvent[]): Promise<void> {
  if (!events.length) return;
  await tx.insert(orderEvents).values(
    events.map((e) => ({
      orderId: e.orderId,
      actorId: e.actorId ?? null,
      ...(e.actorKind ? { actorKind: e.actorKind } : {}),
      action: e.action,
      fromValue: e.fromValue ?? null,
      toValue: e.toValue ?? null,
    })),
  );
}
