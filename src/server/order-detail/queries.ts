import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import type {
  DownloadHistoryItem,
  MailHistoryItem,
  OrderDetails,
  OrderEventItem,
  RemarkItem,
  UploadDocItem,
} from '../../shared/contracts/order-detail.js';
import { DEFAULT_DUE_TIME_POLICY, dueTimePolicy } from '../../shared/contracts/due-time.js';
import type { Database, DbOrTx } from '../db/client.js';
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
import { processMonth, remarkItemOf } from '../orders/repository.js';
import { dueNow, DUE_TIME_SETTINGS_KEY, dueStateOf } from '../due-time/policy.js';

/**
 * Reads of the order detail screen, every list in time order (oldest first). The section loaders (one
 * query per section, no N+1) serve the Defence Packs; the detail route reads the same sections through
 * one prepared statement (loadOrderDetail below, decision 282). The order itself, its lock and its
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
    status: m.bouncedAt ? ('bounced' as const) : m.status,
    attempts: m.attempts,
    message_id: m.messageId,
    error: m.error,
    sent_ts: m.status === 'sent' ? m.updatedAt.toISOString() : null,
    requested_by: requester ?? null,
    document_id: m.documentId,
    download_url: m.documentId === null ? null : documentDownloadUrl(m.documentId),
    other_recipient: !same(m.toEmail, orderEmail),
    bounce_reason: m.bounceReason,
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

/** The name the history shows for routing's assignments and releases. */
const ROUTING_ACTOR = 'Routing';

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
    // Customer's own writes carry no staff actor; assignments without an actor are routing's
    // (src/server/orders/routing-writes.ts).
    actor_name:
      actor ??
      (e.actorKind === 'customer'
        ? 'Customer'
        : e.action === 'assign' && e.actorId === null
          ? ROUTING_ACTOR
          : null),
    create_ts: e.createdAt.toISOString(),
  }));
}

/* ------------------------------------------------------------- the detail read */

const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** An instant as Date#toISOString writes it (milliseconds, truncated as the driver's Date truncates). */
const isoSql = (column: string) => `to_char(${column} at time zone 'UTC', ${ISO_FORMAT})`;
/** A remark flag as the API answers it: 'Y' when ticked, otherwise 'N'. */
const ynSql = (column: string) => `case when ${column} = 'Y' then 'Y' else 'N' end`;

/**
 * The whole detail answer in one statement: the order with its assignee, the due-time policy, and each
 * section as a JSON array in time order (oldest first), every field already in its API form (instants
 * as ISO 8601 text, remark times in the service time zone). The same sections as the loaders above;
 * order-detail.test.ts checks both give the same answer. Built once: PostgreSQL prepares it once per
 * pooled connection.
 */
