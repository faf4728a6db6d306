/** Staff roles, as stored in the token's `user.type` (docs/product.md, "Staff roles"). */
export const ROLES = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'] as const;
export type Role = (typeof ROLES)[number];

/** Every process status an order can hold (docs/product.md). `New` covers the new/priority/pending/future queues. */
export const ORDER_STATUSES = [
  'New',
  'Awaiting',
  'AwaitingGovt',
  'Customer Called',
  'Contact Customer',
  'Completed',
  'Deleted',
  'Refunds',
  'Refunded',
  'ChargeBack',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Statuses that end work on an order: they leave My Orders and the working queues (docs/product.md, "Orders"). */
export const CLOSED_STATUSES = ['Completed', 'Deleted', 'Refunded'] as const satisfies readonly OrderStatus[];

/** Statuses a staff member can move an order to from the detail screen (its status buttons). */
export const MOVABLE_STATUSES = [
  'Awaiting',
  'Refunded',
  'Completed',
  'Deleted',
  'Contact Customer',
  'AwaitingGovt',
  'Customer Called',
  'ChargeBack',
] as const satisfies readonly OrderStatus[];

/** Detail-screen button label for each movable status (exact product texts). */
export const STATUS_BUTTON_LABELS: Record<(typeof MOVABLE_STATUSES)[number], string> = {
  Awaiting: 'Move to Awaiting Response',
  Refunded: 'Move to Completed Refunds',
  Completed: 'Move to Completed Orders',
  Deleted: 'Move to Delete',
  'Contact Customer': 'Move to Contact Customer',
  AwaitingGovt: 'Move to Awaiting Govt',
  'Customer Called': 'Move to Customer Called',
  ChargeBack: 'Move to ChargeBack',
};

/**
 * What an order history entry records (order_events.action): created, a status move, an assignment or
 * takeover, a remark, a document uploaded or withdrawn, a mail queued, transaction details, a customer
 * download, the erasure of personal data, the customer's language (docs/decisions/210).
 */
export const ORDER_EVENT_ACTIONS = [
  'created',
  'status',
  'assign',
  'takeover',
  'remark',
  'upload',
  'withdraw',
  'mail',
  'transaction',
  'customer_download',
  'erase',
  'language',
  /** A payment provider's dispute, refund or fraud warning (src/server/payments). */
  'payment',
  'customer_reply',
  'bounce',
  'correction',
  'duplicate',
  /** A call or WhatsApp contact logged with its outcome (order_contacts). */
  'contact',
  /** Why the order is refunded (orders.refund_reason). */
  'refund_reason',
  /** A payment risk hold raised or cleared, a fraud warning kept (src/server/flows). */
  'risk',
  /** The government's reference stored (submitted to the government, or added later). */
  'submission',
] as const;
export type OrderEventAction = (typeof ORDER_EVENT_ACTIONS)[number];

/** How the Telecaller reached out to a customer, and what came of it (order_contacts). */
export const CONTACT_CHANNELS = ['call', 'whatsapp'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];
export const CONTACT_OUTCOMES = ['reached', 'no_answer', 'wrong_number', 'call_back'] as const;
export type ContactOutcome = (typeof CONTACT_OUTCOMES)[number];
/** A call-back is at most this many days ahead. */
export const CALL_BACK_MAX_DAYS = 30;
export const CONTACT_NOTE_MAX = 1000;

export const PROCESSING_MODES = ['Standard', 'Priority'] as const;
export type ProcessingMode = (typeof PROCESSING_MODES)[number];

/** Folder names used by the list and count calls (docs/product.md, "Folders"). */
export const FOLDERS = [
  'newOrder',
  'priorityOrder',
  'pendingOrder',
  'myOrder',
  'futureOrder',
  'awaitingOrder',
  'awaitingGovtOrder',
  'customerCalledOrder',
  'contactCustomerOrder',
  'completedOrder',
  'deletedOrder',
  'refundOrder',
  'refundedOrder',
  'chargeBack',
  'allOrder',
] as const;
export type Folder = (typeof FOLDERS)[number];

/** Folder -> key of the counts response (names fixed by the existing clients). */
export const FOLDER_COUNT_KEYS = {
  myOrder: 'myOrdersCount',
  newOrder: 'newOrdersCount',
  priorityOrder: 'priorityOrdersCount',
  pendingOrder: 'pendingOrdersCount',
  completedOrder: 'completedOrdersCount',
  awaitingOrder: 'awaitingOrdersCount',
  awaitingGovtOrder: 'awaitingGovtCount',
  customerCalledOrder: 'customerCalledCount',
  contactCustomerOrder: 'contactCustomerOrdersCount',
  allOrder: 'allOrdersCount',
  futureOrder: 'futureOrdersCount',
  deletedOrder: 'deletedOrdersCount',
  refundOrder: 'refundOrdersCount',
  refundedOrder: 'refundedOrdersCount',
  chargeBack: 'chargeBackCount',
} as const satisfies Record<Folder, string>;
export type FolderCountKey = (typeof FOLDER_COUNT_KEYS)[Folder];
export type FolderCounts = Record<FolderCountKey, number>;

export const MAIL_PROVIDERS = ['AWS', 'Sendgrid'] as const;
export type MailProvider = (typeof MAIL_PROVIDERS)[number];

/**
 * Every kind of customer mail in the outbox (mail_log.kind): the approval notice with the card, its
 * resend and reminder, the refund confirmation, the invoice, a status notification and a macro's mail.
 * The one list: the database check, the contracts and the mail composer follow it.
 */
export const MAIL_KINDS = [
  'approval',
  'resend',
  'reminder',
  'refund',
  'invoice',
  'notification',
  'macro',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** Where a mail of the outbox is (mail_log.status). */
export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'retrying', 'failed', 'cancelled'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export const DEFENCE_PACK_TYPES = [1, 2] as const;

export const PAGE_SIZES = [10, 25, 50, 100, 500] as const;
/** Hard ceiling for one list response ("All" included); a request above it is refused, not attempted. */
export const MAX_PAGE_SIZE = 100_000;

export const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

export const SEARCH_DEBOUNCE_MS = 500;
export const MIN_INVOICE_ORDER_ID_LENGTH = 6;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const SESSION_STORAGE_KEY = 'user';
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Service time zone for report day boundaries and US date/time columns (history tables read EST/EDT). */
export const SERVICE_TIME_ZONE = 'America/New_York';

/**
 * A customer mail caused by a move or a macro waits this long before delivery, so Undo (offered for
 * 10 s) can cancel it; the extra seconds cover a click at the end of the toast.
 */
export const MAIL_HOLD_SECONDS = 12;
/** A move of an order that someone else moved this recently asks "… just moved this to … — continue?". */
export const RECENT_MOVE_SECONDS = 5;
/** Files a customer may send with one answer on the track page. */
export const CUSTOMER_REPLY_MAX_FILES = 5;
