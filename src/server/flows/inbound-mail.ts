import { Readable } from 'node:stream';
import { and, desc, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import { CUSTOMER_MSG } from '../../shared/contracts/customer.js';
import type { Config } from '../config.js';
import type { Db, DbOrTx } from '../db/client.js';
import { inboundAttachments, inboundMessages, mailLog, orderEvents, orders } from '../db/schema.js';
import { removeStored } from '../documents/storage.js';
import { sanitizeFileName, storeUpload } from '../documents/upload.js';
import { scanCustomerFiles } from './passport-scan.js';
import { HttpError } from '../http/errors.js';
import { inTransaction } from '../orders/transaction.js';
import { recordEvents } from '../orders/events.js';
import { bounced, customerAnswered, lockOrderStatus } from '../orders/customer-answers.js';
import { lockOrders } from '../orders/repository.js';
import { INBOUND_LIMITS, type InboundMail } from '../inbound/parse.js';
import { senderAuthenticated } from '../inbound/sender-authentication.js';
import { mailOfMessageId, orderOfReplyAddress } from '../mail/reply-tokens.js';
import { CLOSED_STATUSES } from '../../shared/constants.js';

export const DISPOSITIONS = ['attached', 'unmatched', 'auto-reply', 'bounce', 'duplicate'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export interface InboundResult {
  orderId: number | null;
  disposition: Disposition;
  inboundId: number | null;
}

type MatchRule = 'token' | 'thread' | 'subject' | 'sender' | 'government';

interface Match {
  orderId: number;
  by: MatchRule;
  mailId?: number | null;
  /**
   * The match may move the order: a signed name (reply address, our Message-ID, a thread), or a sender
   * our receiving server authenticated (decision 350). False: attached, marked, moves nothing.
   */
  verified: boolean;
}

/** Outbox rows named by Message-IDs: our signed ids first (no lookup), then the providers' ids. */
async function mailsByIds(db: DbOrTx, config: Config, ids: string[]) {
  if (!ids.length) return [];
  const signed = ids
    .map((id) => mailOfMessageId(config.JWT_SECRET, id))
    .filter((n): n is number => n !== null);
  const locals = ids.map((id) => id.replace(/^<|>$/g, '').split('@')[0]!).filter((l) => l.length >= 6);
  const rows = await db
    .select({
      id: mailLog.id,
      orderId: mailLog.orderId,
      toEmail: mailLog.toEmail,
      messageId: mailLog.messageId,
      ourMessageId: mailLog.ourMessageId,
      providerMessageId: mailLog.providerMessageId,
    })
    .from(mailLog)
    .where(
      or(
        signed.length ? inArray(mailLog.id, signed) : sql`false`,
        inArray(mailLog.messageId, ids),
        inArray(mailLog.ourMessageId, ids),
        locals.length ? inArray(mailLog.providerMessageId, locals) : sql`false`,
      ),
    )
    .limit(50);
  // Keep the order of `ids` (In-Reply-To first): the nearest message in the thread wins.
  const rank = (r: (typeof rows)[number]) => {
    const i = ids.findIndex(
      (id) =>
        mailOfMessageId(config.JWT_SECRET, id) === r.id ||
        id === r.messageId ||
        id === r.ourMessageId ||
        (r.providerMessageId !== null && id.replace(/^<|>$/g, '').split('@')[0] === r.providerMessageId),
    );
    return i < 0 ? ids.length : i;
  };
  return rows.sort((a, b) => rank(a) - rank(b));
}

/** The order a message answers, strongest rule first (docs/product.md, "Customers answer back"). */
export async function matchOrder(db: DbOrTx, config: Config, mail: InboundMail): Promise<Match | null> {
  const domain = config.INBOUND_REPLY_DOMAIN;
  if (domain) {
    for (const address of mail.recipients) {
      const orderId = orderOfReplyAddress(config.JWT_SECRET, domain, address);
      if (orderId !== null && (await orderExists(db, orderId)))
        return { orderId, by: 'token', verified: true };
    }
  }
  const [thread] = await mailsByIds(db, config, mail.threadIds);
  if (thread) return { orderId: thread.orderId, by: 'thread', mailId: thread.id, verified: true };
  if (mail.threadIds.length) {
    const [earlier] = await db
      .select({ orderId: inboundMessages.orderId })
      .from(inboundMessages)
      .where(
        and(inArray(inboundMessages.messageId, mail.threadIds), sql`${inboundMessages.orderId} is not null`),
      )
      .limit(1);
    if (earlier?.orderId) return { orderId: earlier.orderId, by: 'thread', verified: true };
  }
  if (!mail.fromEmail) return null;
  const verified = senderAuthenticated(
    mail.authResults,
    config.INBOUND_AUTHSERV_ID,
    mail.fromEmail.split('@').pop() ?? '',
  );
  const hash = /#(\d{6,15})\b/.exec(mail.subject);
  if (hash) {
    const orderId = Number(hash[1]);
    const [row] = await db
      .select({ orderId: orders.orderId })
      .from(orders)
      .where(
        and(
          eq(orders.orderId, sql.placeholder('orderId')),
          sql`lower(${orders.email}) = ${sql.placeholder('email')}`,
        ),
      )
      .limit(1)
      .prepare('inbound_match_subject')
      .execute({ orderId, email: mail.fromEmail });
    if (row) return { orderId, by: 'subject', verified };
  }
  const open = await db
    .select({ orderId: orders.orderId })
    .from(orders)
    .where(
      and(
        sql`lower(${orders.email}) = ${mail.fromEmail}`,
        notInArray(orders.processStatus, [...CLOSED_STATUSES]),
      ),
    )
    .limit(2);
  if (open.length === 1) return { orderId: open[0]!.orderId, by: 'sender', verified };
  return null;
}

/** An order whose personal data was erased accepts nothing (decision 352). */
async function isErased(db: DbOrTx, orderId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, sql.placeholder('orderId')), eq(orderEvents.action, 'erase')))
    .limit(1)
    .prepare('inbound_order_erased')
    .execute({ orderId });
  return !!row;
}

