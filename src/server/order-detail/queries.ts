import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { MONTHS } from '../../shared/constants.js';
import type {
  DownloadHistoryItem,
  MailHistoryItem,
  OrderEventItem,
  OrderFields,
  RemarkItem,
  UploadDocItem,
} from '../../shared/contracts/order-detail.js';
import { usDateTime } from '../../shared/dates.js';
import type { DbOrTx } from '../db/client.js';
import {
  documents,
  downloadLog,
  mailAttempts,
  mailLog,
  orderEvents,
  orderRemarks,
  orders,
  staffUsers,
} from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { slaClock, slaStateOf } from '../sla/policy.js';

/**
 * Reads of the order detail screen: one query per section (no N+1), every list in time order
 * (oldest first). Shared by the detail route, the Defence Packs and the mail composer.
 */

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function processMonth(processingDate: string): string {
  const month = Number(processingDate.slice(5, 7));
  return MONTHS[month - 1] ?? '';
}

export function documentDownloadUrl(documentId: number): string {
  return `/api/admin/order-document/${documentId}`;
}

export async function loadOrder(
  db: DbOrTx,
  orderId: number,
  appMailDomain: string,
): Promise<OrderFields | null> {
  const assignee = alias(staffUsers, 'assignee');
  const [row] = await db
    .select({ o: orders, assignTo: assignee.name })
    .from(orders)
    .leftJoin(assignee, eq(assignee.id, orders.assignedTo))
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!row) return null;
  const o = row.o;
  return {
    order_id: o.orderId,
    transaction_id: o.transactionId,
    merchant_name: o.merchantName,
    email: o.email,
    re_enter_email: o.reEnterEmail,
    processing_mode: o.processingMode,
    process_status: o.processStatus,
    landing_domain: o.landingDomain,
    arrival_date: o.arrivalDate,
    resident_check: o.residentCheck,
    passport_number: o.passportNumber,
    passport_expiration: o.passportExpiration,
    last_name: o.lastName,
    first_name: o.firstName,
    nationality: o.nationality,
    date_of_birth: o.dateOfBirth,
    sex: o.sex,
    country_of_birth: o.countryOfBirth,
    country_of_departure: o.countryOfDeparture,
    travel_mode: o.travelMode,
    airline: o.airline,
    flight_number: o.flightNumber,
    departure_date: o.departureDate,
    vessel_name: o.vesselName,
    country_of_residence: o.countryOfResidence,
    zip_code: o.zipCode,
    state: o.state,
    city: o.city,
    address: o.address,
    residence_number: o.residenceNumber,
    occupation: o.occupation,
    purpose_of_visit: o.purposeOfVisit,
    dual_citizenship: o.dualCitizenship,
    phone_code: o.phoneCode,
    telephone_number: o.telephoneNumber,
    prior_visits: o.priorVisits,
    place_of_stay: o.placeOfStay,
    name_of_place_of_stay: o.nameOfPlaceOfStay,
    other_hotel_name: o.otherHotelName,
    local_address: o.localAddress,
    house_number: o.houseNumber,
    application_email: `${o.orderId}@${appMailDomain}`,
    processing_date: o.processingDate,
    process_month: processMonth(o.processingDate),
    refund_date: iso(o.refundDate),
    assign_to: row.assignTo ?? null,
    amount: o.amount,
    currency: o.currency,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
    version: o.version,
    due_at: iso(o.dueAt),
    sla_state: slaStateOf(o.dueAt, await slaClock(db)),
  };
}

export async function loadDocuments(db: DbOrTx, orderId: number): Promise<UploadDocItem[]> {
  const rows = await db
    .select({ d: documents, uploader: staffUsers.name })
    .from(documents)
    .leftJoin(staffUsers, eq(staffUsers.id, documents.uploadedBy))
    .where(eq(documents.orderId, orderId))
    .orderBy(asc(documents.createdAt), asc(documents.id));
  const current = [...rows].reverse().find(({ d }) => !d.withdrawnAt)?.d.id ?? null;
  return rows.map(({ d, uploader }) => ({
    id: d.id,
    order_id: d.orderId,
    current: d.id === current,
    withdrawn_at: iso(d.withdrawnAt),
    withdraw_reason: d.withdrawReason,
    file1: d.originalName,
    mail_service_provider: d.mailServiceProvider,
    mime_type: d.mimeType,
    size_bytes: d.sizeBytes,
    create_ts: d.createdAt.toISOString(),
    uploaded_by: uploader ?? null,
    download_url: documentDownloadUrl(d.id),
  }));
}

export async function loadMailHistory(db: DbOrTx, orderId: number): Promise<MailHistoryItem[]> {
  const rows = await db
    .select({
      m: mailLog,
      fileName: documents.originalName,
      requester: staffUsers.name,
      orderEmail: orders.email,
    })
    .from(mailLog)
    .innerJoin(orders, eq(orders.orderId, mailLog.orderId))
    .leftJoin(documents, eq(documents.id, mailLog.documentId))
    .leftJoin(staffUsers, eq(staffUsers.id, mailLog.requestedBy))
    .where(eq(mailLog.orderId, orderId))
    .orderBy(asc(mailLog.createdAt), asc(mailLog.id));
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  return rows.map(({ m, fileName, requester, orderEmail }) => ({
    id: m.id,
    order_id: m.orderId,
    create_ts: m.createdAt.toISOString(),
    uploadDoc: fileName ?? null,
    remainder_mail: m.isReminder ? 1 : 0,
    mail_service_provider: m.provider,
    kind: m.kind,
    to_email: m.toEmail,
    status: m.status,
    attempts: m.attempts,
    message_id: m.messageId,
    error: m.error,
    sent_ts: m.status === 'sent' ? m.updatedAt.toISOString() : null,
    requested_by: requester ?? null,
    document_id: m.documentId,
    download_url: m.documentId === null ? null : documentDownloadUrl(m.documentId),
    other_recipient: !same(m.toEmail, orderEmail),
  }));
}

