import type { DbOrTx } from '../db/client.js';

/**
 * The staff's request shown with the action_needed stage (docs/decisions/212): the plain text of the
 * latest customer mail queued for the order since it entered its current status. Null when there is none.
 */
export async function customerRequestText(
  _db: DbOrTx,
  _orderId: number,
  _since: Date | null,
): Promise<string | null> {
  return null;
}