/**
 * The mail a delivery report is about, by a name only we can make (decision 351): our signed Message-ID
 * (the returned Message-ID or X-ED-Card-Message-Id), or our signed reply address (the report sent to it,
 * or the returned Reply-To) and then that order's mail to the reported recipient. Anything else (an
 * order number, a provider's id, an address) names nothing.
 */
async function reportedMail(
  db: DbOrTx,
  config: Config,
  mail: InboundMail,
): Promise<{ id: number; orderId: number } | null> {
  const report = mail.report!;
  const signed = report.originalIds
    .map((id) => mailOfMessageId(config.JWT_SECRET, id))
    .filter((n): n is number => n !== null);
  if (signed.length) {
    const [row] = await db
      .select({ id: mailLog.id, orderId: mailLog.orderId })
      .from(mailLog)
      .where(inArray(mailLog.id, signed))
      .orderBy(desc(mailLog.id))
      .limit(1);
    return row ?? null;
  }
  const domain = config.INBOUND_REPLY_DOMAIN;
  if (!domain) return null;
  const orderId = [...report.originalReplyTo, ...mail.recipients]
    .map((a) => orderOfReplyAddress(config.JWT_SECRET, domain, a))
    .find((n): n is number => n !== null);
  if (orderId === undefined) return null;
  const [row] = await db
    .select({ id: mailLog.id, orderId: mailLog.orderId })
    .from(mailLog)
    .where(
      and(
        eq(mailLog.orderId, orderId),
        eq(mailLog.status, 'sent'),
        report.recipient ? sql`lower(${mailLog.toEmail}) = ${report.recipient}` : undefined,
      ),
    )
    .orderBy(desc(mailLog.id))
    .limit(1);
  return row ?? null;
}

async function orderExists(db: DbOrTx, orderId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.orderId })
    .from(orders)
    .where(eq(orders.orderId, sql.placeholder('orderId')))
    .limit(1)
    .prepare('inbound_order_exists')
    .execute({ orderId });
  return !!row;
}