export const ORDER_DETAIL_SQL = `
select row_to_json(x)::text as detail,
       (select value::text from app_settings where key = '${DUE_TIME_SETTINGS_KEY}') as due_time_policy
from (
  select o.order_id, o.transaction_id, o.merchant_name, o.email, o.re_enter_email, o.processing_mode,
         o.process_status, o.landing_domain, o.arrival_date::text as arrival_date, o.resident_check,
         o.passport_number, o.passport_expiration::text as passport_expiration, o.last_name, o.first_name,
         o.nationality, o.date_of_birth::text as date_of_birth, o.sex, o.country_of_birth,
         o.country_of_departure, o.travel_mode, o.airline, o.flight_number,
         o.departure_date::text as departure_date, o.vessel_name, o.country_of_residence, o.zip_code,
         o.state, o.city, o.address, o.residence_number, o.occupation, o.purpose_of_visit,
         o.dual_citizenship, o.phone_code, o.telephone_number, o.prior_visits, o.place_of_stay,
         o.name_of_place_of_stay, o.other_hotel_name, o.local_address, o.house_number,
         o.processing_date::text as processing_date, ${isoSql('o.refund_date')} as refund_date,
         o.refund_reason, o.refund_reason_text,
         assignee.name as assign_to, o.amount::text as amount, o.currency,
         ${isoSql('o.created_at')} as created_at, ${isoSql('o.updated_at')} as updated_at, o.version,
         ${isoSql('o.due_at')} as due_at, ${isoSql('o.due_paused_at')} as due_paused_at,
         ${isoSql('o.trip_ends_at')} as trip_ends_at,
         (o.customer_replied_at is not null) as customer_replied,
         (select f.reason from failing_addresses f where f.email = lower(btrim(o.email))) as failing_address,
         (o.customer_edited_at is not null) as customer_edited,
         o.government_reference, ${isoSql('o.submitted_at')} as submitted_at,
         ${isoSql('o.submission_opens_at')} as submission_opens_at,
         coalesce((
           select json_agg(json_build_object(
                    'id', d.id, 'order_id', d.order_id, 'withdrawn_at', ${isoSql('d.withdrawn_at')},
                    'withdraw_reason', d.withdraw_reason, 'file1', d.original_name,
                    'mail_service_provider', d.mail_service_provider, 'mime_type', d.mime_type,
                    'size_bytes', d.size_bytes, 'create_ts', ${isoSql('d.created_at')},
                    'uploaded_by', u.name)
                  order by d.created_at, d.id)
           from documents d left join staff_users u on u.id = d.uploaded_by
           where d.order_id = o.order_id), '[]') as "uploadDoc",
         coalesce((
           select json_agg(json_build_object(
                    'id', m.id, 'order_id', m.order_id, 'create_ts', ${isoSql('m.created_at')},
                    'uploadDoc', md.original_name, 'remainder_mail', case when m.is_reminder then 1 else 0 end,
                    'mail_service_provider', m.provider, 'kind', m.kind, 'to_email', m.to_email,
                    'status', case when m.bounced_at is not null then 'bounced' else m.status end,
                    'bounce_reason', m.bounce_reason,
                    'attempts', m.attempts, 'message_id', m.message_id, 'error', m.error,
                    'sent_ts', case when m.status = 'sent' then ${isoSql('m.updated_at')} end,
                    'requested_by', ms.name, 'document_id', m.document_id)
                  order by m.created_at, m.id)
           from mail_log m
           left join documents md on md.id = m.document_id
           left join staff_users ms on ms.id = m.requested_by
           where m.order_id = o.order_id), '[]') as "mailHistory",
         coalesce((
           select json_agg(json_build_object(
                    'id', l.id, 'order_id', l.order_id, 'create_ts', ${isoSql('l.created_at')},
                    'file_name', l.file_name, 'ip', l.ip, 'timezone', l.timezone, 'browser', l.browser,
                    'os', l.os, 'device', l.device, 'device_type', l.device_type, 'location', l.location)
                  order by l.created_at, l.id)
           from download_log l
           where l.order_id = o.order_id), '[]') as "downloadHistory",
         coalesce((
           select json_agg(json_build_object(
                    'id', r.id, 'order_id', r.order_id,
                    'us_date', to_char(r.created_at at time zone '${SERVICE_TIME_ZONE}', 'MM-DD-YYYY'),
                    'us_time', to_char(r.created_at at time zone '${SERVICE_TIME_ZONE}', 'FMHH12:MI:SS AM'),
                    'remark_name', coalesce(ra.name, ''), 'remark', r.remark,
                    'whatsapp', ${ynSql('r.whatsapp')}, 'telephone', ${ynSql('r.telephone')},
                    'status_refund', ${ynSql('r.status_refund')}, 'voided', ${ynSql('r.voided')},
                    'chargeback', ${ynSql('r.chargeback')}, 'report_error', ${ynSql('r.report_error')},
                    'create_ts', ${isoSql('r.created_at')})
                  order by r.created_at, r.id)
           from order_remarks r left join staff_users ra on ra.id = r.author_id
           where r.order_id = o.order_id), '[]') as remarks,
         coalesce((
           select json_agg(json_build_object(
                    'id', e.id, 'action', e.action,
                    'from_value', coalesce(fs.name, e.from_value), 'to_value', coalesce(ts.name, e.to_value),
                    'actor_name', coalesce(ea.name, case when e.actor_kind = 'customer' then 'Customer' when e.action = 'assign' and e.actor_id is null then '${ROUTING_ACTOR}' end), 'create_ts', ${isoSql('e.created_at')})
                  order by e.created_at, e.id)
           from order_events e
           left join staff_users ea on ea.id = e.actor_id
           left join staff_users fs on e.action = 'assign' and fs.id::text = e.from_value
           left join staff_users ts on e.action = 'assign' and ts.id::text = e.to_value
           where e.order_id = o.order_id), '[]') as events
  from orders o
  left join staff_users assignee on assignee.id = o.assigned_to
  where o.order_id = $1::bigint
) x`;

