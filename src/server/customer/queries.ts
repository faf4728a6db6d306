import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { CustomerOrderSummary, DownloadHistoryRow } from '../../shared/contracts/customer.js';
import { easternZoneLabel, formatEstDateTime } from '../../shared/dates.js';
import type { DbOrTx } from '../db/client.js';
import { downloadLog, mailLog, orders } from '../db/schema.js';
import { recordEvents } from '../orders/events.js';
import { latestDocument } from '../orders/repository.js';

/** Extensions of the stored kinds (documents/storage.ts keys end in one of these). */
const EXTENSION: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export function extensionOf(mimeType: string, storageKey: string): string {
  return EXTENSION[mimeType] ?? storageKey.split('.').pop() ?? 'pdf';
}

/** The public name of a document in the customer calls (`file1`): its id and extension, nothing else. */
export function file1Of(doc: { id: number; mimeType: string; storageKey: string }): string {
  return `${doc.id}.${extensionOf(doc.mimeType, doc.storageKey)}`;
}

/**
 * An order whose personal data was erased is no customer's order any more: every customer call answers
 * for it as for an unknown id (its placeholder address must not open it). One indexed probe per order.
 */
export const notErased = sql`not exists (select 1 from order_events e where e.order_id = ${orders.orderId} and e.action = 'erase')`;

/**
 * The order a customer may track: any order not Deleted (nor erased). One indexed lookup by primary key whatever
 * the outcome, so a wrong id and a wrong e-mail cost the same.
 */
export async function findTrackableOrder(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select({ orderId: orders.orderId, email: orders.email })
    .from(orders)
    .where(and(eq(orders.orderId, orderId), ne(orders.processStatus, 'Deleted'), notErased))
    .limit(1);
  return row ?? null;
}

export async function orderSummary(
  db: DbOrTx,
  orderId: number,
  altLandingHost: string,
): Promise<Omit<CustomerOrderSummary, 'downloadable'> | null> {
  const [row] = await db
    .select({
      order_id: orders.orderId,
      first_name: orders.firstName,
      last_name: orders.lastName,
      process_status: orders.processStatus,
      landing_domain: orders.landingDomain,
    })
    .from(orders)
    .where(and(eq(orders.orderId, orderId), ne(orders.processStatus, 'Deleted'), notErased))
    .limit(1);
  if (!row) return null;
  const { landing_domain, ...summary } = row;
  return { ...summary, brand: brandKey(landing_domain, altLandingHost) };
}

export function brandKey(landingDomain: string | null | undefined, altLandingHost: string): 'main' | 'alt' {
  return altLandingHost !== '' && landingDomain?.trim().toLowerCase() === altLandingHost.trim().toLowerCase()
    ? 'alt'
    : 'main';
}

/** The approved document a customer downloads: the order's current document (the staff's, too). */
export { latestDocument };

/**
 * A document only if it is that order's current one: superseded and withdrawn documents are no longer
 * served to customers.
 */
export async function documentOfOrder(db: DbOrTx, orderId: number, documentId: number) {
  const doc = await latestDocument(db, orderId);
  return doc && doc.id === documentId ? doc : null;
}

const orUnknown = (value: string | null) => (value && value.trim() !== '' ? value : 'Unknown');

/** The Downloaded History of an order, newest first. */
export async function downloadHistory(db: DbOrTx, orderId: number): Promise<DownloadHistoryRow[]> {
  const rows = await db
    .select()
    .from(downloadLog)
    .where(eq(downloadLog.orderId, orderId))
    .orderBy(desc(downloadLog.createdAt), desc(downloadLog.id))
    .limit(500);
  return rows.map((r) => ({
    order_id: r.orderId,
    create_ts: r.createdAt.toISOString(),
    date_time: formatEstDateTime(r.createdAt),
    time_zone: easternZoneLabel(r.createdAt),
    ip: r.ip,
    device: orUnknown(r.device),
    device_type: orUnknown(r.deviceType),
    browser: orUnknown(r.browser),
    os: orUnknown(r.os),
    location: orUnknown(r.location),
  }));
}

export interface DownloadRecord {
  orderId: number;
  documentId: number;
  /** The id of the signed URL that is delivering the file. */
  grantId: string;
  fileName: string;
  ip: string;
  userAgent: string | null;
  device: string;
  deviceType: string;
  browser: string;
  os: string;
  location: string;
}

/**
 * Records a customer download with its order event, in one transaction. False, and nothing written,
 * when this signed URL has delivered before (its grant id is already in download_log).
 */
export async function recordDownload(db: DbOrTx, record: DownloadRecord): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(downloadLog)
      .values({
        orderId: record.orderId,
        documentId: record.documentId,
        grantId: record.grantId,
        fileName: record.fileName,
        ip: record.ip,
        userAgent: record.userAgent,
        device: record.device,
        deviceType: record.deviceType,
        browser: record.browser,
        os: record.os,
        location: record.location,
      })
      .onConflictDoNothing({ target: downloadLog.grantId })
      .returning({ id: downloadLog.id });
    if (!row) return false;
    await recordEvents(tx, [
      {
        orderId: record.orderId,
        action: 'customer_download',
        toValue: `download ${row.id}: ${record.fileName}`,
      },
    ]);
    return true;
  });
}

/** What the approval notice needs of an order (communication/approval-notice.ts). */
export async function noticeOrder(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select({
      order_id: orders.orderId,
      first_name: orders.firstName,
      last_name: orders.lastName,
      email: orders.email,
      landing_domain: orders.landingDomain,
    })
    .from(orders)
    .where(and(eq(orders.orderId, orderId), ne(orders.processStatus, 'Deleted'), notErased))
    .limit(1);
  return row ?? null;
}

/**
 * The approval mail last sent to the customer (an approval or a resend that went out), with what it was
 * built from, so the customer page can show it as it was sent; null when none went out.
 */
export async function lastSentApprovalMail(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select({
      orderId: mailLog.orderId,
      kind: mailLog.kind,
      templateId: mailLog.templateId,
      templateVersion: mailLog.templateVersion,
      templateValues: mailLog.templateValues,
    })
    .from(mailLog)
    .where(
      and(
        eq(mailLog.orderId, orderId),
        inArray(mailLog.kind, ['approval', 'resend']),
        eq(mailLog.status, 'sent'),
      ),
    )
    .orderBy(desc(mailLog.id))
    .limit(1);
  return row ?? null;
}
