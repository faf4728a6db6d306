import { and, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { MONTHS } from '../../shared/constants.js';
import type { OrderFields, RemarkItem } from '../../shared/contracts/order-detail.js';
import { usDateTime } from '../../shared/dates.js';
import type { DbOrTx } from '../db/client.js';
import { documents, type orderRemarks, orders, staffUsers } from '../db/schema.js';
import { refuseNotFound } from './refusal.js';
import { readDueClock, dueStateOf } from '../due-time/policy.js';

/**
 * The order repository: how the domain loads, locks and maps an order. Every function takes the
 * database or a transaction (`DbOrTx`); inside a transaction it reads what that transaction sees.
 * Writes go through the order commands (transaction.ts lists them), the order history through events.ts.
 */

export type OrderRow = typeof orders.$inferSelect;

/**
 * One order's row by id (undefined when none), as a named prepared statement built once per database
 * handle: a read served on every request (the submission packet) is neither built again by the query
 * builder nor planned again by PostgreSQL (decision 432).
 */
export async function orderRowById(db: DbOrTx, orderId: number): Promise<OrderRow | undefined> {
  let statement = rowById.get(db);
  if (!statement) {
    statement = db
      .select()
      .from(orders)
      .where(eq(orders.orderId, sql.placeholder('orderId')))
      .prepare('order_row_by_id');
    rowById.set(db, statement);
  }
  const [row] = await statement.execute({ orderId });
  return row;
}
const rowById = new WeakMap<DbOrTx, { execute: (values: { orderId: number }) => Promise<OrderRow[]> }>();

/** A locked order row with the name of its holder (null when unassigned). */
export interface LockedOrder extends OrderRow {
  holder: string | null;
}

/**
 * Locks existing orders for update, in id order, answering nothing: for orders a change rewrites after
 * its own writes, locked before those writes so the order of locks is the same as every other writer's
 * (see takeOrderIn). An id that no longer exists is passed over.
 */
export async function lockOrderIds(tx: DbOrTx, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  await tx.execute(sql`select 1 from ${orders}
    where ${orders.orderId} = any(${`{${[...new Set(ids)].join(',')}}`}::bigint[])
    order by ${orders.orderId} for update`);
}

/**
 * The one order lock: locks the orders for update, in id order (so two bulk actions never deadlock),
 * and answers them in that order with their holder's name. Unknown ids answer 404: `notFoundMessage`
 * when given, otherwise a message naming them. Call it inside a transaction.
 */
export async function lockOrders(
  tx: DbOrTx,
  ids: readonly number[],
  notFoundMessage?: string,
): Promise<LockedOrder[]> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const locking = () =>
    tx
      .select({
        ...getTableColumns(orders),
        holderName: sql<
          string | null
        >`(select ${staffUsers.name} from ${staffUsers} where ${staffUsers.id} = ${orders.assignedTo})`,
      })
      .from(orders);
  // One order (nearly every command): a named prepared statement, parsed and planned once per
  // connection (decision 442); a batch builds its own.
  const rows =
    unique.length === 1
      ? await locking()
          .where(eq(orders.orderId, sql.placeholder('orderId')))
          .for('update', { of: orders })
          .prepare('order_lock_one')
          .execute({ orderId: unique[0] })
      : await locking()
          .where(inArray(orders.orderId, unique))
          .orderBy(orders.orderId)
          .for('update', { of: orders });
  const found = new Set(rows.map((r) => r.orderId));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw refuseNotFound(notFoundMessage ?? `Order not found: ${missing.join(', ')}`);
  return rows.map(({ holderName, ...row }) => ({
    ...row,
    holder: row.assignedTo === null ? null : (holderName ?? ''),
  }));
}

export function processMonth(processingDate: string): string {
  const month = Number(processingDate.slice(5, 7));
  return MONTHS[month - 1] ?? '';
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Maps an order row to the API's order fields (snake_case names of the contract). */
export function orderFieldsOf(
  o: OrderRow,
  extra: { assignTo: string | null; appMailDomain: string; dueState: OrderFields['due_state'] },
): OrderFields {
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
    application_email: `${o.orderId}@${extra.appMailDomain}`,
    processing_date: o.processingDate,
    process_month: processMonth(o.processingDate),
    refund_date: iso(o.refundDate),
    refund_reason: o.refundReason,
    refund_reason_text: o.refundReasonText,
    assign_to: extra.assignTo,
    amount: o.amount,
    currency: o.currency,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
    version: o.version,
    due_at: iso(o.dueAt),
    due_paused_at: iso(o.duePausedAt),
    trip_ends_at: iso(o.tripEndsAt),
    due_state: extra.dueState,
    government_reference: o.governmentReference,
    submitted_at: iso(o.submittedAt),
    submission_opens_at: iso(o.submissionOpensAt),
  };
}

/** One order with its assignee's name, as the API answers it; null when it does not exist. */
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
  return orderFieldsOf(row.o, {
    assignTo: row.assignTo ?? null,
    appMailDomain,
    dueState: dueStateOf(row.o.dueAt, await readDueClock(db), {
      pausedAt: row.o.duePausedAt,
      tripEndsAt: row.o.tripEndsAt,
    }),
  });
}

const yn = (v: string): 'Y' | 'N' => (v === 'Y' ? 'Y' : 'N');

/** Maps a remark row to the API's remark item. */
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
