import { and, eq, isNull, sql } from 'drizzle-orm';
import { CLOSED_STATUSES, type MailProvider } from '../../shared/constants.js';
import type { StaffIdentity } from '../context.js';
import { recordAudit } from '../db/audit-log.js';
import type { DbOrTx } from '../db/client.js';
import { documents } from '../db/schema.js';
import { recordEvents } from './events.js';
import { refuseConflict, refuseForbidden, refuseNotFound } from './refusal.js';
import { type LockedOrder, latestDocument } from './repository.js';
import { applyHolderRule, assertVersion } from './rules.js';
import { inTransaction, lockOne } from './transaction.js';

/**
 * The order's documents: the approved card attached (with its mail in flows/attach-document.ts),
 * resent, undone, withdrawn, and the government's card stored; and the checks a mail to the customer
 * follows.
 */

/** A file already checked and stored (documents/upload.ts), to attach to an order. */
export interface StoredDocument {
  key: string;
  originalName: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/**
 * The card goes to the order's own address; another address only when an Admin or Manager confirms it
 * (decision 297): 403 for other roles, 409 asking for the confirmation.
 */
export function assertRecipient(
  order: LockedOrder,
  email: string,
  actor: StaffIdentity,
  confirmed?: boolean,
): void {
  if (email.trim().toLowerCase() === order.email.trim().toLowerCase()) return;
  if (actor.type !== 'Admin' && actor.type !== 'Manager') {
    throw refuseForbidden(
      `The card is mailed to the order's own address (${order.email}); only an Admin or Manager can send it elsewhere.`,
    );
  }
  if (!confirmed) {
    throw refuseConflict(
      `${email} is not the order's address (${order.email}). Confirm to mail the card to ${email}.`,
      { orderEmail: order.email, confirmOtherAddress: true },
    );
  }
}

/**
 * The checks of an upload that mails the card (decision 297), on the locked order: no upload to a
 * Deleted order, the version, the holder rule (a takeover for an Admin or Manager who asks) and the
 * order's own address unless an Admin or Manager confirms another.
 */
export async function lockForUpload(
  tx: DbOrTx,
  actor: StaffIdentity,
  input: {
    orderId: number;
    email: string;
    expectedVersion?: number | undefined;
    takeOver?: boolean | undefined;
    confirmOtherAddress?: boolean | undefined;
  },
): Promise<LockedOrder> {
  const order = await lockOne(tx, input.orderId);
  await assertVersion(tx, order, input.expectedVersion);
  if (order.processStatus === 'Deleted') {
    throw refuseConflict('The order is deleted: restore it before uploading a document.');
  }
  await applyHolderRule(tx, order, actor, input.takeOver ?? false);
  assertRecipient(order, input.email, actor, input.confirmOtherAddress);
  return order;
}

/** A checked and stored file becomes the order's current document, with its upload event. */
export async function insertDocument(
  tx: DbOrTx,
  actor: StaffIdentity,
  orderId: number,
  file: StoredDocument,
  provider: MailProvider,
): Promise<number> {
  const [doc] = await tx
    .insert(documents)
    .values({
      orderId,
      storageKey: file.key,
      originalName: file.originalName,
      mimeType: file.mimeType,
      sizeBytes: file.size,
      sha256: file.sha256,
      mailServiceProvider: provider,
      uploadedBy: actor.id,
    })
    .returning({ id: documents.id });
  await recordEvents(tx, [{ orderId, actorId: actor.id, action: 'upload', toValue: file.originalName }]);
  return doc!.id;
}

/**
 * The checks of a resend of the current document, on the locked order: the version, not Deleted, a
 * current document, and the order's own address unless an Admin or Manager confirms another. Answers
 * the document.
 */
export async function lockForResend(
  tx: DbOrTx,
  actor: StaffIdentity,
  input: {
    orderId: number;
    email: string;
    expectedVersion?: number | undefined;
    confirmOtherAddress?: boolean | undefined;
  },
): Promise<{ id: number }> {
  const order = await lockOne(tx, input.orderId);
  await assertVersion(tx, order, input.expectedVersion);
  if (order.processStatus === 'Deleted') throw refuseConflict('The order is deleted: no mail is sent.');
  const doc = await latestDocument(tx, input.orderId);
  if (!doc) throw refuseConflict('No document has been uploaded for this order yet.');
  assertRecipient(order, input.email, actor, input.confirmOtherAddress);
  return doc;
}

/**
 * The upload an undo of "Use as approved card" names, on the locked order: refused when unknown, or
 * when someone else uploaded it (only the member who did it may undo it).
 */
export async function lockOwnUpload(
  tx: DbOrTx,
  actor: StaffIdentity,
  input: { orderId: number; documentId: number },
): Promise<typeof documents.$inferSelect> {
  await lockOne(tx, input.orderId);
  const [doc] = await tx
    .select()
    .from(documents)
    .where(and(eq(documents.id, input.documentId), eq(documents.orderId, input.orderId)))
    .limit(1);
  if (!doc) throw refuseNotFound('Document not found');
  if (doc.uploadedBy !== actor.id)
    throw refuseForbidden('Only the member who used the file as the card can undo it.');
  return doc;
}

/** The undone upload is withdrawn (kept for the record), with the events of its cancelled mail and itself. */
export async function withdrawUndoneUpload(
  tx: DbOrTx,
  actor: StaffIdentity,
  input: { orderId: number; documentId: number; originalName: string },
  cancelled: { id: number; kind: string },
): Promise<void> {
  await tx
    .update(documents)
    .set({
      withdrawnAt: sql`now()`,
      withdrawnBy: actor.id,
      withdrawReason: 'Undone within the undo window',
    })
    .where(eq(documents.id, input.documentId));
  await recordEvents(tx, [
    {
      orderId: input.orderId,
      actorId: actor.id,
      action: 'mail',
      toValue: `${cancelled.kind} mail ${cancelled.id} cancelled by Undo`,
    },
    {
      orderId: input.orderId,
      actorId: actor.id,
      action: 'withdraw',
      fromValue: input.originalName,
      toValue: 'Undone within the undo window',
    },
  ]);
}

/**
 * Withdraws a wrongly uploaded document with a reason: kept for the record, never served or mailed
 * again; the previous upload becomes current. 404 for an unknown document, 409 when already withdrawn.
 */
export async function withdrawDocument(
  db: DbOrTx,
  actor: StaffIdentity,
  input: { documentId: number; reason: string; ip?: string | null },
): Promise<{ id: number; order_id: number; current_document_id: number | null }> {
  return inTransaction(db, async (tx) => {
    const [found] = await tx
      .select({ orderId: documents.orderId })
      .from(documents)
      .where(eq(documents.id, input.documentId))
      .limit(1);
    if (!found) throw refuseNotFound('Document not found');
    await lockOne(tx, found.orderId);
    const [doc] = await tx
      .update(documents)
      .set({ withdrawnAt: sql`now()`, withdrawnBy: actor.id, withdrawReason: input.reason })
      .where(and(eq(documents.id, input.documentId), isNull(documents.withdrawnAt)))
      .returning();
    if (!doc) throw refuseConflict('The document has already been withdrawn.');
    await recordEvents(tx, [
      {
        orderId: doc.orderId,
        actorId: actor.id,
        action: 'withdraw',
        fromValue: doc.originalName,
        toValue: input.reason,
      },
    ]);
    await recordAudit(tx, {
      action: 'document.withdraw',
      actorId: actor.id,
      target: `order ${doc.orderId}, document ${doc.id}`,
      from: { fileName: doc.originalName },
      to: { reason: input.reason },
      ip: input.ip ?? null,
    });
    const current = await latestDocument(tx, doc.orderId);
    return { id: doc.id, order_id: doc.orderId, current_document_id: current?.id ?? null };
  });
}

/** A file the government mailed, stored under the upload rules (src/server/flows/government-mail.ts). */
export interface GovernmentFile {
  key: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/**
 * The government's card for an order, as an upload by the system user "Government mail": it becomes the
 * order's current document, with its upload event. The same PDF (sha256) twice on one order, or a
 * closed order, stores nothing (null).
 */
export async function attachGovernmentCard(
  db: DbOrTx,
  orderId: number,
  file: GovernmentFile,
): Promise<{ documentId: number } | null> {
  return inTransaction(db, async (tx) => {
    const order = await lockOne(tx, orderId);
    if ((CLOSED_STATUSES as readonly string[]).includes(order.processStatus)) return null;
    const [same] = await tx
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.orderId, orderId), eq(documents.sha256, file.sha256)))
      .limit(1);
    if (same) return null;
    const [doc] = await tx
      .insert(documents)
      .values({
        orderId,
        storageKey: file.key,
        originalName: file.name,
        mimeType: file.mimeType,
        sizeBytes: file.size,
        sha256: file.sha256,
        uploadedBy: null,
      })
      .returning({ id: documents.id });
    await recordEvents(tx, [
      { orderId, actorId: null, action: 'upload', toValue: `${file.name} (Government mail)`.slice(0, 200) },
    ]);
    return { documentId: doc!.id };
  });
}

