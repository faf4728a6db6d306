import { and, asc, eq } from 'drizzle-orm';
import type { DefencePackDetails } from '../../shared/contracts/defence-pack.js';
import type { DbOrTx } from '../db/client.js';
import { orderEvents, staffUsers } from '../db/schema.js';
import { ERASE_ACTION } from './settings.js';

export type ErasureRecord = NonNullable<DefencePackDetails['erasure']>;

const PREFIX = 'Personal data erased: ';
const REASON = '. Reason: ';

/**
 * The erasure of an order's personal data as its order event recorded it (when, by whom, what was erased
 * and why), for the Defence Packs; null when the order was never erased. The event's own text is the
 * record, so a pack states what was erased at the time, whatever the list says today.
 */
export async function loadErasure(db: DbOrTx, orderId: number): Promise<ErasureRecord | null> {
  const [row] = await db
    .select({ at: orderEvents.createdAt, text: orderEvents.toValue, by: staffUsers.name })
    .from(orderEvents)
    .leftJoin(staffUsers, eq(staffUsers.id, orderEvents.actorId))
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.action, ERASE_ACTION)))
    .orderBy(asc(orderEvents.createdAt))
    .limit(1);
  if (!row) return null;
  const text = row.text ?? '';
  const cut = text.indexOf(REASON);
  const what = (cut >= 0 ? text.slice(0, cut) : text).replace(PREFIX, '');
  return {
    erased_at: row.at.toISOString(),
    by: row.by ?? null,
    erased: what || 'personal data',
    reason: cut >= 0 ? text.slice(cut + REASON.length) : null,
  };
}
