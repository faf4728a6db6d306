import type { DbOrTx } from '../db/client.js';
import { queueMail } from '../mail/outbox.js';

/** An order that has just entered a status, as the status change knows it. */
export interface EnteredOrder {
  orderId: number;
  email: string;
  /** The status it left. */
  processStatus: string;
}

/**
 * Queues the customer mails for orders that entered status `to`, in the caller's transaction (the one
 * of the move and its order event). A restore (out of Deleted) mails nobody.
 */
export async function notifyStatusEntered(
  tx: DbOrTx,
  actorId: number | null,
  entered: readonly EnteredOrder[],
  to: string,
  opts: { restore?: boolean } = {},
): Promise<void> {
  if (opts.restore || to !== 'Refunded') return;
  for (const o of entered) {
    await queueMail(tx, {
      orderId: o.orderId,
      kind: 'refund',
      toEmail: o.email,
      provider: 'AWS',
      requestedBy: actorId,
    });
  }
}