export async function loadMailAttempts(db: DbOrTx, orderId: number) {
  const rows = await db
    .select({ a: mailAttempts })
    .from(mailAttempts)
    .innerJoin(mailLog, eq(mailLog.id, mailAttempts.mailId))
    .where(eq(mailLog.orderId, orderId))
    .orderBy(asc(mailAttempts.createdAt), asc(mailAttempts.id));
  return rows.map(({ a }) => ({
    mail_id: a.mailId,
    attempt: a.attempt,
    provider: a.provider,
    ok: a.ok,
    message_id: a.messageId,
    error: a.error,
    create_ts: a.createdAt.toISOString(),
  }));
}

export async function loadDownloads(db: DbOrTx, orderId: number): Promise<DownloadHistoryItem[]> {
  const rows = await db
    .select()
    .from(downloadLog)
    .where(eq(downloadLog.orderId, orderId))
    .orderBy(asc(downloadLog.createdAt), asc(downloadLog.id));
  return rows.map((d) => ({
    id: d.id,
    order_id: d.orderId,
    create_ts: d.createdAt.toISOString(),
    file_name: d.fileName,
    ip: d.ip,
    timezone: d.timezone,
    browser: d.browser,
    os: d.os,
    device: d.device,
    device_type: d.deviceType,
    location: d.location,
  }));
}

const yn = (v: string): 'Y' | 'N' => (v === 'Y' ? 'Y' : 'N');

export function remarkItemOf(r: typeof orderRemarks.$inferSelect, authorName: string | null): RemarkItem {
  return {
    id: r.id,
    order_id: r.orderId,
    ...usDateTime(r.createdAt),
    remark_name: authorName ?? '',
    remark: r.remark,
    whatsapp: yn(r.whatsapp),
    telephone: yn(r.telephone),
    status_refund: yn(r.statusRefund),
    voided: yn(r.voided),
    chargeback: yn(r.chargeback),
    report_error: yn(r.reportError),
    create_ts: r.createdAt.toISOString(),
  };
}

export async function loadRemarks(db: DbOrTx, orderId: number): Promise<RemarkItem[]> {
  const rows = await db
    .select({ r: orderRemarks, author: staffUsers.name })
    .from(orderRemarks)
    .leftJoin(staffUsers, eq(staffUsers.id, orderRemarks.authorId))
    .where(eq(orderRemarks.orderId, orderId))
    .orderBy(asc(orderRemarks.createdAt), asc(orderRemarks.id));
  return rows.map(({ r, author }) => remarkItemOf(r, author ?? null));
}

export async function loadEvents(db: DbOrTx, orderId: number): Promise<OrderEventItem[]> {
  const actor = alias(staffUsers, 'actor');
  // Assignment events store staff ids: show their names instead.
  const fromStaff = alias(staffUsers, 'from_staff');
  const toStaff = alias(staffUsers, 'to_staff');
  const rows = await db
    .select({ e: orderEvents, actor: actor.name, fromName: fromStaff.name, toName: toStaff.name })
    .from(orderEvents)
    .leftJoin(actor, eq(actor.id, orderEvents.actorId))
    .leftJoin(
      fromStaff,
      and(eq(orderEvents.action, 'assign'), eq(sql`${fromStaff.id}::text`, orderEvents.fromValue)),
    )
    .leftJoin(
      toStaff,
      and(eq(orderEvents.action, 'assign'), eq(sql`${toStaff.id}::text`, orderEvents.toValue)),
    )
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
  return rows.map(({ e, actor, fromName, toName }) => ({
    id: e.id,
    action: e.action,
    from_value: fromName ?? e.fromValue,
    to_value: toName ?? e.toValue,
    actor_name: actor ?? null,
    create_ts: e.createdAt.toISOString(),
  }));
}

/** Locks the order row for a change inside a transaction; 404 when it does not exist. */
export async function lockOrder(tx: DbOrTx, orderId: number) {
  const [row] = await tx.select().from(orders).where(eq(orders.orderId, orderId)).for('update').limit(1);
  if (!row) throw notFound('Order not found');
  return row;
}

export interface EventInput {
  orderId: number;
  actorId: number | null;
  action: string;
  fromValue?: string | null;
  toValue?: string | null;
}

export async function recordEvent(tx: DbOrTx, e: EventInput): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: e.orderId,
    actorId: e.actorId,
    action: e.action,
    fromValue: e.fromValue ?? null,
    toValue: e.toValue ?? null,
  });
}

/** Documents that may be served or mailed: not withdrawn. */
const servable = isNull(documents.withdrawnAt);

/**
 * The order's current document: the newest upload that has not been withdrawn, or null. Every use of
 * "the approved card" reads this one function: staff download, the detail's file name, the customer's
 * download, the reminder, the Defence Packs and Sent Mail.
 */
export async function latestDocument(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.orderId, orderId), servable))
    .orderBy(sql`${documents.createdAt} desc`, sql`${documents.id} desc`)
    .limit(1);
  return row ?? null;
}

/** A document by id, withdrawn or not (callers that serve bytes use servableDocumentById). */
export async function documentById(db: DbOrTx, documentId: number) {
  const [row] = await db.select().from(documents).where(eq(documents.id, documentId)).limit(1);
  return row ?? null;
}

/** A document that may still be served: withdrawn documents are never served again. */
export async function servableDocumentById(db: DbOrTx, documentId: number) {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, documentId), servable))
    .limit(1);
  return row ?? null;
}
