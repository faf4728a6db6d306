import { z } from 'zod';
import {
  FOLDER_COUNT_KEYS,
  FOLDERS,
  MAX_PAGE_SIZE,
  MONTHS,
  ORDER_STATUSES,
  PROCESSING_MODES,
} from '../constants.js';
import { countryName } from '../countries.js';
import { expectedVersionField, noControlCharacters, orderIdField, text } from './common.js';
import { REFUND_REASONS, refundAmountField, refundReasonFields, refundReasonFilter } from './payments.js';
import { DUE_STATES } from './due-time.js';

/** Folder counts: one number per folder, and the open orders at risk of or past their due time. */
export const folderCounts = z
  .object(
    Object.fromEntries(Object.values(FOLDER_COUNT_KEYS).map((k) => [k, z.number().int()])) as Record<
      (typeof FOLDER_COUNT_KEYS)[keyof typeof FOLDER_COUNT_KEYS],
      z.ZodNumber
    >,
  )
  .extend({
    atRiskCount: z.number().int().describe('Open orders due within the at-risk margin (whole system)'),
    breachedCount: z
      .number()
      .int()
      .describe('Open orders past their due time, not waiting and whose trip has not passed (whole system)'),
    tripPassedCount: z
      .number()
      .int()
      .optional()
      .describe('Orders still worked whose arrival day is over (whole system): refund or close them'),
    needsAttentionCount: z
      .number()
      .int()
      .describe('Orders still being worked with a failing check (whole system)')
      .optional(),
    repliedCount: z
      .number()
      .int()
      .describe('Orders with an unread answer from the customer, held by the user or unassigned'),
    callBackDueCount: z
      .number()
      .int()
      .optional()
      .describe('Open orders the user holds whose logged call-back time has come'),
  });
export type FolderCountsAnswer = z.infer<typeof folderCounts>;