/**
 * A macro's mail step follows the rules of a move even without one (decision 295): the holder rule
 * (takeover for Admin/Manager) and, for a mail-only step, no mail to Deleted or Completed Refunds orders.
 */
export async function assertMayMail(
  tx: DbOrTx,
  actor: StaffIdentity,
  order: LockedOrder,
  mailOnly: boolean,
  takeOver: boolean,
): Promise<void> {
  if (mailOnly && order.processStatus === 'Deleted')
    throw refuseConflict('The order is deleted: no mail is sent.');
  if (mailOnly && order.processStatus === 'Refunded') {
    throw refuseConflict('The order is in Completed Refunds: no mail is sent.');
  }
  await applyHolderRule(tx, order, actor, takeOver);
}

/**
 * A mail-only step on one order (a staff reply): the order locked, the rules of a macro's mail step
 * (assertMayMail: not Deleted or Completed Refunds, the holder rule) and then the version the client saw.
 */
export async function lockForMail(
  tx: DbOrTx,
  actor: StaffIdentity,
  input: { orderId: number; expectedVersion?: number | undefined; takeOver?: boolean | undefined },
): Promise<LockedOrder> {
  const order = await lockOne(tx, input.orderId);
  await assertMayMail(tx, actor, order, true, input.takeOver ?? false);
  await assertVersion(tx, order, input.expectedVersion);
  return order;
}
