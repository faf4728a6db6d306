import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  DownloadHistoryItem,
  MailHistoryItem,
  OrderEventItem,
  RemarkItem,
  UploadDocItem,
} from '../../shared/contracts/order-detail.js';
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
import { remarkItemOf } from '../orders/repository.js';

/**
 * Reads of the order detail screen: one query per section (no N+1), every list in time order
 * (oldest first). Shared by the detail route and the Defence Packs; the order itself, its lock and its
 * current document are the domain's (orders/repository.ts).
 */

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function documentDownloadUrl(documentId: number): string {
  return `/api/admin/order-document/${documentId}`;
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