/** The prepared statement's name on PostgreSQL (one per pooled connection) and in PGlite. */
const ORDER_DETAIL_STATEMENT = 'order_detail_read';

/** PGlite databases whose one session holds the prepared statement. */
const preparedIn = new WeakSet<Database>();

/**
 * PGlite has no named statements in its query API, so its one session prepares the statement with SQL
 * PREPARE and runs EXECUTE: planned once, as on PostgreSQL, instead of at every request (the plan of
 * this statement is most of its cost in WebAssembly). EXECUTE takes no bind parameters; the id is an
 * integer checked here.
 */
async function pgliteDetail(database: Database, orderId: number): Promise<{ rows: DetailRow[] }> {
  if (!Number.isSafeInteger(orderId)) return { rows: [] };
  if (!preparedIn.has(database)) {
    await database.sql
      .query(`prepare ${ORDER_DETAIL_STATEMENT}(bigint) as ${ORDER_DETAIL_SQL}`)
      .catch((err: { code?: string }) => {
        if (err.code !== '42P05') throw err; // already prepared in this session
      });
    preparedIn.add(database);
  }
  return database.sql.query<DetailRow>(`execute ${ORDER_DETAIL_STATEMENT}(${orderId})`);
}

/** The at-risk margin of the stored policy text, parsed once per distinct text (it rarely changes). */
let policyCache: { text: string | null; marginHours: number } | null = null;
function marginHoursOf(text: string | null): number {
  if (policyCache?.text === text) return policyCache.marginHours;
  let value: unknown;
  try {
    value = text === null ? undefined : JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = dueTimePolicy.safeParse(value);
  const marginHours = (parsed.success ? parsed.data : DEFAULT_DUE_TIME_POLICY).atRiskMarginHours;
  policyCache = { text, marginHours };
  return marginHours;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The detail answer of one order (every order field, uploadDoc, mailHistory, downloadHistory, remarks,
 * events), or null when the order does not exist: one statement, then a few derived fields here (the
 * current document, download paths, other recipients, the due state at the service clock).
 */
export async function loadOrderDetail(
  database: Database,
  orderId: number,
  appMailDomain: string,
): Promise<OrderDetails | null> {
  const { rows } =
    database.kind === 'postgres'
      ? await (database.db as unknown as { $client: SqlConfigRunner }).$client.query<DetailRow>({
          name: ORDER_DETAIL_STATEMENT,
          text: ORDER_DETAIL_SQL,
          values: [orderId],
        })
      : await pgliteDetail(database, orderId);
  const row = rows[0];
  if (!row) return null;
  const detail = JSON.parse(row.detail) as OrderDetails;
  detail.application_email = `${detail.order_id}@${appMailDomain}`;
  detail.process_month = processMonth(detail.processing_date);
  const date = (v: string | null | undefined) => (v ? new Date(v) : null);
  detail.due_state = dueStateOf(
    date(detail.due_at),
    { now: dueNow(), marginHours: marginHoursOf(row.due_time_policy) },
    { pausedAt: date(detail.due_paused_at), tripEndsAt: date(detail.trip_ends_at) },
  );
  const docs = detail.uploadDoc;
  let current = -1;
  for (let i = docs.length - 1; i >= 0; i--) {
    if (docs[i]!.withdrawn_at === null) {
      current = i;
      break;
    }
  }
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    d.current = i === current;
    d.download_url = documentDownloadUrl(d.id);
  }
  for (const m of detail.mailHistory) {
    m.download_url = m.document_id === null ? null : documentDownloadUrl(m.document_id as number);
    m.other_recipient = !sameAddress(m.to_email, detail.email);
  }
  return detail;
}

interface DetailRow {
  detail: string;
  due_time_policy: string | null;
}

/** pg's query with a statement name (prepared once per connection). */
interface SqlConfigRunner {
  query<T>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
}