/** Our own mail coming back (a forwarding loop, a copy to ourselves): never recorded. */
function isOwnMail(config: Config, mail: InboundMail): boolean {
  if (mail.messageId && mailOfMessageId(config.JWT_SECRET, mail.messageId) !== null) return true;
  const ours = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM;
  return !!mail.fromEmail && mail.fromEmail === ours.trim().toLowerCase() && mail.ourOrderHeader !== null;
}

export interface StoredAttachment {
  key: string;
  name: string;
  mimeType: string;
  size: number;
  sha256: string;
}

/**
 * Stores a message's files under the documents' upload rules (type by content, bombs refused);
 * what is refused is listed with its reason, never stored.
 */
async function storeAttachments(
  config: Config,
  mail: Pick<InboundMail, 'attachments'>,
): Promise<{ stored: StoredAttachment[]; refused: { name: string; reason: string }[] }> {
  const stored: StoredAttachment[] = [];
  const refused: { name: string; reason: string }[] = [];
  for (const [i, a] of mail.attachments.entries()) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    const name = (a.filename ?? `attachment-${i + 1}`).replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200);
    if (i >= INBOUND_LIMITS.maxAttachments) {
      refused.push({ name, reason: `Only the first ${INBOUND_LIMITS.maxAttachments} files are kept.` });
      continue;
    }
    if (a.content.length > INBOUND_LIMITS.maxAttachmentBytes) {
      refused.push({ name, reason: 'The file is too large. The maximum size is 10 MB.' });
      continue;
    }
    try {
      const file = await storeUpload(config, Readable.from([a.content]));
      stored.push({
        key: file.key,
        name: sanitizeFileName(a.filename, file.extension, 'attachment'),
        mimeType: file.mimeType,
        size: file.size,
        sha256: file.sha256,
      });
    } catch (err) {
      if (!(err instanceof HttpError) || err.statusCode >= 500) {
        for (const s of stored) await removeStored(config, s.key);
        throw err;
      }
      refused.push({ name, reason: err.message });
    }
  }
  return { stored, refused };
}

export interface PipelineContext {
  db: Db;
  config: Config;
}

/**
 * The one inbound pipeline (webhook, mailbox): loop guard, duplicate, delivery report, auto-reply,
 * match, store, effects. The message row and its effects commit together; a second copy of the same
 * Message-ID (another instance, a provider retry) is `duplicate` and changes nothing.
 */
export interface ReceiveOptions {
  /** Never onto an order: to Unmatched Mail with this reason (e.g. an unauthenticated sender). */
  unmatchedReason?: string;
  /**
   * Government mail for an order (src/server/flows/government-mail.ts): attached to it, and these effects
   * run in the message's transaction instead of a customer answer's.
   */
  government?: {
    orderId: number;
    effects: (tx: DbOrTx, inboundId: number, files: readonly StoredAttachment[]) => Promise<void>;
  };
}

