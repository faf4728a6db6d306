import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { Db, DbOrTx } from '../db/client.js';
import { inboundAttachments, inboundMessages, inboundRawMessages } from '../db/schema.js';
import { removeStored } from '../documents/storage.js';
import { sanitizeFileName, storeUpload } from '../documents/upload.js';
import { scanCustomerFiles } from './passport-scan.js';
import { HttpError } from '../http/errors.js';
import { inTransaction } from '../orders/transaction.js';
import { recordEvents } from '../orders/events.js';
import { bounced, customerAnswered, lockOrderStatus } from '../orders/customer-answers.js';
import { INBOUND_LIMITS, type InboundMail } from '../inbound/parse.js';
import {
  type Disposition,
  type InboundResult,
  isErased,
  type Match,
  isOwnMail,
  matchOrder,
  reportedMail,
} from '../inbound/match.js';

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
export async function storeAttachments(
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
 * match, store, effects. The message row, its raw source and its effects commit together; a second copy
 * of the same Message-ID (another instance, a provider retry) is `duplicate` and changes nothing.
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
  const seen = await firstCopy(db, mail.messageId);
  if (seen) return seen;

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
      // The raw source, so a corrected matcher can run again; never for an erased order (kept nothing).
      if (!erased && mail.raw.length <= INBOUND_LIMITS.maxBytes)
        await tx.insert(inboundRawMessages).values({ inboundId: row.id, source: mail.raw });
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
      // Government mail has its own effects instead of a customer's answer.
      if (match) await applyToOrder(tx, match, disposition, mail, bouncedMailId, !options.government);
      return { orderId: match?.orderId ?? null, disposition, inboundId: row.id };
    });
    // The passport trigger: files the customer named as a passport are scanned after the reply is kept.
    if (result.orderId !== null && result.disposition === 'attached')
      scanCustomerFiles(ctx, result.orderId, files.stored);
    return result;
  } catch (err) {
    for (const f of files.stored) await removeStored(config, f.key);
    // Another copy won the race (another instance, a provider retry): answered like one seen before.
    if (err instanceof DuplicateMessage)
      return (
        (await firstCopy(db, mail.messageId)) ?? { orderId: null, disposition: 'duplicate', inboundId: null }
      );
    throw err;
  }
}

class DuplicateMessage extends Error {}

/**
 * The stored copy of a Message-ID as the answer to a second copy: `duplicate`, with the first copy's
 * order and row, whichever way the second was found (before storing, or by losing the insert's race).
 */
async function firstCopy(db: Db, messageId: string | null): Promise<InboundResult | null> {
  if (!messageId) return null;
  const [seen] = await db
    .select({ id: inboundMessages.id, orderId: inboundMessages.orderId })
    .from(inboundMessages)
    .where(eq(inboundMessages.messageId, sql.placeholder('messageId')))
    .limit(1)
    .prepare('inbound_seen')
    .execute({ messageId });
  return seen ? { orderId: seen.orderId, disposition: 'duplicate', inboundId: seen.id } : null;
}

/**
 * What a stored mail does to the order it matched, in the transaction that stored it: an answer
 * (customerAnswered), an auto-reply's event, a bounce (permanent: bounced; delayed: its event).
 */
async function applyToOrder(
  tx: DbOrTx,
  match: Match,
  disposition: Disposition,
  mail: InboundMail,
  bouncedMailId: number | null,
  /** False for government mail, whose own effects take the answer's place. */
  answer: boolean,
): Promise<void> {
  if (answer && disposition === 'attached')
    await customerAnswered(
      tx,
      match.orderId,
      `mail from ${mail.fromEmail ?? 'unknown'}`,
      mail.fromEmail,
      match.verified,
    );
  if (disposition === 'auto-reply')
    await recordEvents(tx, [
      {
        orderId: match.orderId,
        action: 'customer_reply',
        toValue: `auto-reply from ${mail.fromEmail ?? 'unknown'}`.slice(0, 200),
      },
    ]);
  if (disposition === 'bounce' && mail.report && bouncedMailId !== null) {
    if (mail.report.permanent) await bounced(tx, match.orderId, bouncedMailId, mail.report);
    else
      await recordEvents(tx, [
        { orderId: match.orderId, action: 'bounce', toValue: `delayed ${mail.report.status}`.slice(0, 200) },
      ]);
  }
}
