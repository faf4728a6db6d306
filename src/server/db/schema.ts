import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  char,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  CLOSED_STATUSES,
  MAIL_KINDS,
  MAIL_STATUSES,
  type MailKind,
  type MailProvider,
  type MailStatus,
  CONTACT_CHANNELS,
  CONTACT_OUTCOMES,
  ORDER_EVENT_ACTIONS,
  ORDER_STATUSES,
  type OrderEventAction,
  type OrderStatus,
  PROCESSING_MODES,
  type ProcessingMode,
  ROLES,
  type Role,
} from '../../shared/constants.js';
import {
  type MacroStatus,
  TEMPLATE_LANGUAGES,
  type TemplateLanguage,
  type TemplatePurpose,
} from '../../shared/contracts/communication.js';
import {
  CARD_RESULTS,
  type CardFieldResult,
  type CardResult,
  type PassportScan,
} from '../../shared/contracts/card-check.js';
import type { DuplicateDecision } from '../../shared/duplicates.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import type { WeekHours } from '../../shared/contracts/routing.js';
import type { OrderCheck } from '../../shared/order-checks.js';
import { sqlList, sqlValue } from './sql-lists.js';
import { ATTENTION_STATUSES } from '../../shared/check-codes.js';
import { STORED_REFUND_REASONS } from '../../shared/refund-reasons.js';

/** A check as stored with the order (its message is rendered when read). */
type StoredCheck = OrderCheck;

/**
 * `column in (...)` over one of the shared value lists: the database holds only those values. A value
 * added to a list needs no migration: migrateDatabase re-creates the check (db/enum-checks.ts).
 */