/** Sort keys of the order lists; without `sort` a list takes its folder's DEFAULT_LIST_SORT. */
export const LIST_SORT_KEYS = [
  'order_id',
  'created_at',
  'arrival_date',
  'due_at',
  'name',
  'status',
  'assign_to',
] as const;
export type ListSortKey = (typeof LIST_SORT_KEYS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

const day = z
  .string()
  .max(10, 'must be a date (YYYY-MM-DD)')
  .pipe(z.iso.date({ error: 'must be a date (YYYY-MM-DD)' }));

/**
 * Sorting and filters shared by the folder lists, search and saved views. Every value is checked:
 * an unknown sort key, direction, country code, mode, assignee or state is a 400.
 */
export const listFilterFields = {
  sort: z.enum(LIST_SORT_KEYS, { error: `must be one of ${LIST_SORT_KEYS.join(', ')}` }).optional(),
  dir: z.enum(SORT_DIRECTIONS, { error: 'must be asc or desc' }).optional(),
  /** ISO 3166 alpha-3 code of the traveller's nationality. */
  nationality: z
    .string()
    .max(3, 'must be an ISO 3166 alpha-3 country code')
    .regex(/^[A-Za-z]{3}$/, 'must be an ISO 3166 alpha-3 country code')
    .refine((c) => countryName(c) !== 'Unknown Country', 'must be an ISO 3166 alpha-3 country code')
    .optional(),
  processingMode: z.enum(PROCESSING_MODES, { error: `must be ${PROCESSING_MODES.join(' or ')}` }).optional(),
  /** `me`, `none` (unassigned) or a staff id. */
  assignee: z
    .string()
    .max(10, 'must be me, none or a staff id')
    .regex(/^(me|none|[1-9]\d{0,8})$/, 'must be me, none or a staff id')
    .optional(),
  arrivalFrom: day.optional(),
  arrivalTo: day.optional(),
  dueState: z.enum(DUE_STATES, { error: `must be one of ${DUE_STATES.join(', ')}` }).optional(),
  /** `true`: only orders with a failing check (a warning or worse) still being worked. */
  needsAttention: z.enum(['true', 'false']).optional(),
  /** `true`: only orders with an unread answer from the customer, held by the user or unassigned. */
  customerReplied: z.enum(['true', 'false']).optional(),
  /** Refunds and Completed Refunds: only orders refunded for this reason. */
  refundReason: refundReasonFilter,
  /** `true`: only orders with a fraud warning or a risk hold (the "Risk review" filter). */
  riskReview: z.enum(['true', 'false']).optional(),
  /** `true`: only orders whose last machine submission failed (the "Submission failed" filter). */
  submissionFailed: z.enum(['true', 'false']).optional(),
};

export const listFilters = z.object(listFilterFields).strict();
export type ListFilters = z.infer<typeof listFilters>;

const arrivalOrder = <T extends { arrivalFrom?: string | undefined; arrivalTo?: string | undefined }>(v: T) =>
  !v.arrivalFrom || !v.arrivalTo || v.arrivalFrom <= v.arrivalTo;
const arrivalOrderError = { path: ['arrivalTo'], message: 'must be on or after arrivalFrom' };

export const folderName = z.enum(FOLDERS, { error: 'must be one of the folder names' });

/** `userName` is accepted for compatibility only: identity always comes from the token. */
export const countsQuery = z.object({ userName: text(200).optional() }).strict();

/** Query of get-orders-list: page from 1, a page size (10…500, or the folder total for All). */
export const ordersListQuery = z
  .object({
    page: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .max(10_000_000, 'is too large')
      .default(1),
    limit: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .max(MAX_PAGE_SIZE, `can be at most ${MAX_PAGE_SIZE}`)
      .default(10),
    /** Fixed at 1 by the existing clients; accepted and ignored. */
    delay: text(20).optional(),
    userName: text(200).optional(),
    /** Future orders only: the process month (Jan…Dec) of the tile that was opened. */
    month: z.enum(MONTHS, { error: 'must be Jan to Dec' }).optional(),
    ...listFilterFields,
  })
  .strict()
  .refine(arrivalOrder, arrivalOrderError);
export type OrdersListQuery = z.infer<typeof ordersListQuery>;

export const ordersListParams = z.object({ orderName: text(50) });

/** The list row the server sends (field names fixed by the existing clients). */
export const orderListRow = z.object({
  order_id: z.number().int(),
  process_status: z.enum(ORDER_STATUSES),
  first_name: z.string(),
  last_name: z.string(),
  arrival_date: z.string().nullable(),
  email: z.string(),
  telephone_number: z.string().nullable(),
  phone_code: z.string().nullable(),
  created_at: z.string(),
  refund_date: z.string().nullable(),
  processing_date: z.string(),
  process_month: z.string(),
  assign_to: z.string(),
  nationality: z.string().nullable(),
  processing_mode: z.enum(PROCESSING_MODES),
  /** When the order is due (ISO time); null for Completed, Refunded and Deleted orders. */
  due_at: z.string().nullable(),
  due_state: z.enum(DUE_STATES).nullable(),
  /** The worst failing check: 2 blocking, 1 a warning, 0 none (the row's badge). */
  check_level: z.number().int(),
  /** The codes of the failing checks, for the badge's title. */
  check_codes: z.array(z.string()),
  /** What was paid ("59.00") and in which currency. */
  amount: z.string().optional(),
  currency: z.string().optional(),
  /** ChargeBack orders: the reason of the payment provider's latest dispute (e.g. fraudulent). */
  dispute_reason: z.string().nullable().optional(),
  /** The customer answered and no one has read it yet (the row's "Customer replied" badge). */
  customer_replied: z.boolean().optional(),
  /** The customer corrected the order on the track page and no one has opened it since. */
  customer_edited: z.boolean().optional(),
  /** Why the order is (being) refunded (a reason code, 'unspecified'), and the text of 'other'. */
  refund_reason: z.string().nullable().optional(),
  refund_reason_text: z.string().nullable().optional(),
  /** The government's reference once the order was submitted (docs/product.md, "Submitting to the government"). */
  government_reference: z.string().nullable().optional(),
  /** With a submission window: when the government's portal accepts the order (ISO time); null without one. */
  submission_opens_at: z.string().nullable().optional(),
});
export type OrderListRow = z.infer<typeof orderListRow>;

/** Search (search-order): rows [start, end) of the folder's matches, newest first. */
export const searchOrderBody = z
  .object({
    start: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(0, 'must be 0 or more')
      .default(0),
    end: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .default(10),
    searchVal: noControlCharacters(
      z
        .string({ error: 'is required' })
        .trim()
        .min(1, 'is required')
        .max(100, 'can be at most 100 characters'),
    ),
    folderName,
    month: z.enum(MONTHS, { error: 'must be Jan to Dec' }).optional(),
    ...listFilterFields,
  })
  .strict()
  .refine(arrivalOrder, arrivalOrderError)
  .refine((v) => v.end > v.start, { path: ['end'], message: 'must be greater than start' })
  .refine((v) => v.end - v.start <= MAX_PAGE_SIZE, {
    path: ['end'],
    message: `at most ${MAX_PAGE_SIZE} rows at once`,
  });
export type SearchOrderBody = z.infer<typeof searchOrderBody>;

const orderIds = z
  .union([orderIdField, z.array(orderIdField)], { error: 'must be an order id or a list of them' })
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .pipe(z.array(z.number()).min(1, 'select at least one order').max(1000, 'at most 1000 orders at once'));

/** Bulk delete (change-order-status). `folderName` says which queue the request comes from. */
export const changeOrderStatusBody = z
  .object({
    orderId: orderIds,
    permanentDeletedFlag: z.literal(false, { error: 'only soft delete is supported' }).default(false),
    updatingStatus: z.literal('Deleted', { error: 'must be Deleted' }),
    folderName: folderName.optional(),
  })
  .strict();
export type ChangeOrderStatusBody = z.infer<typeof changeOrderStatusBody>;

/** Assign to me (`assignto` non-empty) or Move to Original Folder (`assignto` empty or null). */
export const assignOrderBody = z
  .object({
    orderId: orderIds,
    assignto: text(200).nullable().optional(),
    /** Only with a single order (the detail page): see expectedVersionField. */
    expectedVersion: expectedVersionField,
    /** Admin and Manager: assign above one's routing capacity (after the 409 with the load). */
    overCapacity: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();
export type AssignOrderBody = z.infer<typeof assignOrderBody>;

/** 'Refunded it' / Move to Completed Refunds: one id or a list. */
export const completeRefundBody = z
  .object({
    orderId: orderIds,
    /** A partial refund through the payment provider (one order): major units, at most what was paid. */
    amount: refundAmountField.optional(),
    /** The provider's refund reason; default duplicate when a remark says so, else requested_by_customer. */
    refundReason: z.enum(REFUND_REASONS, { error: 'must be requested_by_customer or duplicate' }).optional(),
    /** "Refund and close": Completed Refunds even when part of the payment is left. */
    close: z.boolean({ error: 'must be true or false' }).optional(),
    ...refundReasonFields,
  })
  .strict();

/** Result of every bulk action: the ids it changed. */
export const changedIds = z.object({ orderId: z.array(z.number().int()) });

/** 'Refunded it' answers the orders refunded and, per order, why a provider refused or did not answer. */
export const refundResult = changedIds.extend({
  failed: z.array(z.object({ orderId: z.number().int(), message: z.string(), retrySafe: z.boolean() })),
  throughProvider: z.array(
    z.object({
      orderId: z.number().int(),
      gateway: z.string(),
      refundId: z.string(),
      amount: z.string(),
      /** All refunded of the payment so far, and what is left ("20.00 USD", "39.00 USD"). */
      refundedSoFar: z.string(),
      remaining: z.string(),
      /** False: a partial refund, the order stays in Refunds. */
      closed: z.boolean(),
    }),
  ),
});

/** Restore: deleted orders back to the status each had before deletion. */
export const restoreOrderBody = z.object({ orderId: orderIds }).strict();
export const restoredOrders = changedIds.extend({
  restored: z.array(z.object({ orderId: z.number().int(), processStatus: z.enum(ORDER_STATUSES) })),
});

/** A request the order rules refused: each refused order with its status and the reason. */
export const refusedOrders = z.object({
  orders: z.array(
    z.object({ orderId: z.number().int(), processStatus: z.enum(ORDER_STATUSES), message: z.string() }),
  ),
});

/** Future order tiles: count per process month, Jan…Dec. */
export const futureMonthCounts = z.object(
  Object.fromEntries(MONTHS.map((m) => [m, z.number().int()])) as Record<
    (typeof MONTHS)[number],
    z.ZodNumber
  >,
);
export type FutureMonthCounts = z.infer<typeof futureMonthCounts>;