export async function receiveMail(
  ctx: PipelineContext,
  mail: InboundMail,
  options: ReceiveOptions = {},
): Promise<InboundResult> {
  const { db, config } = ctx;
  if (isOwnMail(config, mail)) return { orderId: null, disposition: 'auto-reply', inboundId: null };
  if (mail.messageId) {
    const [seen] = await db
      .select({ id: inboundMessages.id, orderId: inboundMessages.orderId })
      .from(inboundMessages)
      .where(eq(inboundMessages.messageId, sql.placeholder('messageId')))
      .limit(1)
      .prepare('inbound_seen')
      .execute({ messageId: mail.messageId });
    if (seen) return { orderId: seen.orderId, disposition: 'duplicate', inboundId: seen.id };
  }

  let disposition: Exclude<Disposition, 'duplicate'>;
  let match: Match | null = null;
  let bouncedMailId: number | null = null;
  if (options.government) {
    disposition = 'attached';
    match = { orderId: options.government.orderId, by: 'government', verified: true };
  } else if (options.unmatchedReason) {
    disposition = 'unmatched';
  } else if (mail.report) {
    const reported = await reportedMail(db, config, mail);
    if (reported) {
      bouncedMailId = reported.id;
      match = { orderId: reported.orderId, by: 'thread', mailId: reported.id, verified: true };
    }
    disposition = match ? 'bounce' : 'unmatched';
  } else {
    match = await matchOrder(db, config, mail);
    disposition = mail.autoReply ? 'auto-reply' : match ? 'attached' : 'unmatched';
  }
  // An erased order accepts nothing: the message is unmatched, its content not kept (decision 352).
  const erased = match !== null && (await isErased(db, match.orderId));
  if (erased) {
    match = null;
    bouncedMailId = null;
    disposition = 'unmatched';
  }
  const kept = erased
    ? { ...mail, fromEmail: null, fromName: null, subject: '', bodyText: '', quotedText: '', attachments: [] }
    : mail;

  const files =
    disposition === 'attached' || disposition === 'unmatched'
      ? await storeAttachments(config, kept)
      : { stored: [], refused: [] };
  const verified = match?.verified ?? true;
  try {
    const result = await inTransaction(db, async (tx) => {
      // The order's lock first, before anything is written (the same order as the waiting policy's
      // scan and every other move of the order; docs/decisions/384).
      if (match) await lockOrderStatus(tx, match.orderId);
      const [row] = await tx
        .insert(inboundMessages)
        .values({
          orderId: match?.orderId ?? null,
          source: 'mail',
          disposition,
          matchedBy: erased ? 'erased' : (match?.by ?? null),
          messageId: mail.messageId,
          fromEmail: kept.fromEmail,
          fromName: kept.fromName,
          subject: kept.subject,
          bodyText: kept.bodyText,
          quotedText: kept.quotedText,
          wasHtml: mail.wasHtml,
          senderVerified: verified,
          sizeBytes: mail.sizeBytes,
          refusedAttachments: files.refused,
          bouncedMailId,
          bounceStatus: mail.report?.status ?? null,
          sentAt: mail.date,
          readAt: disposition === 'attached' ? null : sql`now()`,
          unmatchedReason: options.unmatchedReason ?? null,
        })
        .onConflictDoNothing()
        .returning({ id: inboundMessages.id });
      if (!row) throw new DuplicateMessage();
      if (files.stored.length)
        await tx.insert(inboundAttachments).values(
          files.stored.map((f) => ({
            inboundId: row.id,
            storageKey: f.key,
            originalName: f.name,
            mimeType: f.mimeType,
            sizeBytes: f.size,
            sha256: f.sha256,
          })),
        );
      if (options.government) await options.government.effects(tx, row.id, files.stored);
      else if (match && disposition === 'attached')
        await customerAnswered(
          tx,
          match.orderId,
          `mail from ${mail.fromEmail ?? 'unknown'}`,
          mail.fromEmail,
          match.verified,
        );
      if (match && disposition === 'auto-reply')
        await recordEvents(tx, [
          {
            orderId: match.orderId,
            action: 'customer_reply',
            toValue: `auto-reply from ${mail.fromEmail ?? 'unknown'}`.slice(0, 200),
          },
        ]);
      if (match && disposition === 'bounce' && mail.report && bouncedMailId !== null) {
        if (mail.report.permanent) await bounced(tx, match.orderId, bouncedMailId, mail.report);
        else
          await recordEvents(tx, [
            {
              orderId: match.orderId,
              action: 'bounce',
              toValue: `delayed ${mail.report.status}`.slice(0, 200),
            },
          ]);
      }
      return { orderId: match?.orderId ?? null, disposition, inboundId: row.id };
    });
    // The passport trigger: files the customer named as a passport are scanned after the reply is kept.
    if (result.orderId !== null && result.disposition === 'attached')
      scanCustomerFiles(ctx, result.orderId, files.stored);
    return result;
  } catch (err) {
    for (const f of files.stored) await removeStored(config, f.key);
    if (err instanceof DuplicateMessage) return { orderId: null, disposition: 'duplicate', inboundId: null };
    throw err;
  }
}

class DuplicateMessage extends Error {}

/**
 * Staff attach an unmatched message to an order: the same effects as a matched answer, in one
 * transaction. A message already attached (by someone else a moment ago) answers 409.
 */