const oneOf = (column: SQL | AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sqlList(values)})`;

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * The columns of a stored file (documents, inbound attachments, order files): its key in the document
 * storage and what was recorded of it when it was stored. One definition, so the tables cannot drift.
 */
const storedFileColumns = () => ({
  storageKey: text('storage_key').notNull(),
  originalName: text('original_name').notNull(),
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  sha256: text('sha256').notNull(),
});

/** Raw bytes (PostgreSQL bytea): a Buffer in, a Buffer out whatever the driver hands back. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Staff accounts. `token_version` bumps on password change or delete so every older token dies. */
export const staffUsers = pgTable(
  'staff_users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<Role>().notNull(),
    tokenVersion: integer('token_version').notNull().default(0),
    /** Set when someone else chose the password and the Settings switch asks for a change at sign-in. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** TOTP secret (base32) once two-factor sign-in is on; the pending one while it is being set up. */
    totpSecret: text('totp_secret'),
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true, mode: 'date' }),
    /** The last accepted TOTP time step: a code is good once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Routing (drizzle/0087): open orders routing hands them at most (0–200). */
    capacity: integer('capacity').notNull().default(25),
    /** The customer languages they answer in. */
    languages: text('languages').array().$type<CustomerLanguage[]>().notNull().default(sql`'{}'::text[]`),
    /** Weekly hours in the service time zone; null: never assigned by routing. */
    shift: jsonb('shift').$type<WeekHours>(),
    /** Away (until `awayUntil` when set): routing hands them nothing. */
    away: boolean('away').notNull().default(false),
    awayUntil: timestamp('away_until', { withTimezone: true, mode: 'date' }),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('staff_users_role_ck', oneOf(t.role, ROLES)),
    check('staff_users_capacity_ck', sql`${t.capacity} between 0 and 200`),
    check('staff_users_languages_ck', sql`${t.languages} <@ array['en', 'es', 'nl', 'pap', 'pt']::text[]`),
    uniqueIndex('staff_users_email_live_uq').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * Server-side staff sessions: every token names one (`sid`). The guard refuses a token whose session
 * is ended, idle too long or past its absolute end. `pending` restricts a session to finishing a
 * required step (a password change, the two-factor setup) before anything else.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    endReason: text('end_reason'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    device: text('device'),
    pending: text('pending'),
  },
  (t) => [index('staff_sessions_user_idx').on(t.userId, t.createdAt)],
);

/** One-time recovery codes of two-factor sign-in (SHA-256 of the code; the code is shown once). */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('staff_recovery_codes_user_idx').on(t.userId)],
);

/**
 * Sign-in throttle counters: one row per key (account + IP, account, two-factor of a user), counted
 * atomically by an upsert before any password is checked. The window restarts when it has passed.
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
  attempts: integer('attempts').notNull(),
});

/** Service settings an Admin changes on screen (key → JSON value). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: integer('updated_by').references(() => staffUsers.id),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Mails to staff members (sign-in from a new device, password and two-factor changes): an outbox. */
export const staffNotices = pgTable(
  'staff_notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null for a notice to an address without an account (MANAGER_ALERT_EMAIL). */
    userId: integer('user_id').references(() => staffUsers.id),
    kind: text('kind').notNull(),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('staff_notices_queued_idx').on(t.id).where(sql`${t.status} = 'queued'`)],
);

/** Order ids are numeric from 100001 (docs/product.md, "Orders"). */
export const orderIdSeq = pgSequence('order_id_seq', { startWith: 100001 });

export const orders = pgTable(
  'orders',
  {
    orderId: bigint('order_id', { mode: 'number' }).primaryKey().default(sql`nextval('order_id_seq')`),
    clientReference: text('client_reference'),
    transactionId: text('transaction_id'),
    merchantName: text('merchant_name'),
    email: text('email').notNull(),
    reEnterEmail: text('re_enter_email'),
    processingMode: text('processing_mode').$type<ProcessingMode>().notNull().default('Standard'),
    processStatus: text('process_status').$type<OrderStatus>().notNull().default('New'),
    landingDomain: text('landing_domain'),
    arrivalDate: date('arrival_date', { mode: 'string' }),
    residentCheck: text('resident_check'),
    passportNumber: text('passport_number'),
    passportExpiration: date('passport_expiration', { mode: 'string' }),
    lastName: text('last_name').notNull().default(''),
    firstName: text('first_name').notNull().default(''),
    nationality: text('nationality'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    sex: text('sex'),
    countryOfBirth: text('country_of_birth'),
    countryOfDeparture: text('country_of_departure'),
    travelMode: text('travel_mode'),
    airline: text('airline'),
    flightNumber: text('flight_number'),
    departureDate: date('departure_date', { mode: 'string' }),
    vesselName: text('vessel_name'),
    countryOfResidence: text('country_of_residence'),
    zipCode: text('zip_code'),
    state: text('state'),
    city: text('city'),
    address: text('address'),
    residenceNumber: text('residence_number'),
    occupation: text('occupation'),
    purposeOfVisit: text('purpose_of_visit'),
    dualCitizenship: text('dual_citizenship'),
    phoneCode: text('phone_code'),
    telephoneNumber: text('telephone_number'),
    priorVisits: text('prior_visits'),
    placeOfStay: text('place_of_stay'),
    nameOfPlaceOfStay: text('name_of_place_of_stay'),
    otherHotelName: text('other_hotel_name'),
    localAddress: text('local_address'),
    houseNumber: text('house_number'),
    assignedTo: integer('assigned_to').references(() => staffUsers.id),
    processingDate: date('processing_date', { mode: 'string' }).notNull(),
    refundDate: timestamp('refund_date', { withTimezone: true, mode: 'date' }),
    /** Why the order is (being) refunded: a REFUND_REASON_CODES code; 'unspecified' when none was given. */
    refundReason: text('refund_reason'),
    /** The text of the reason 'other'. */
    refundReasonText: text('refund_reason_text'),
    /** The card network of the payment as the intake sent it (visa, mastercard, amex, …). */
    cardBrand: text('card_brand'),
    /** The payment's risk level as the intake sent it (normal, elevated, highest). */
    riskLevel: text('risk_level'),
    amount: numeric('amount', { precision: 10, scale: 2 }).notNull().default('0'),
    currency: text('currency').notNull().default('USD'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * Raised by every change of the order: in the writer's own update (VERSION_BUMP), else by the trigger
     * on order_events, one per event. Stale writes are refused with 409.
     */
    version: integer('version').notNull().default(1),
    /**
     * The transaction (txid_current()) whose own update last raised `version` (VERSION_BUMP): the publish
     * trigger on order_events leaves those orders alone (drizzle/0099).
     */
    versionXact: bigint('version_xact', { mode: 'number' }),
    /**
     * In Awaiting: when the waiting policy next looks at the order (its next step's time). Set to
     * -infinity (look at the next pass) on entering Awaiting and cleared on leaving by the trigger
     * orders_waiting_next (drizzle/0100); the policy's pass writes the next step's time.
     */
    waitingNextAt: timestamp('waiting_next_at', { withTimezone: true, mode: 'date' }),
    /**
     * When an open order is due under the due-time policy; null for Completed, Refunded and Deleted.
     * Kept by the trigger orders_due_at (function order_due_at, drizzle/0050), never written by the application.
     */
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }),
    /**
     * The due clock's pause (migration due_clock_pause, kept by the same trigger): when the current wait on
     * someone else began (null when not waiting), and the seconds of the waits before it.
     */
    duePausedAt: timestamp('due_paused_at', { withTimezone: true, mode: 'date' }),
    duePausedSeconds: integer('due_paused_seconds').notNull().default(0),
    /**
     * When the customer's verified answer arrived whose own due-time target still runs (the due-time
     * policy's `customerAnswer`, drizzle/0096): set by the answer, cleared by the trigger orders_due_at at
     * the order's next move.
     */
    answerDueFrom: timestamp('answer_due_from', { withTimezone: true, mode: 'date' }),
    /** End of the arrival day (service time) of an order still worked; from then on it is "Trip passed". */
    tripEndsAt: timestamp('trip_ends_at', { withTimezone: true, mode: 'date' }),
    /**
     * The customer's language (en, es, nl, pap, pt) as last chosen on the intake or the customer page;
     * null until a choice is known. Customer mails use it (docs/decisions/210).
     */
    language: text('language').$type<CustomerLanguage>(),
    /** When the customer's latest unread answer came in (the "Customer replied" flag); null once read. */
    customerRepliedAt: timestamp('customer_replied_at', { withTimezone: true, mode: 'date' }),
    /** When the customer last corrected the order on the track page (the "Customer edited" badge); null once opened. */
    customerEditedAt: timestamp('customer_edited_at', { withTimezone: true, mode: 'date' }),
    /**
     * The failing data checks of the order (src/shared/order-checks.ts) as last run, at intake and after
     * every change of its data: [{code, severity, fields, params}]; check_level is 2 with a blocking one,
     * 1 with a warning, else 0 (docs/decisions/310).
     */
    checks: jsonb('checks').$type<StoredCheck[]>().notNull().default([]),
    checkLevel: smallint('check_level').notNull().default(0),
    /** Flags other parts of the service raise on the order (CHECK_FLAGS); each becomes a check. */
    checkFlags: text('check_flags').array().notNull().default(sql`'{}'::text[]`),
    /** The reference the government's portal gave on submission (4–40 of A-Z, 0-9, '-'); null until known. */
    governmentReference: text('government_reference'),
    /** When and by whom the order was marked submitted to the government (POST .../submitted). */
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
    submittedBy: integer('submitted_by').references(() => staffUsers.id),
    /**
     * The submission window (docs/product.md, "Submitting to the government"): the processing date the
     * order came with, while a window moved processing_date to the day its window opens; null otherwise.
     */
    orderedProcessingDate: date('ordered_processing_date', { mode: 'string' }),
    /** When the government's portal accepts the order (start of that service day); null without a window. */
    submissionOpensAt: timestamp('submission_opens_at', { withTimezone: true, mode: 'date' }),
    /** A warning or a blocking check on an order still being worked: the Needs attention filter. */
    needsAttention: boolean('needs_attention').generatedAlwaysAs(
      sql`"check_level" > 0 and "process_status" in (${sqlList(ATTENTION_STATUSES)})`,
    ),
    /** The passport number as the duplicate rule compares it (letters and digits, upper case). */
    passportKey: text('passport_key').generatedAlwaysAs(
      sql`nullif(upper(regexp_replace(coalesce("passport_number", ''), '[^A-Za-z0-9]', '', 'g')), '')`,
    ),
  },
  (t) => [
    check('orders_language_ck', sql`${t.language} in ('en', 'es', 'nl', 'pap', 'pt')`),
    check('orders_process_status_ck', oneOf(t.processStatus, ORDER_STATUSES)),
    check('orders_processing_mode_ck', oneOf(t.processingMode, PROCESSING_MODES)),
    check('orders_refund_reason_ck', oneOf(t.refundReason, STORED_REFUND_REASONS)),
    uniqueIndex('orders_client_reference_uq').on(t.clientReference),
    // Lists sorted by due time or arrival, per status folder and across folders; the due-time index also
    // answers the at-risk and breached counts with one range scan.
    index('orders_due_idx').on(t.dueAt, t.orderId),
    index('orders_status_due_idx').on(t.processStatus, t.dueAt, t.orderId),
    index('orders_arrival_idx').on(t.arrivalDate, t.orderId),
    index('orders_refund_reason_idx')
      .on(t.refundReason, t.refundDate)
      .where(sql`${t.refundReason} is not null`),
    index('orders_status_arrival_idx').on(t.processStatus, t.arrivalDate, t.orderId),
    // The waiting policy's pass: the orders in Awaiting whose next step is due (drizzle/0100).
    index('orders_waiting_next_idx')
      .on(t.waitingNextAt)
      .where(sql`${t.processStatus} = ${sqlValue('Awaiting')}`),
    // Claim-next: the unassigned open orders of a folder, most urgent first. Claimed orders leave these,
    // so a queue worked for hours is not re-read past every order already handed out. New orders are
    // split as their folders are (Priority or not), so neither walks past the other's orders.
    index('orders_claimable_idx')
      .on(t.processStatus, t.arrivalDate, t.createdAt, t.orderId)
      .where(
        sql`${t.assignedTo} is null and ${t.processStatus} not in (${sqlList(['New', ...CLOSED_STATUSES])})`,
      ),
    index('orders_claimable_new_idx')
      .on(t.arrivalDate, t.createdAt, t.orderId)
      .where(
        sql`${t.processStatus} = ${sqlValue('New')} and ${t.assignedTo} is null and ${t.processingMode} <> ${sqlValue('Priority')}`,
      ),
    index('orders_claimable_priority_idx')
      .on(t.arrivalDate, t.createdAt, t.orderId)
      .where(
        sql`${t.processStatus} = ${sqlValue('New')} and ${t.assignedTo} is null and ${t.processingMode} = ${sqlValue('Priority')}`,
      ),
    // The routing pass's waiting orders in the order it hands them out: Priority first, oldest first
    // (drizzle/0101).
    index('orders_routing_queue_idx')
      .on(sql`(${t.processingMode} = ${sqlValue('Priority')}) desc`, t.createdAt, t.orderId)
      .where(sql`${t.processStatus} = ${sqlValue('New')} and ${t.assignedTo} is null`),
    // The same orders by processing day: "few or none due" read from the index alone (drizzle/0101).
    index('orders_new_unassigned_day_idx')
      .on(t.processingDate, t.orderId)
      .where(sql`${t.processStatus} = ${sqlValue('New')} and ${t.assignedTo} is null`),
    // The job API's queue: the unassigned New orders of both folders by due time (drizzle/0102).
    index('orders_submission_queue_idx')
      .on(t.dueAt, t.orderId)
      .where(sql`${t.processStatus} = ${sqlValue('New')} and ${t.assignedTo} is null`),
    // Claim-next's unread answers, taken first: per status in arrival order (drizzle/0103).
    index('orders_answered_queue_idx')
      .on(t.processStatus, t.arrivalDate, t.createdAt, t.orderId)
      .where(
        sql`${t.customerRepliedAt} is not null and ${t.assignedTo} is null and ${t.processStatus} not in (${sqlList(CLOSED_STATUSES)})`,
      ),
    // New Orders and Priority Orders by due time: the same orders by their deadline, so a sorted page
    // does not walk past the New orders already taken (Pending) either. The migration's indexes of the
    // four working queues also include customer_replied_at, trip_ends_at and processing_date (drizzle/0116):
    // a default page reads its groups from the index alone (decision 452).
    index('orders_new_due_idx')
      .on(t.dueAt, t.orderId)
      .where(
        sql`${t.processStatus} = ${sqlValue('New')} and ${t.assignedTo} is null and ${t.processingMode} <> ${sqlValue('Priority')}`,
      ),
    index('orders_priority_due_idx')
      .on(t.dueAt, t.orderId)
      .where(
        sql`${t.processStatus} = ${sqlValue('New')} and ${t.assignedTo} is null and ${t.processingMode} = ${sqlValue('Priority')}`,
      ),
    // Pending Orders and My Orders by due time, their default order (decision 332).
    index('orders_pending_due_idx')
      .on(t.dueAt, t.orderId)
      .where(sql`${t.processStatus} = ${sqlValue('New')} and ${t.assignedTo} is not null`),
    index('orders_my_due_idx')
      .on(t.assignedTo, t.dueAt, t.orderId)
      .where(sql`${t.processStatus} not in (${sqlList(CLOSED_STATUSES)})`),
    index('orders_created_idx').on(t.createdAt.desc(), t.orderId.desc()),
    index('orders_trip_ends_idx').on(t.tripEndsAt, t.orderId).where(sql`${t.tripEndsAt} is not null`),
    index('orders_status_created_idx').on(t.processStatus, t.createdAt.desc(), t.orderId.desc()),
    index('orders_assigned_idx').on(t.assignedTo, t.createdAt.desc(), t.orderId.desc()),
    index('orders_email_lower_idx').on(sql`lower(${t.email})`),
    index('orders_government_reference_idx')
      .on(sql`upper(${t.governmentReference})`)
      .where(sql`${t.governmentReference} is not null`),
    index('orders_transaction_id_idx').on(t.transactionId).where(sql`${t.transactionId} is not null`),
    index('orders_submitted_at_idx').on(t.submittedAt).where(sql`${t.submittedAt} is not null`),
    index('orders_customer_replied_idx')
      .on(t.assignedTo, t.customerRepliedAt)
      .where(sql`${t.customerRepliedAt} is not null`),
    index('orders_needs_attention_idx')
      .on(t.createdAt.desc(), t.orderId.desc())
      .where(sql`${t.needsAttention}`),
    // A folder's "Needs attention" total, from the index alone (drizzle/0059).
    index('orders_needs_attention_status_idx')
      .on(t.processStatus, t.processingDate, t.assignedTo, t.processingMode)
      .where(sql`${t.needsAttention}`),
    index('orders_passport_key_idx')
      .on(t.passportKey, sql`coalesce(lower(btrim(${t.nationality})), '')`)
      .where(sql`${t.passportKey} is not null`),
    // The submission windows still to open and the ones whose moment came (drizzle/0094).
    index('orders_submission_opening_idx')
      .on(t.submissionOpensAt)
      .where(sql`${t.processStatus} = ${sqlValue('New')} and ${t.submissionOpensAt} is not null`),
  ],
);

/**
 * Staff decisions on a pair of possible duplicates (the lower order id first): 'not_duplicate' silences
 * the pair for good; 'duplicate' links them (the newer one went to Refunds).
 */
export const orderDuplicateDecisions = pgTable(
  'order_duplicate_decisions',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    otherOrderId: bigint('other_order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    decision: text('decision').$type<DuplicateDecision>().notNull(),
    decidedBy: integer('decided_by').references(() => staffUsers.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'order_duplicate_decisions_pk', columns: [t.orderId, t.otherOrderId] }),
    check('order_duplicate_decisions_pair_ck', sql`${t.orderId} < ${t.otherOrderId}`),
    check('order_duplicate_decisions_decision_ck', sql`${t.decision} in ('duplicate', 'not_duplicate')`),
    index('order_duplicate_decisions_other_idx').on(t.otherOrderId),
  ],
);

/** A remark's yes/no column: 'Y' or 'N', 'N' unless set. */
const yesNoColumn = (name: string) => char(name, { length: 1 }).notNull().default('N');

export const orderRemarks = pgTable(
  'order_remarks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    authorId: integer('author_id').references(() => staffUsers.id),
    remark: text('remark').notNull(),
    whatsapp: yesNoColumn('whatsapp'),
    telephone: yesNoColumn('telephone'),
    statusRefund: yesNoColumn('status_refund'),
    voided: yesNoColumn('voided'),
    chargeback: yesNoColumn('chargeback'),
    reportError: yesNoColumn('report_error'),
    createdAt: createdAt(),
  },
  (t) => [index('order_remarks_order_idx').on(t.orderId, t.createdAt)],
);

/** A call or WhatsApp contact with the customer, with its outcome; a call-back time brings the order back. */
export const orderContacts = pgTable(
  'order_contacts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    staffId: integer('staff_id').references(() => staffUsers.id),
    channel: text('channel').$type<(typeof CONTACT_CHANNELS)[number]>().notNull(),
    outcome: text('outcome').$type<(typeof CONTACT_OUTCOMES)[number]>().notNull(),
    callBackAt: timestamp('call_back_at', { withTimezone: true, mode: 'date' }),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    check('order_contacts_channel_ck', oneOf(t.channel, CONTACT_CHANNELS)),
    check('order_contacts_outcome_ck', oneOf(t.outcome, CONTACT_OUTCOMES)),
    check('order_contacts_note_len_ck', sql`char_length(${t.note}) <= 1000`),
    index('order_contacts_order_idx').on(t.orderId, t.createdAt),
    index('order_contacts_call_back_idx').on(t.callBackAt).where(sql`${t.outcome} = 'call_back'`),
  ],
);

/** Uploaded approved documents; files live outside any public folder under `storage_key`. */
export const documents = pgTable(
  'documents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    ...storedFileColumns(),
    mailServiceProvider: text('mail_service_provider'),
    uploadedBy: integer('uploaded_by').references(() => staffUsers.id),
    createdAt: createdAt(),
    /** A withdrawn document (wrong upload) is kept for the audit trail but never served or mailed again. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true, mode: 'date' }),
    withdrawnBy: integer('withdrawn_by').references(() => staffUsers.id),
    withdrawReason: text('withdraw_reason'),
  },
  (t) => [
    index('documents_order_idx').on(t.orderId, t.createdAt),
    index('documents_sha256_idx').on(t.sha256),
  ],
);

/**
 * The card check of an approved document (docs/product.md, "Card check"): what was read from the card
 * and how it compares with the order; a Manager's or Admin's release lets a blocked card go out. One row
 * per document; `result` null while the card is being read.
 */
export const cardChecks = pgTable(
  'card_checks',
  {
    documentId: bigint('document_id', { mode: 'number' })
      .primaryKey()
      .references(() => documents.id),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    result: text('result').$type<CardResult>(),
    fields: jsonb('fields').$type<CardFieldResult[]>().notNull().default([]),
    qr: jsonb('qr').$type<string[]>().notNull().default([]),
    duplicateOf: bigint('duplicate_of', { mode: 'number' }),
    createdAt: createdAt(),
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }),
    releasedBy: integer('released_by').references(() => staffUsers.id),
    releaseReason: text('release_reason'),
  },
  (t) => [
    check('card_checks_result_ck', sql`${t.result} is null or ${oneOf(t.result, CARD_RESULTS)}`),
    index('card_checks_order_idx').on(t.orderId),
  ],
);

/** Passport scans read at intake and on arrival (docs/product.md, "Passport scan"): the MRZ against the order. */
export const passportScans = pgTable(
  'passport_scans',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    /** Where the image came from: staff, customer, intake. */
    source: text('source').notNull(),
    status: text('status').$type<'read' | 'unreadable'>().notNull(),
    reason: text('reason'),
    fields: jsonb('fields').$type<PassportScan['fields']>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    check('passport_scans_status_ck', sql`${t.status} in ('read', 'unreadable')`),
    index('passport_scans_order_idx').on(t.orderId, t.createdAt),
  ],
);

/**
 * Customer mail templates (docs/decisions/200): one row per key and language; the text lives in
 * mail_template_versions, every save adds a version. `purpose` ties the built-in mails (approval,
 * reminder, refund, invoice) to their template; 'customer' templates serve macros and status mails.
 */
export const mailTemplates = pgTable(
  'mail_templates',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    language: text('language').$type<TemplateLanguage>().notNull(),
    purpose: text('purpose').$type<TemplatePurpose>().notNull().default('customer'),
    name: text('name').notNull(),
    currentVersion: integer('current_version').notNull().default(1),
    createdBy: integer('created_by').references(() => staffUsers.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('mail_templates_language_ck', oneOf(t.language, TEMPLATE_LANGUAGES)),
    uniqueIndex('mail_templates_key_language_uq').on(t.key, t.language).where(sql`${t.deletedAt} is null`),
  ],
);

/** Every saved version of a template (kept for the mail log and the versions list). */
export const mailTemplateVersions = pgTable(
  'mail_template_versions',
  {
    templateId: integer('template_id')
      .notNull()
      .references(() => mailTemplates.id),
    version: integer('version').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdBy: integer('created_by').references(() => staffUsers.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.version] })],
);

/** Per status: whether the customer is mailed when an order enters it, and with which template key. */
export const statusNotifications = pgTable('status_notifications', {
  status: text('status').$type<OrderStatus>().primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  templateKey: text('template_key'),
  updatedBy: integer('updated_by').references(() => staffUsers.id),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Macros: a named set of steps applied to one or many orders (remark, status move, template mail). */
export const macros = pgTable(
  'macros',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    remark: text('remark'),
    moveTo: text('move_to').$type<MacroStatus>(),
    templateKey: text('template_key'),
    whatsappText: text('whatsapp_text'),
    /** The order must have a current (not withdrawn) approved document. */
    requiresDocument: boolean('requires_document').notNull().default(false),
    createdBy: integer('created_by').references(() => staffUsers.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('macros_name_uq').on(sql`lower(${t.name})`)],
);

/** Every mail of the outbox: its kind (MAIL_KINDS) and where it is (MAIL_STATUSES). */
export const mailLog = pgTable(
  'mail_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    kind: text('kind').$type<MailKind>().notNull(),
    toEmail: text('to_email').notNull(),
    provider: text('provider').$type<MailProvider>().notNull(),
    documentId: bigint('document_id', { mode: 'number' }).references(() => documents.id),
    isReminder: boolean('is_reminder').notNull().default(false),
    status: text('status').$type<MailStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    messageId: text('message_id'),
    error: text('error'),
    requestedBy: integer('requested_by').references(() => staffUsers.id),
    /** The mail template and the version of it this mail was (or will be) built from (docs/decisions/200). */
    templateId: integer('template_id').references(() => mailTemplates.id),
    templateVersion: integer('template_version'),
    /** The template values as they were when the mail was queued (docs/decisions/294). */
    templateValues: jsonb('template_values').$type<Record<string, unknown>>(),
    /** A staff reply written as free text: the mail's text, sent instead of a template (decision 328). */
    bodyText: text('body_text'),
    /** A mail caused by a move or macro waits until then (the undo window); Undo cancels it. */
    holdUntil: timestamp('hold_until', { withTimezone: true, mode: 'date' }),
    /** The Message-ID we set (signed, names this row), the provider's own id when it rewrote it (inbound/). */
    ourMessageId: text('our_message_id'),
    providerMessageId: text('provider_message_id'),
    /** A delivery report said this mail did not arrive. */
    bouncedAt: timestamp('bounced_at', { withTimezone: true, mode: 'date' }),
    bounceReason: text('bounce_reason'),
    /** The subject the mail went out with (set on delivery). */
    subject: text('subject'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('mail_log_kind_ck', oneOf(t.kind, MAIL_KINDS)),
    check('mail_log_status_ck', oneOf(t.status, MAIL_STATUSES)),
    index('mail_log_order_idx').on(t.orderId, t.createdAt),
    // The delivery dispatcher scans only rows not yet handed to the job queue.
    index('mail_log_queued_idx').on(t.id).where(sql`${t.status} = 'queued'`),
    // At most one reminder per approved document, even with several instances running the scan.
    uniqueIndex('mail_log_reminder_uq').on(t.documentId).where(sql`${t.isReminder}`),
    // The per-staff resend limit counts one member's recent resends without scanning the log.
    index('mail_log_resend_requester_idx').on(t.requestedBy, t.createdAt).where(sql`${t.kind} = 'resend'`),
    // The customer-mail limits count one member's recent mails of every kind.
    index('mail_log_requester_idx').on(t.requestedBy, t.createdAt).where(sql`${t.requestedBy} is not null`),
    // Replies and delivery reports name the mail they answer by one of its ids.
    index('mail_log_message_id_idx').on(t.messageId).where(sql`${t.messageId} is not null`),
    index('mail_log_our_message_id_idx').on(t.ourMessageId).where(sql`${t.ourMessageId} is not null`),
    index('mail_log_provider_message_id_idx')
      .on(t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    // Insights counts the few bounced mails per day without scanning the log.
    index('mail_log_bounced_idx').on(t.createdAt).where(sql`${t.bouncedAt} is not null`),
  ],
);

/** One row per delivery attempt of a mail_log entry. */
export const mailAttempts = pgTable(
  'mail_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mailId: bigint('mail_id', { mode: 'number' })
      .notNull()
      .references(() => mailLog.id),
    attempt: integer('attempt').notNull(),
    provider: text('provider').$type<MailProvider>().notNull(),
    ok: boolean('ok').notNull(),
    messageId: text('message_id'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_attempts_mail_idx').on(t.mailId, t.attempt)],
);

export const downloadLog = pgTable(
  'download_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    documentId: bigint('document_id', { mode: 'number' }).references(() => documents.id),
    fileName: text('file_name'),
    ip: text('ip').notNull(),
    userAgent: text('user_agent'),
    device: text('device'),
    deviceType: text('device_type'),
    browser: text('browser'),
    os: text('os'),
    location: text('location'),
    timezone: text('timezone'),
    /** The id (jti) of the signed download URL that delivered the file: each URL delivers once. */
    grantId: text('grant_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('download_log_order_idx').on(t.orderId, t.createdAt),
    uniqueIndex('download_log_grant_idx').on(t.grantId),
  ],
);

export const paymentGateways = pgTable('payment_gateways', {
  id: serial('id').primaryKey(),
  gatewayName: text('gateway_name').notNull().unique(),
  isActive: boolean('is_active').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Append-only order history: who did what, when, from -> to (status, assign, remark, upload, mail…). */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    actorId: integer('actor_id').references(() => staffUsers.id),
    /** 'customer' when the customer made the change on the track page (no staff actor then). */
    actorKind: text('actor_kind').$type<'customer'>(),
    action: text('action').$type<OrderEventAction>().notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    /**
     * Moves to Completed only: the order's due time at that moment (null without one). Filled by a trigger
     * (drizzle/0031), never by the app; the insights count completions on time from it.
     */
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('order_events_action_ck', oneOf(t.action, ORDER_EVENT_ACTIONS)),
    check('order_events_actor_kind_ck', sql`${t.actorKind} is null or ${t.actorKind} = 'customer'`),
    index('order_events_order_idx').on(t.orderId, t.createdAt),
    index('order_events_action_created_idx').on(t.action, t.toValue, t.createdAt),
  ],
);

/** Who has an order open right now (heartbeats from the detail page; rows older than 30 s are gone). */
export const orderPresence = pgTable(
  'order_presence',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    staffId: integer('staff_id')
      .notNull()
      .references(() => staffUsers.id),
    editing: boolean('editing').notNull().default(false),
    seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.staffId] }), index('order_presence_seen_idx').on(t.seenAt)],
);

/** Saved list views: a folder and its list query; shared ones (Admin, Manager) are seen by everyone. */
export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => staffUsers.id),
    name: text('name').notNull(),
    folder: text('folder').notNull(),
    query: jsonb('query').notNull(),
    shared: boolean('shared').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('saved_views_owner_idx').on(t.ownerId),
    index('saved_views_shared_idx').on(t.id).where(sql`${t.shared}`),
  ],
);

/** Audit log for staff-access writes (logins, team, gateways, passwords). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: integer('actor_id').references(() => staffUsers.id),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    target: text('target'),
    fromValue: jsonb('from_value'),
    toValue: jsonb('to_value'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.createdAt)],
);

/** The keys and the count of the folder counters, shared by the tables that split them further. */
const folderCounterColumns = () => ({
  processStatus: text('process_status').$type<OrderStatus>().notNull(),
  processingMode: text('processing_mode').$type<ProcessingMode>().notNull(),
  assignedTo: integer('assigned_to'),
  dueDate: date('due_date', { mode: 'string' }),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/**
 * Exact folder counts, kept by statement-level triggers on orders (drizzle/0002_order_queues.sql), so
 * get-folder-count sums a few thousand rows instead of counting a million. `due_date` is the
 * processing date for status New (the date-dependent folders) and null otherwise.
 */
export const orderFolderCounts = pgTable(
  'order_folder_counts',
  {
    ...folderCounterColumns(),
  },
  (t) => [
    unique('order_folder_counts_key')
      .on(t.processStatus, t.processingMode, t.assignedTo, t.dueDate)
      .nullsNotDistinct(),
  ],
);

/**
 * Per member, the open orders they hold and their last assignment (drizzle/0114): kept by statement
 * triggers on orders and order_events, read through orders/holder-counts.ts (routing, the capacity check).
 */
export const orderHolderCounts = pgTable('order_holder_counts', {
  assignedTo: integer('assigned_to').primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
  lastAssignedAt: timestamp('last_assigned_at', { withTimezone: true, mode: 'date' }),
});

/**
 * The folder counters again, per nationality as stored on the order: the exact total of a list filtered
 * by nationality is a small sum here instead of a count over the orders (kept by the same trigger).
 */
export const orderNationalityCounts = pgTable(
  'order_nationality_counts',
  {
    nationality: text('nationality'),
    ...folderCounterColumns(),
  },
  (t) => [
    unique('order_nationality_counts_key')
      .on(t.nationality, t.processStatus, t.processingMode, t.assignedTo, t.dueDate)
      .nullsNotDistinct(),
    // A total sums one nationality's rows: an index-only scan with every column it reads.
    index('order_nationality_counts_sum_idx').on(t.nationality),
  ],
);

/**
 * The folder counters again, counting only the orders flagged Needs attention (drizzle/0115): a folder's
 * list filtered to Needs attention, and the sidebar's count, sum a few rows here (kept by the same trigger).
 */
export const orderAttentionCounts = pgTable(
  'order_attention_counts',
  {
    ...folderCounterColumns(),
  },
  (t) => [
    unique('order_attention_counts_key')
      .on(t.processStatus, t.processingMode, t.assignedTo, t.dueDate)
      .nullsNotDistinct(),
  ],
);

/**
 * Report rollups (docs/decisions/061), kept by statement-level triggers (drizzle/*_report_rollups.sql):
 * the reports sum a few thousand day rows instead of aggregating a million orders. Days are calendar days
 * of the service time zone (America/New_York).
 */
export const reportCountryDaily = pgTable(
  'report_country_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    nationality: text('nationality').notNull(),
    /** Orders created that day, not Deleted. */
    orders: integer('orders').notNull().default(0),
    /** Of those, processing mode Priority (every other mode counts as Standard). */
    priorityOrders: integer('priority_orders').notNull().default(0),
    /** Of those, future orders as of `report_future_state.as_of` (status New, processing date after it). */
    futureOrders: integer('future_orders').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.nationality] })],
);

/** The same counts per calendar month (first day), kept from report_country_daily by a row trigger. */
export const reportCountryMonthly = pgTable(
  'report_country_monthly',
  {
    month: date('month', { mode: 'string' }).notNull(),
    nationality: text('nationality').notNull(),
    orders: integer('orders').notNull().default(0),
    priorityOrders: integer('priority_orders').notNull().default(0),
    futureOrders: integer('future_orders').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.nationality] })],
);

/** The one day report_country_daily.future_orders is computed for; the report refreshes it when the service day turns. */
export const reportFutureState = pgTable('report_future_state', {
  id: integer('id').primaryKey().default(1),
  asOf: date('as_of', { mode: 'string' }).notNull(),
});

/** Moves to Completed per service day and actor (0 = no actor). */
export const reportProcessedDaily = pgTable(
  'report_processed_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    actorId: integer('actor_id').notNull(),
    completions: integer('completions').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.actorId] })],
);

/**
 * Insights rollups (docs/decisions/120), kept by statement-level triggers (drizzle/*_insights_rollups.sql)
 * in the transaction of the change. Days are service-time-zone days (America/New_York).
 * Per day and actor (0 = none): orders received (actor 0 only), moves to Completed / Refunded / Deleted /
 * ChargeBack, all status moves and remarks, from orders and order_events.
 */
export const insightsDaily = pgTable(
  'insights_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    actorId: integer('actor_id').notNull(),
    received: integer('received').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    refunded: integer('refunded').notNull().default(0),
    deleted: integer('deleted').notNull().default(0),
    chargebacks: integer('chargebacks').notNull().default(0),
    statusMoves: integer('status_moves').notNull().default(0),
    remarks: integer('remarks').notNull().default(0),
    /** Moves to Completed whose order had a due time, and those of them at or before it. */
    completedDue: integer('completed_due').notNull().default(0),
    completedOnTime: integer('completed_on_time').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.actorId] })],
);

/**
 * Histograms of durations in whole hours (rounded down) per completion day: kind 1 payment → Completed
 * (actor 0), kind 2 last assignment → Completed per completing actor. Percentiles read them exactly.
 */
export const insightsDurationDaily = pgTable(
  'insights_duration_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: integer('kind').notNull(),
    actorId: integer('actor_id').notNull(),
    hours: integer('hours').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind, t.actorId, t.hours] })],
);

/** Mail outbox rows per creation day and provider, by state: sent, failed, pending (anything else). */
export const insightsMailDaily = pgTable(
  'insights_mail_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    provider: text('provider').notNull(),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    pending: integer('pending').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.provider] })],
);

/**
 * Payment → Completed per completion day: count, nearest-rank median and 90th percentile in whole hours,
 * recomputed from the kind-1 histogram for the days each statement touches (docs/decisions/120).
 */
export const insightsTtcDaily = pgTable('insights_ttc_daily', {
  day: date('day', { mode: 'string' }).primaryKey(),
  completed: integer('completed').notNull().default(0),
  medianHours: integer('median_hours'),
  p90Hours: integer('p90_hours'),
});

/**
 * One row per assignment of an order to a member, with the member's first own action on the order after
 * it (Insights' routing figures; decision 438). Kept by statement triggers on order_events (drizzle/0112),
 * never written by the application.
 */
export const assignmentFirstActions = pgTable(
  'assignment_first_actions',
  {
    assignEventId: bigint('assign_event_id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    staffId: integer('staff_id').notNull(),
    assignedAt: timestamp('assigned_at', { withTimezone: true }).notNull(),
    firstActionAt: timestamp('first_action_at', { withTimezone: true }),
  },
  (t) => [
    // The migration's index also includes staff_id and first_action_at (an index-only read of a period).
    index('assignment_first_actions_period_idx').on(t.assignedAt),
    index('assignment_first_actions_order_idx').on(t.orderId, t.staffId),
    // Only the assignments with a first action (Insights' median), with the same included columns.
    index('assignment_first_actions_acted_idx').on(t.assignedAt).where(sql`${t.firstActionAt} is not null`),
  ],
);

/**
 * Disputes (chargebacks) a payment provider opened on our orders (docs/decisions/300). Amounts in the
 * currency's minor unit. While one needs a response its `due_by` is the order's due time (a trigger,
 * drizzle/0042), so the urgency lists carry it.
 */
export const paymentDisputes = pgTable(
  'payment_disputes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    disputeId: text('dispute_id').notNull(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    chargeId: text('charge_id'),
    paymentIntentId: text('payment_intent_id'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    reason: text('reason'),
    status: text('status').notNull(),
    dueBy: timestamp('due_by', { withTimezone: true, mode: 'date' }),
    evidenceFileId: text('evidence_file_id'),
    evidenceSavedAt: timestamp('evidence_saved_at', { withTimezone: true, mode: 'date' }),
    evidenceSubmittedAt: timestamp('evidence_submitted_at', { withTimezone: true, mode: 'date' }),
    evidenceBy: integer('evidence_by').references(() => staffUsers.id),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    /** The `created` time of the latest provider event applied: an older one changes nothing. */
    lastEventAt: timestamp('last_event_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('payment_disputes_provider_dispute_uq').on(t.provider, t.disputeId),
    index('payment_disputes_order_idx').on(t.orderId, t.createdAt),
    index('payment_disputes_created_idx').on(t.createdAt),
    index('payment_disputes_closed_idx').on(t.closedAt),
  ],
);

/**
 * Refunds through a payment provider: each attempt of the product (its idempotency key) and refunds made
 * outside the product that the provider reported (`source` 'outside'). Amounts in minor units.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    provider: text('provider').notNull(),
    source: text('source').$type<'product' | 'outside'>().notNull().default('product'),
    attempt: integer('attempt').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    reason: text('reason'),
    /** The product's reason code (REFUND_REASON_CODES) and the text of 'other'. */
    reasonCode: text('reason_code'),
    reasonText: text('reason_text'),
    status: text('status').$type<'pending' | 'succeeded' | 'failed' | 'unknown'>().notNull(),
    refundId: text('refund_id'),
    error: text('error'),
    /** The payment the attempt refunds, as the order named it when the attempt began. */
    paymentRef: text('payment_ref'),
    /** While set and in the future, a request is talking to the provider about this attempt. */
    inFlightUntil: timestamp('in_flight_until', { withTimezone: true, mode: 'date' }),
    requestedBy: integer('requested_by').references(() => staffUsers.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('payment_refunds_key_uq').on(t.provider, t.idempotencyKey),
    check('payment_refunds_source_ck', sql`${t.source} in ('product', 'outside')`),
    check('payment_refunds_status_ck', sql`${t.status} in ('pending', 'succeeded', 'failed', 'unknown')`),
    index('payment_refunds_order_idx').on(t.orderId, t.attempt),
    index('payment_refunds_created_idx').on(t.createdAt),
  ],
);

/** The payment policy (one row, id 1): acting on fraud warnings and the dispute ratio's bands. */
export const paymentPolicy = pgTable(
  'payment_policy',
  {
    id: smallint('id').primaryKey().default(1),
    autoRefundFraudWarnings: boolean('auto_refund_fraud_warnings').notNull().default(true),
    disputeWatchPercent: numeric('dispute_watch_percent', { precision: 6, scale: 3 })
      .notNull()
      .default('0.5'),
    disputeExcessivePercent: numeric('dispute_excessive_percent', { precision: 6, scale: 3 })
      .notNull()
      .default('0.75'),
    /** The month and band the managers were last told about (a band change notifies once). */
    notifiedMonth: text('notified_month'),
    notifiedBand: text('notified_band'),
    updatedBy: integer('updated_by').references(() => staffUsers.id),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('payment_policy_single_ck', sql`${t.id} = 1`),
    check(
      'payment_policy_bands_ck',
      sql`${t.disputeWatchPercent} > 0 and ${t.disputeWatchPercent} < ${t.disputeExcessivePercent} and ${t.disputeExcessivePercent} <= 100`,
    ),
  ],
);

/** Charges the provider reported (charge.succeeded, payment_intent.succeeded): card network and risk. */
export const paymentCharges = pgTable(
  'payment_charges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    chargeId: text('charge_id').notNull(),
    paymentIntentId: text('payment_intent_id'),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.orderId),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    brand: text('brand').notNull(),
    riskLevel: text('risk_level'),
    chargedAt: timestamp('charged_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('payment_charges_uq').on(t.provider, t.chargeId),
    index('payment_charges_order_idx').on(t.orderId),
  ],
);

/**
 * The dispute ratios' counters (decision 431, drizzle/0104), kept by the triggers of orders, charges,
 * disputes and warnings in the transaction of each change: per month of the service time zone (its first
 * day) and card brand as the ratios count it (the first charge's, else the intake's, else 'other'), the
 * settled charges, the disputes opened (per reason; 'unknown' when none was given), the early fraud
 * warnings and the disputes closed won or lost. Figures other than the disputes are kept under reason ''.
 */
export const disputeMonthCounts = pgTable(
  'dispute_month_counts',
  {
    month: date('month', { mode: 'string' }).notNull(),
    brand: text('brand').notNull(),
    reason: text('reason').notNull().default(''),
    settled: integer('settled').notNull().default(0),
    settledCents: bigint('settled_cents', { mode: 'number' }).notNull().default(0),
    disputes: integer('disputes').notNull().default(0),
    disputeCents: bigint('dispute_cents', { mode: 'number' }).notNull().default(0),
    warnings: integer('warnings').notNull().default(0),
    won: integer('won').notNull().default(0),
    lost: integer('lost').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.brand, t.reason] })],
);

/** Early fraud warnings, one row per warning: what was done about it (refunded, kept, in review). */
export const paymentFraudWarnings = pgTable(
  'payment_fraud_warnings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    warningId: text('warning_id').notNull(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    chargeId: text('charge_id'),
    fraudType: text('fraud_type').notNull(),
    action: text('action')
      .$type<'refunding' | 'refunded' | 'refund_failed' | 'review' | 'kept' | 'recorded'>()
      .notNull(),
    note: text('note'),
    handledBy: integer('handled_by').references(() => staffUsers.id),
    handledAt: timestamp('handled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('payment_fraud_warnings_uq').on(t.provider, t.warningId),
    check(
      'payment_fraud_warnings_action_ck',
      sql`${t.action} in ('refunding', 'refunded', 'refund_failed', 'review', 'kept', 'recorded')`,
    ),
    index('payment_fraud_warnings_order_idx').on(t.orderId),
    index('payment_fraud_warnings_created_idx').on(t.createdAt),
  ],
);

/** Every webhook event a provider sent, once per event id (a replay finds its row and changes nothing). */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    objectId: text('object_id'),
    orderId: bigint('order_id', { mode: 'number' }),
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [unique('payment_webhook_events_uq').on(t.provider, t.eventId)],
);

/**
 * Messages that came in from customers (docs/product.md, "Customers answer back"): mail (webhook or
 * mailbox) and track-page replies, with how each was matched and what was done with it.
 */
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.orderId),
    source: text('source').$type<'mail' | 'track'>().notNull(),
    disposition: text('disposition').$type<'attached' | 'unmatched' | 'auto-reply' | 'bounce'>().notNull(),
    /** Which rule matched it: token, thread, subject, sender, staff, track. */
    matchedBy: text('matched_by'),
    messageId: text('message_id'),
    fromEmail: text('from_email'),
    fromName: text('from_name'),
    subject: text('subject'),
    /** The new text of the message (HTML converted to text); the quoted history apart. */
    bodyText: text('body_text').notNull().default(''),
    quotedText: text('quoted_text').notNull().default(''),
    wasHtml: boolean('was_html').notNull().default(false),
    sizeBytes: integer('size_bytes').notNull().default(0),
    /** Attachments not kept, with why: [{name, reason}]. */
    refusedAttachments: jsonb('refused_attachments')
      .$type<{ name: string; reason: string }[]>()
      .notNull()
      .default([]),
    bouncedMailId: bigint('bounced_mail_id', { mode: 'number' }).references(() => mailLog.id),
    bounceStatus: text('bounce_status'),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    attachedBy: integer('attached_by').references(() => staffUsers.id),
    /** False: matched by its sender alone, whom our receiving server did not authenticate (moved nothing). */
    senderVerified: boolean('sender_verified').notNull().default(true),
    /** Why a message that named an order went to Unmatched Mail (e.g. "sender not authenticated as the government"). */
    unmatchedReason: text('unmatched_reason'),
  },
  (t) => [
    check('inbound_messages_source_ck', sql`${t.source} in ('mail', 'track')`),
    check(
      'inbound_messages_disposition_ck',
      sql`${t.disposition} in ('attached', 'unmatched', 'auto-reply', 'bounce')`,
    ),
    uniqueIndex('inbound_messages_message_id_uq').on(t.messageId).where(sql`${t.messageId} is not null`),
    index('inbound_messages_order_idx').on(t.orderId, t.receivedAt),
    index('inbound_messages_unmatched_idx').on(t.receivedAt).where(sql`${t.disposition} = 'unmatched'`),
  ],
);

/** Files that came with an inbound message, stored under the documents' upload rules. */
export const inboundAttachments = pgTable(
  'inbound_attachments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    inboundId: bigint('inbound_id', { mode: 'number' })
      .notNull()
      .references(() => inboundMessages.id),
    ...storedFileColumns(),
    createdAt: createdAt(),
    /** "Save as document": kept with the order's documents, never the approved card (decision 358). */
    savedAt: timestamp('saved_at', { withTimezone: true, mode: 'date' }),
    savedBy: integer('saved_by').references(() => staffUsers.id),
  },
  (t) => [index('inbound_attachments_inbound_idx').on(t.inboundId)],
);

/**
 * The raw RFC 822 source of a message that came in by mail (drizzle/0109), so a corrected matcher can
 * run again over old mail. Beside inbound_messages, not in it: the conversation reads message rows whole
 * and never needs these bytes. At most the parser's limit (25 MB); an order's erasure deletes the raw
 * messages of its conversation, and a deleted message row takes its raw source with it.
 */
export const inboundRawMessages = pgTable(
  'inbound_raw_messages',
  {
    inboundId: bigint('inbound_id', { mode: 'number' })
      .primaryKey()
      .references(() => inboundMessages.id, { onDelete: 'cascade' }),
    source: bytea('source').notNull(),
  },
  // 25 MB: the parser's limit of one message (INBOUND_LIMITS.maxBytes), nothing larger gets this far.
  (t) => [check('inbound_raw_messages_size_ck', sql`octet_length(${t.source}) <= 26214400`)],
);

/** Customer addresses a delivery report said are failing (lower-case); a later answer from them clears it. */
export const failingAddresses = pgTable('failing_addresses', {
  email: text('email').primaryKey(),
  reason: text('reason').notNull(),
  mailId: bigint('mail_id', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Shift notes on the dashboard: one shift hands over to the next (docs/decisions/318); newest shown. */
export const shiftNotes = pgTable(
  'shift_notes',
  {
    id: serial('id').primaryKey(),
    authorId: integer('author_id')
      .notNull()
      .references(() => staffUsers.id),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('shift_notes_body_ck', sql`char_length(${t.body}) between 1 and 2000`),
    index('shift_notes_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * The steps of the waiting policy done for an order's stay in Awaiting (since = when it entered):
 * 1 first reminder, 2 second reminder, 3 moved to Contact Customer. The key makes each step happen once,
 * however many instances scan.
 */
export const waitingSteps = pgTable(
  'waiting_steps',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    since: timestamp('since', { withTimezone: true, mode: 'date' }).notNull(),
    step: integer('step').notNull(),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.since, t.step] })],
);

/** Messages of a watched mailbox one instance has taken (mailbox, UIDVALIDITY, UID): each is taken once. */
export const inboundImapClaims = pgTable(
  'inbound_imap_claims',
  {
    mailbox: text('mailbox').notNull(),
    uidValidity: bigint('uid_validity', { mode: 'number' }).notNull(),
    uid: bigint('uid', { mode: 'number' }).notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mailbox, t.uidValidity, t.uid] })],
);

/** A customer's cancellation on the track page, once per order: a replay answers this first result. */
export const customerCancellations = pgTable(
  'customer_cancellations',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .primaryKey()
      .references(() => orders.orderId),
    reason: text('reason').notNull(),
    /** The share of the payment refunded, from the cancellation policy's ladder. */
    percent: integer('percent').notNull(),
    /** The amount refunded in major units ("37.50"). */
    amount: text('amount').notNull(),
    currency: text('currency').notNull(),
    fromStatus: text('from_status').notNull(),
    /** 'refunded': refunded at the provider (Completed Refunds); 'refunds': left to the team in Refunds. */
    outcome: text('outcome').$type<'refunded' | 'refunds'>().notNull(),
    refundId: text('refund_id'),
    createdAt: createdAt(),
  },
  (t) => [
    check('customer_cancellations_outcome_ck', sql`${t.outcome} in ('refunded', 'refunds')`),
    check('customer_cancellations_percent_ck', sql`${t.percent} between 0 and 100`),
    check('customer_cancellations_reason_len_ck', sql`char_length(${t.reason}) <= 1000`),
  ],
);

/** The customer's rating of an order (one per order; a later answer replaces it). */
export const orderRatings = pgTable(
  'order_ratings',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .primaryKey()
      .references(() => orders.orderId),
    score: integer('score').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('order_ratings_score_ck', sql`${t.score} between 1 and 5`),
    check('order_ratings_comment_len_ck', sql`char_length(${t.comment}) <= 2000`),
    index('order_ratings_updated_idx').on(t.updatedAt),
  ],
);

/** Orders whose "How did we do?" mail has gone (once per order). */
export const ratingRequests = pgTable('rating_requests', {
  orderId: bigint('order_id', { mode: 'number' })
    .primaryKey()
    .references(() => orders.orderId),
  sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** The provider's payouts the sync has seen; `synced_at` once every balance transaction is stored. */
export const providerPayouts = pgTable(
  'provider_payouts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    payoutId: text('payout_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    arrivalAt: timestamp('arrival_at', { withTimezone: true, mode: 'date' }),
    transactions: integer('transactions').notNull().default(0),
    syncedAt: timestamp('synced_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [unique('provider_payouts_uq').on(t.provider, t.payoutId)],
);

/**
 * Balance transactions of the provider's payouts (decision 374): one row per transaction id, amounts in
 * minor units signed as the provider reports them, matched to an order by charge, refund or dispute.
 */
export const payoutTransactions = pgTable(
  'payout_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    transactionId: text('transaction_id').notNull(),
    payoutId: text('payout_id').notNull(),
    type: text('type').notNull(),
    reportingCategory: text('reporting_category'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    fee: bigint('fee', { mode: 'number' }).notNull(),
    net: bigint('net', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    sourceId: text('source_id'),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.orderId),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('payout_transactions_uq').on(t.provider, t.transactionId),
    index('payout_transactions_occurred_idx').on(t.occurredAt),
    index('payout_transactions_order_idx').on(t.orderId),
    index('payout_transactions_unmatched_idx').on(t.occurredAt).where(sql`${t.orderId} is null`),
  ],
);

/** API keys for machines (drizzle/0074, docs/product.md "Machines that submit"): the key as its sha256. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    maxPerMinute: integer('max_per_minute').notNull().default(6),
    /** The machine's own staff row (decision 365): it holds the orders its jobs claim. */
    machineUserId: integer('machine_user_id')
      .notNull()
      .references(() => staffUsers.id),
    createdBy: integer('created_by').references(() => staffUsers.id),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    check('api_keys_max_per_minute_ck', sql`${t.maxPerMinute} between 1 and 600`),
    uniqueIndex('api_keys_key_hash_uq').on(t.keyHash),
  ],
);

/** One claim of an order by a machine (drizzle/0074): open until its result or `expiresAt`. */
export const submissionJobs = pgTable(
  'submission_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    state: text('state').$type<'open' | 'submitted' | 'failed' | 'expired'>().notNull().default('open'),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    error: text('error'),
  },
  (t) => [
    check('submission_jobs_state_ck', sql`${t.state} in ('open', 'submitted', 'failed', 'expired')`),
    index('submission_jobs_open_idx').on(t.expiresAt).where(sql`${t.state} = 'open'`),
    index('submission_jobs_order_idx').on(t.orderId),
  ],
);

/** Kinds of order files that are not the approved card (drizzle/0093). */
export const ORDER_FILE_KINDS = ['submission_screenshot'] as const;
export type OrderFileKind = (typeof ORDER_FILE_KINDS)[number];

/**
 * Files kept with an order that are not its approved card (drizzle/0093): a machine's screenshot of a
 * failed submission, with its job and the error in `note`. No card path reads this table.
 */
export const orderFiles = pgTable(
  'order_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.orderId),
    kind: text('kind').$type<OrderFileKind>().notNull(),
    jobId: uuid('job_id').references(() => submissionJobs.id),
    ...storedFileColumns(),
    note: text('note'),
    createdBy: integer('created_by').references(() => staffUsers.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('order_files_kind_ck', oneOf(t.kind, ORDER_FILE_KINDS)),
    index('order_files_order_idx').on(t.orderId, t.createdAt),
  ],
);
