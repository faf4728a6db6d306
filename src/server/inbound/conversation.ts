import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { ConversationItem } from '../../shared/contracts/conversation.js';
import type { DbOrTx } from '../db/client.js';
import { contactsOf } from '../orders/contacts.js';
import { clearRepliedFlag } from '../orders/customer-answers.js';
import { failingAddresses, inboundAttachments, inboundMessages, mailLog, orders } from '../db/schema.js';

/**
 * An order's conversation, oldest first: every mail we sent and every message that came in, with
 * their files, and the calls and WhatsApp contacts staff logged. Reading it marks the customer's answers read (the "Customer replied" flag goes).
 */
export async function loadConversation(
  db: DbOrTx,
  orderId: number,
  opts: { markRead: boolean },
): Promise<{ items: ConversationItem[]; failingAddress: boolean } | null> {
  const [order] = await db
    .select({ email: orders.email, repliedAt: orders.customerRepliedAt })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!order) return null;
  const [sent, received, failing, contacts] = await Promise.all([
    db
      .select()
      .from(mailLog)
      .where(eq(mailLog.orderId, orderId))
      .orderBy(asc(mailLog.createdAt), asc(mailLog.id)),
    db
      .select()
      .from(inboundMessages)
      .where(eq(inboundMessages.orderId, orderId))
      .orderBy(asc(inboundMessages.receivedAt), asc(inboundMessages.id)),
    db
      .select({ email: failingAddresses.email })
      .from(failingAddresses)
      .where(eq(failingAddresses.email, order.email.toLowerCase()))
      .limit(1),
    contactsOf(db, orderId),
  ]);
  const files = received.length
    ? await db
        .select()
        .from(inboundAttachments)
        .where(
          inArray(
            inboundAttachments.inboundId,
            received.map((r) => r.id),
          ),
        )
        .orderBy(asc(inboundAttachments.id))
    : [];
  const items: ConversationItem[] = [
    ...sent.map(
      (m): ConversationItem => ({
        direction: 'out',
        id: m.id,
        at: m.createdAt.toISOString(),
        kind: m.kind,
        to: m.toEmail,
        status: m.status,
        provider: m.provider,
        bouncedAt: m.bouncedAt?.toISOString() ?? null,
        bounceReason: m.bounceReason,
        text: m.bodyText,
        subject: m.subject,
        messageId: m.ourMessageId ?? m.messageId,
      }),
    ),
    ...received.map(
      (r): ConversationItem => ({
        direction: 'in',
        id: r.id,
        at: r.receivedAt.toISOString(),
        source: r.source,
        disposition: r.disposition,
        from: r.fromEmail,
        fromName: r.fromName,
        subject: r.subject,
        text: r.bodyText,
        quoted: r.quotedText,
        unread: r.readAt === null,
        attachments: files
          .filter((f) => f.inboundId === r.id)
          .map((f) => ({ id: f.id, name: f.originalName, mimeType: f.mimeType, sizeBytes: f.sizeBytes })),
        refused: r.refusedAttachments,
        senderVerified: r.senderVerified,
        government: r.matchedBy === 'government',
      }),
    ),
    ...contacts.map(
      (c): ConversationItem => ({
        direction: 'contact',
        id: c.id,
        at: c.at.toISOString(),
        kind: c.channel,
        outcome: c.outcome,
        callBackAt: c.callBackAt?.toISOString() ?? null,
        staffName: c.staffName,
        note: c.note,
      }),
    ),
  ].sort((a, b) => a.at.localeCompare(b.at) || a.id - b.id);
  if (opts.markRead && (order.repliedAt || received.some((r) => r.readAt === null))) {
    await db
      .update(inboundMessages)
      .set({ readAt: sql`now()` })
      .where(and(eq(inboundMessages.orderId, orderId), isNull(inboundMessages.readAt)));
    await clearRepliedFlag(db, orderId);
  }
  return { items, failingAddress: failing.length > 0 };
}

/** A stored file of a customer's message on an order. */
export async function attachmentOf(db: DbOrTx, orderId: number, attachmentId: number) {
  const [row] = await db
    .select({
      id: inboundAttachments.id,
      storageKey: inboundAttachments.storageKey,
      originalName: inboundAttachments.originalName,
      mimeType: inboundAttachments.mimeType,
      sizeBytes: inboundAttachments.sizeBytes,
    })
    .from(inboundAttachments)
    .innerJoin(inboundMessages, eq(inboundMessages.id, inboundAttachments.inboundId))
    .where(and(eq(inboundAttachments.id, attachmentId), eq(inboundMessages.orderId, orderId)))
    .limit(1);
  return row ?? null;
}

/** Unmatched mail, newest first. */
export async function listUnmatched(db: DbOrTx, limit: number, offset: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: inboundMessages.id,
        at: inboundMessages.receivedAt,
        from: inboundMessages.fromEmail,
        fromName: inboundMessages.fromName,
        subject: inboundMessages.subject,
        text: inboundMessages.bodyText,
        reason: inboundMessages.unmatchedReason,
        attachments: sql<number>`(select count(*)::int from ${inboundAttachments} where ${inboundAttachments.inboundId} = ${inboundMessages.id})`,
      })
      .from(inboundMessages)
      .where(eq(inboundMessages.disposition, 'unmatched'))
      .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(inboundMessages).where(eq(inboundMessages.disposition, 'unmatched')),
  ]);
  return {
    total: total?.n ?? 0,
    items: rows.map((r) => ({ ...r, at: r.at.toISOString(), text: r.text.slice(0, 500) })),
  };
}

/**
 * Orders with an unread answer from the customer that one staff member sees as theirs: the orders
 * they hold, and the unassigned ones (New Orders).
 */
export async function repliedCount(db: DbOrTx, staffId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orders)
    .where(
      and(
        isNotNull(orders.customerRepliedAt),
        sql`(${orders.assignedTo} = ${staffId} or ${orders.assignedTo} is null)`,
      ),
    );
  return row?.n ?? 0;
}
