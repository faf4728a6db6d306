import type { MailProvider } from '../../shared/constants.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { resendRefusal } from '../mail/resend-limits.js';
import { mailLimitError } from '../mail/limits.js';
import { queueMailHeld } from '../mail/outbox.js';
import { assertCardMayLeave } from '../orders/card-gate.js';
import { insertDocument, lockForUpload, type StoredDocument } from '../orders/documents.js';
import { inTransaction } from '../orders/transaction.js';

export interface AttachDocumentInput {
  orderId: number;
  file: StoredDocument;
  /** Where the approval mail goes, and through which provider. */
  email: string;
  provider: MailProvider;
  expectedVersion?: number | undefined;
  /** Admin or Manager: take over an order someone else holds. */
  takeOver?: boolean | undefined;
  /** Admin or Manager: the card really goes to an address other than the order's. */
  confirmOtherAddress?: boolean | undefined;
  /**
   * A caller that checks the card before it leaves (flows/card-check.ts) stores it with `false`, then
   * sends it with queueApprovalMail when the card gate is clear. Default true: stored and mailed at once.
   */
  mail?: boolean | undefined;
  /** The approval mail waits for the undo window (a file a customer sent, used as the card). */
  hold?: boolean | undefined;
}

/**
 * The approved document: attached to the order (it becomes the current document) and the approval
 * mail with it queued, in one transaction. It follows the rules of a move (decision 297): no upload to a
 * Deleted order, the holder rule, the card limits per order and per staff member, and the order's own
 * address unless an Admin or Manager confirms another. The caller removes the stored file if this throws.
 */
export async function attachDocument(
  db: DbOrTx,
  actor: StaffIdentity,
  input: AttachDocumentInput,
): Promise<{ mailId: number | null; documentId: number; heldUntil: string | null }> {
  return inTransaction(db, async (tx) => {
    const { orderId, file } = input;
    await lockForUpload(tx, actor, input);
    // The card limits of resend-mail hold for the upload too: an upload mails the card.
    const refusal = await resendRefusal(tx, orderId, actor.id, { uploads: true });
    if (refusal) throw mailLimitError(refusal.message, refusal.retryAfterSeconds);
    const documentId = await insertDocument(tx, actor, orderId, file, input.provider);
    if (input.mail === false) return { mailId: null, documentId: documentId, heldUntil: null };
    await assertCardMayLeave(tx, [orderId]);
    const mail = await queueApprovalMail(tx, actor, {
      orderId,
      documentId: documentId,
      email: input.email,
      provider: input.provider,
      hold: input.hold ?? false,
    });
    return { mailId: mail.id, documentId: documentId, heldUntil: mail.holdUntil?.toISOString() ?? null };
  });
}

/**
 * The approval mail of a document just attached (attachDocument with `mail: false`), in the caller's
 * transaction, once the card gate is clear (the caller asked it).
 */
export async function queueApprovalMail(
  tx: DbOrTx,
  actor: StaffIdentity,
  input: {
    orderId: number;
    documentId: number;
    email: string;
    provider: MailProvider;
    /** The mail waits for the undo window (a file a customer sent, used as the card). */
    hold?: boolean | undefined;
  },
): Promise<{ id: number; holdUntil: Date | null }> {
  return queueMailHeld(tx, {
    orderId: input.orderId,
    kind: 'approval',
    toEmail: input.email,
    provider: input.provider,
    documentId: input.documentId,
    requestedBy: actor.id,
    hold: input.hold ?? false,
  });
}
