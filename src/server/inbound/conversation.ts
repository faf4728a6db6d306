import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { ConversationItem } from '../../shared/contracts/conversation.js';
import type { DbOrTx } from '../db/client.js';
import { contactsOf } from '../orders/contacts.js';
import { clearRepliedFlag } from '../orders/customer-answers.js';
import type { Config } from '../config.js';
import {
  failingAddresses,
  inboundAttachments,
  inboundMessages,
  mailLog,
  orders,
  staffUsers,
} from '../db/schema.js';
import { loggedMailContent } from '../mail/compose.js';

/**
 * An order's conversation, oldest first: every mail we sent and every message that came in, with
 * their files, and the calls and WhatsApp contacts staff logged. With `markRead` reading it marks the
 * customer's answers read; the staff screen reads it without, and marks them read once the conversation
 * has been on screen (markConversationRead).
 */
export async function loadConversation(
  db: DbOrTx,
  orderId: number,
  opts: { markRead: boolean; config?: Config },
): Promise<{ items: ConversationItem[]; failingAddress: boolean } | null> {
  const [order] = await db
    .select({ email: orders.email, repliedAt: orders.customerRepliedAt })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!order) return null;
  const [sent, received, failing, contacts] = await Promise.all([
    db
      .select({ mail: mailLog, author: staffUsers.name })
      .from(mailLog)
      .leftJoin(staffUsers, eq(staffUsers.id, mailLog.requestedBy))
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
  // What each mail said: the staff member's own words, or its template as it was rendered.
  const config = opts.config;
  const contents = await Promise.all(
    sent.map(({ mail }) =>
      config ? loggedMailContent(db, config, mail).catch(() => null) : Promise.resolve(null),
    ),
  );
  const items: ConversationItem[] = [
    ...sent.map(
      ({ mail: m, author }, i): ConversationItem => ({
        direction: 'out',
        id: m.id,
        at: m.createdAt.toISOString(),
        kind: m.kind,
        to: m.toEmail,
        status: m.status,
        provider: m.provider,
        bouncedAt: m.bouncedAt?.toISOString() ?? null,
        bounceReason: m.bounceReason,
        text: contents[i]?.text ?? m.bodyText,
        subject: contents[i]?.subject ?? m.subject,
        messageId: m.ourMessageId ?? m.messageId,
        author: m.requestedBy === null ? null : (author ?? 'A former team member'),
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
          .map((f) => ({
            id: f.id,
            name: f.originalName,
            mimeType: f.mimeType,
            sizeBytes: f.sizeBytes,
            savedAt: f.savedAt?.toISOString() ?? null,
          })),
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
    await markConversationRead(db, orderId);
  }
  return { items, failingAddress: failing.length > 0 };
}

/**
 * The answers read: the conversation was on a member's screen, or they chose
 * "Mark read". The unread messages get their read time and the "Customer replied" flag goes. Answers
 * how many messages were unread.
 */
export async function markConversationRead(db: DbOrTx, orderId: number): Promise<number> {
  const read = await db
    .update(inboundMessages)
    .set({ readAt: sql`now()` })
    .where(and(eq(inboundMessages.orderId, orderId), isNull(inboundMessages.readAt)))
    .returning({ id: inboundMessages.id });
  await clearRepliedFlag(db, orderId);
  return read.length;
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
        // Qualified by hand: inside the subquery an unqualified "id" would be the attachment's own id.
        attachments: sql<number>`(select count(*)::int from inbound_attachments a where a.inbound_id = inbound_messages.id)`,
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
