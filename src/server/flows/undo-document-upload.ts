import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { cancelHeldDocumentMail } from '../mail/limits.js';
import { lockOwnUpload, withdrawUndoneUpload } from '../orders/documents.js';
import { refuseConflict } from '../orders/refusal.js';
import { inTransaction } from '../orders/transaction.js';

/**
 * Undo of "Use as approved card" inside the undo window (decision 358): only the member who did it,
 * only while its approval mail is still held. The mail is cancelled and the document withdrawn (kept
 * for the record), in one transaction with their events. 403 for someone else's upload, 409 when the
 * window is over or the mail already left.
 */
export async function undoDocumentUpload(
  db: DbOrTx,
  actor: StaffIdentity,
  input: { orderId: number; documentId: number },
): Promise<{ documentId: number; cancelledMailId: number }> {
  return inTransaction(db, async (tx) => {
    const doc = await lockOwnUpload(tx, actor, input);
    const cancelled = await cancelHeldDocumentMail(tx, input.orderId, doc.id, actor.id);
    if (!cancelled || doc.withdrawnAt) {
      throw refuseConflict('It is too late to undo: the approval mail has left or the undo time is over.');
    }
    await withdrawUndoneUpload(
      tx,
      actor,
      { orderId: input.orderId, documentId: doc.id, originalName: doc.originalName },
      cancelled,
    );
    return { documentId: doc.id, cancelledMailId: cancelled.id };
  });
}
