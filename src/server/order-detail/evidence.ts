import type { DefencePackDetails } from '../../shared/contracts/order-detail.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { readStored } from '../documents/storage.js';
import { notFound } from '../http/errors.js';
import { loadOrder, servableDocumentById } from '../orders/repository.js';
import {
  loadDocuments,
  loadDownloads,
  loadEvents,
  loadMailAttempts,
  loadMailHistory,
  loadRemarks,
} from './queries.js';

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
  const [docs, allMails, attempts, downloads, remarks, events] = await Promise.all([
    loadDocuments(db, orderId),
    loadMailHistory(db, orderId),
    loadMailAttempts(db, orderId),
    loadDownloads(db, orderId),
    full ? loadRemarks(db, orderId) : Promise.resolve([]),
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
    remarks,
    events,
  };
}

/** The bytes of the approved document for embedding, or null when there is none or the file is gone. */
export async function documentBytes(db: DbOrTx, config: Config, documentId: number | undefined) {
  if (!documentId) return null;
  const doc = await servableDocumentById(db, documentId);
  if (!doc) return null;
  const bytes = await readStored(config, doc.storageKey);
  return bytes ? { bytes, mimeType: doc.mimeType } : null;
}