export async function attachUnmatched(
  db: Db,
  staffId: number,
  inboundId: number,
  orderId: number,
): Promise<{ orderId: number; processStatus: OrderStatus }> {
  return inTransaction(db, async (tx) => {
    const [msg] = await tx
      .select({
        id: inboundMessages.id,
        disposition: inboundMessages.disposition,
        fromEmail: inboundMessages.fromEmail,
      })
      .from(inboundMessages)
      .where(eq(inboundMessages.id, inboundId))
      .for('update');
    if (!msg) throw new HttpError(404, 'Message not found');
    if (msg.disposition !== 'unmatched')
      throw new HttpError(409, 'This message is already attached to an order.');
    const [order] = await lockOrders(tx, [orderId], 'Order not found');
    if (order!.processStatus === 'Deleted')
      throw new HttpError(409, 'The order is deleted: no message can be attached to it.');
    if (await isErased(tx, orderId))
      throw new HttpError(
        409,
        'The personal data of this order was erased: no message can be attached to it.',
      );
    await tx
      .update(inboundMessages)
      .set({ orderId, disposition: 'attached', matchedBy: 'staff', attachedBy: staffId, readAt: null })
      .where(eq(inboundMessages.id, inboundId));
    const moved = await customerAnswered(tx, orderId, `mail from ${msg.fromEmail ?? 'unknown'}`, null);
    return { orderId, processStatus: moved.to };
  });
}

/**
 * Why the track page may not take an answer for this order (decision 352): an erased (or unknown) order
 * answers as an expired session (401), a Deleted one with the cancelled-order message (409).
 */
export async function trackReplyRefusal(db: DbOrTx, orderId: number): Promise<HttpError | null> {
  const [order] = await db
    .select({ processStatus: orders.processStatus })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!order || (await isErased(db, orderId))) return new HttpError(401, CUSTOMER_MSG.sessionExpired);
  if (order.processStatus === 'Deleted') return new HttpError(409, CUSTOMER_MSG.orderCancelled);
  return null;
}

/** The customer's answer on the track page: the same effects as a mail that matched its order. */
export async function receiveTrackReply(
  ctx: PipelineContext,
  orderId: number,
  message: string,
  files: InboundMail['attachments'],
): Promise<{ inboundId: number }> {
  const { db, config } = ctx;
  const stored = await storeAttachments(config, { attachments: files });
  // On the track page the customer is told at once what is wrong with a file; nothing is kept then.
  const refused = stored.refused[0];
  if (refused) {
    for (const f of stored.stored) await removeStored(config, f.key);
    throw new HttpError(422, `${refused.name}: ${refused.reason}`);
  }
  try {
    const result = await inTransaction(db, async (tx) => {
      const [order] = await lockOrders(tx, [orderId], 'Order not found');
      const refusal = await trackReplyRefusal(tx, orderId);
      if (refusal) throw refusal;
      const { visible, quoted } = { visible: message.trim(), quoted: '' };
      const [row] = await tx
        .insert(inboundMessages)
        .values({
          orderId,
          source: 'track',
          disposition: 'attached',
          matchedBy: 'track',
          fromEmail: order!.email.toLowerCase(),
          fromName: `${order!.firstName} ${order!.lastName}`.trim() || null,
          bodyText: visible,
          quotedText: quoted,
          sizeBytes: Buffer.byteLength(message) + files.reduce((n, f) => n + f.size, 0),
          refusedAttachments: stored.refused,
        })
        .returning({ id: inboundMessages.id });
      if (stored.stored.length)
        await tx.insert(inboundAttachments).values(
          stored.stored.map((f) => ({
            inboundId: row!.id,
            storageKey: f.key,
            originalName: f.name,
            mimeType: f.mimeType,
            sizeBytes: f.size,
            sha256: f.sha256,
          })),
        );
      await customerAnswered(tx, orderId, 'answer on the track page', null);
      return { inboundId: row!.id };
    });
    scanCustomerFiles(ctx, orderId, stored.stored);
    return result;
  } catch (err) {
    for (const f of stored.stored) await removeStored(config, f.key);
    throw err;
  }
}
