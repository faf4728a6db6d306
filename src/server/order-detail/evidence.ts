import { asc, eq } from 'drizzle-orm';
import type { DefencePackDetails } from '../../shared/contracts/defence-pack.js';
import type { OrderEventItem } from '../../shared/contracts/order-detail.js';
import { statusName } from '../../shared/order-rules.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { currentCardCheck } from '../card-check/store.js';
import { mailLog, orders, staffUsers } from '../db/schema.js';
import { buildPacket } from '../submission/packet.js';
import { readStored } from '../documents/storage.js';
import { loggedMailContent } from '../mail/compose.js';
import { notFound } from '../http/errors.js';
import { loadOrder, servableDocumentById } from '../orders/repository.js';
import { loadDocuments, loadDownloads, loadEvents, loadMailAttempts, loadMailHistory } from './queries.js';

/** Mails that deliver the approved document: Pack 1 proves these; Pack 2 lists every mail. */
const DOCUMENT_MAIL_KINDS = new Set(['approval', 'resend', 'reminder']);

/** The evidence of a Defence Pack (docs/product.md, "Evidence and money"), one query per section. */
export async function gatherEvidence(
  db: DbOrTx,
  config: Config,
  orderId: number,
  packType: 1 | 2,
  now = new Date(),
): Promise<DefencePackDetails> {
  const order = await loadOrder(db, orderId, config.APP_MAIL_DOMAIN);
  if (!order) throw notFound('Order not found');
  const full = packType === 2;
  const [docs, allMails, attempts, downloads, events] = await Promise.all([
    loadDocuments(db, orderId),
    loadMailHistory(db, orderId),
    loadMailAttempts(db, orderId),
    loadDownloads(db, orderId),
    full ? loadEvents(db, orderId) : Promise.resolve([]),
  ]);
  const mails = full ? allMails : allMails.filter((m) => DOCUMENT_MAIL_KINDS.has(m.kind));
  const mailIds = new Set(mails.map((m) => m.id));
  return {
    defencePackType: packType,
    generated_at: now.toISOString(),
    order,
    document: docs.find((d) => d.current) ?? null,
    mails,
    mailAttempts: attempts.filter((a) => mailIds.has(a.mail_id)),
    downloads,
    // Internal notes and raw events (staff ids, takeovers) are never evidence: see statusHistory.
    remarks: [],
    events: [],
    submission: await submissionOf(db, orderId),
    cardRelease: (await currentCardCheck(db, orderId))?.release ?? null,
    ...(full
      ? { mailContents: await mailContents(db, config, orderId), statusHistory: statusHistoryOf(events) }
      : {}),
  };
}

/** What was submitted to the government, by whom and when, with the packet's fields; null before. */
async function submissionOf(db: DbOrTx, orderId: number): Promise<DefencePackDetails['submission']> {
  const [row] = await db.select().from(orders).where(eq(orders.orderId, orderId));
  if (!row || (row.submittedAt === null && row.governmentReference === null)) return null;
  const [by] =
    row.submittedBy === null
      ? []
      : await db
          .select({ name: staffUsers.name, role: staffUsers.role })
          .from(staffUsers)
          .where(eq(staffUsers.id, row.submittedBy));
  return {
    submitted_at: row.submittedAt?.toISOString() ?? null,
    submitted_by: by?.name ?? null,
    submitted_by_role: by?.role ?? null,
    government_reference: row.governmentReference,
    fields: buildPacket(row).fields.map((f) => ({ label: f.label, value: f.value })),
  };
}

/** Each mail of the order as the customer received it (subject and text). */
async function mailContents(db: DbOrTx, config: Config, orderId: number) {
  const rows = await db
    .select({
      id: mailLog.id,
      orderId: mailLog.orderId,
      kind: mailLog.kind,
      templateId: mailLog.templateId,
      templateVersion: mailLog.templateVersion,
      templateValues: mailLog.templateValues,
      bodyText: mailLog.bodyText,
      toEmail: mailLog.toEmail,
    })
    .from(mailLog)
    .where(eq(mailLog.orderId, orderId))
    .orderBy(asc(mailLog.createdAt), asc(mailLog.id));
  const out: { mail_id: number; subject: string; text: string }[] = [];
  for (const row of rows) {
    const content = await loggedMailContent(db, config, row);
    if (content) out.push({ mail_id: row.id, ...content });
  }
  return out;
}

/** The customer-facing history in words: placed, each move by its queue names, each document upload. */
export function statusHistoryOf(events: readonly OrderEventItem[]): { create_ts: string; text: string }[] {
  const out: { create_ts: string; text: string }[] = [];
  for (const e of events) {
    let text: string | null = null;
    if (e.action === 'created') text = 'Order placed';
    else if (e.action === 'status' && e.to_value) {
      text = e.from_value
        ? `Moved from ${statusName(e.from_value)} to ${statusName(e.to_value)}`
        : `Moved to ${statusName(e.to_value)}`;
    } else if (e.action === 'upload') text = 'Approved document uploaded';
    else if (e.action === 'withdraw') text = 'A wrongly uploaded document was withdrawn';
    if (text) out.push({ create_ts: e.create_ts, text });
  }
  return out;
}

/** The bytes of the approved document for embedding, or null when there is none or the file is gone. */
export async function documentBytes(db: DbOrTx, config: Config, documentId: number | undefined) {
  if (!documentId) return null;
  const doc = await servableDocumentById(db, documentId);
  if (!doc) return null;
  const bytes = await readStored(config, doc.storageKey);
  return bytes ? { bytes, mimeType: doc.mimeType } : null;
}
