import type { ListSortKey, OrderListRow } from '../../shared/contracts/orders';
import type { ListColumn } from '../../shared/contracts/views';
import { formatDate, formatUtcDateTime } from '../../shared/dates';
import { refundReasonText } from '../../shared/refund-reasons';

export type ColumnKey =
  | 'id'
  | 'status'
  | 'name'
  | 'arrival'
  | 'email'
  | 'telephone'
  | 'datetime'
  | 'refund'
  | 'processDate'
  | 'processMonth'
  | 'assignTo'
  | 'due'
  | 'nationality'
  | 'mode'
  | 'amount'
  | 'disputeReason'
  | 'refundReason';

export interface Column {
  key: ColumnKey;
  label: string;
}

/** The server's sort key of a column (headers without one do not sort). */
export const SORT_KEY: Partial<Record<ColumnKey, ListSortKey>> = {
  id: 'order_id',
  status: 'status',
  name: 'name',
  arrival: 'arrival_date',
  datetime: 'created_at',
  due: 'due_at',
  assignTo: 'assign_to',
};

/** The name a saved view uses for a column. */
export const VIEW_COLUMN: Partial<Record<ColumnKey, ListColumn>> = {
  id: 'order_id',
  name: 'name',
  email: 'email',
  telephone: 'phone',
  nationality: 'nationality',
  mode: 'processing_mode',
  arrival: 'arrival_date',
  due: 'due_at',
  status: 'status',
  datetime: 'created_at',
  processDate: 'processing_date',
  assignTo: 'assign_to',
};

const HOUR = 3_600_000;

/** "in 5 h", "2 h late", "in 3 d"; minutes under an hour. Empty without a due time. */
export function dueText(dueAt: string | null, now: number = Date.now()): string {
  if (!dueAt) return '';
  const left = Date.parse(dueAt) - now;
  const abs = Math.abs(left);
  const amount =
    abs < HOUR
      ? `${Math.max(1, Math.round(abs / 60_000))} min`
      : abs < 48 * HOUR
        ? `${Math.round(abs / HOUR)} h`
        : `${Math.round(abs / (24 * HOUR))} d`;
  return left > 0 ? `in ${amount}` : `${amount} late`;
}

/** Telephone as the lists show it: `+code number`, or a dash when missing. */
export function formatPhone(row: Pick<OrderListRow, 'phone_code' | 'telephone_number'>): string {
  const number = row.telephone_number?.trim();
  if (!number) return '-';
  const code = row.phone_code?.trim();
  return code ? `+${code} ${number}` : number;
}

/** The text of a cell, shared by the table and the CSV export (docs/product.md, "Dates and times"). */
export function cellText(row: OrderListRow, key: ColumnKey): string {
  switch (key) {
    case 'id':
      return String(row.order_id);
    case 'status':
      return row.process_status;
    case 'name':
      return `${row.first_name} ${row.last_name}`.trim();
    case 'arrival':
      return formatDate(row.arrival_date);
    case 'email':
      return row.email;
    case 'telephone':
      return formatPhone(row);
    case 'datetime': {
      // The list keeps its fixed UTC format and says so.
      const time = formatUtcDateTime(row.created_at);
      return time && `${time} UTC`;
    }
    case 'refund':
      return formatDate(row.refund_date);
    case 'processDate':
      return formatDate(row.processing_date);
    case 'processMonth':
      return row.process_month;
    case 'assignTo':
      return row.assign_to;
    case 'due':
      return dueText(row.due_at);
    case 'nationality':
      return row.nationality ?? '';
    case 'mode':
      return row.processing_mode;
    case 'amount':
      return row.amount ? `${row.amount} ${row.currency ?? ''}`.trim() : '';
    case 'disputeReason':
      return row.dispute_reason ? row.dispute_reason.replaceAll('_', ' ') : '';
    case 'refundReason':
      return refundReasonText(row.refund_reason, row.refund_reason_text);
  }
}

const col = (key: ColumnKey, label: string): Column => ({ key, label });

/** Folder lists (docs/product.md, "Order lists"); Contact Customer hides Telephone. */
export const FOLDER_COLUMNS: Column[] = [
  col('id', 'Order ID'),
  col('status', 'Status'),
  col('name', 'Name'),
  col('arrival', 'Arrival Date'),
  col('email', 'Email'),
  col('telephone', 'Telephone'),
  col('datetime', 'Date & Time'),
  col('refund', 'Refund Date'),
  col('processDate', 'Process Date'),
  col('processMonth', 'Process Month'),
  col('assignTo', 'Assign To'),
];

/** Every column the chooser offers on a folder list. */
export const ALL_FOLDER_COLUMNS: Column[] = [
  ...FOLDER_COLUMNS.slice(0, 4),
  col('due', 'Due'),
  col('nationality', 'Nationality'),
  col('mode', 'Mode'),
  ...FOLDER_COLUMNS.slice(4),
  col('refundReason', 'Refund Reason'),
];

/**
 * Shown until a member chooses: every column of a folder list (docs/product.md, "Order lists"), plus Due. The
 * column chooser may hide any of them; the default never does.
 */
export const DEFAULT_FOLDER_COLUMN_KEYS: ColumnKey[] = [
  ...FOLDER_COLUMNS.slice(0, 4).map((c) => c.key),
  'due',
  ...FOLDER_COLUMNS.slice(4).map((c) => c.key),
];

/** Contact Customer hides Telephone by default (docs/product.md, "Order lists"); a Telecaller may add it back there. */
export const CONTACT_CUSTOMER_DEFAULT_KEYS: ColumnKey[] = DEFAULT_FOLDER_COLUMN_KEYS.filter(
  (k) => k !== 'telephone',
);

/** Refunds and Completed Refunds show why each order is refunded (docs/product.md, "Refund reasons"). */
export const REFUND_DEFAULT_KEYS: ColumnKey[] = [...DEFAULT_FOLDER_COLUMN_KEYS, 'refundReason'];

/**
 * The refund folders' columns in their order: the reason right after Due, so it is among the columns
 * whole on a 1,280 px screen (the rest sit behind "+N").
 */
export const REFUND_FOLDER_COLUMNS: Column[] = [
  ...ALL_FOLDER_COLUMNS.slice(0, 5),
  col('refundReason', 'Refund Reason'),
  ...ALL_FOLDER_COLUMNS.slice(5).filter((c) => c.key !== 'refundReason'),
];

export const CONTACT_CUSTOMER_COLUMNS = FOLDER_COLUMNS.filter((c) => c.key !== 'telephone');

/**
 * Chargeback list: Order Id, then what a defence needs, so it is in view on a 1,280 px screen: the
 * amount, the dispute's reason and the response deadline (the due time, the provider's evidence
 * deadline while a dispute waits for evidence; sortable), then Status, Email, Date & Time and
 * Telephone (+ Action).
 */
export const CHARGEBACK_COLUMNS: Column[] = [
  col('id', 'Order Id'),
  col('amount', 'Amount'),
  col('disputeReason', 'Reason'),
  col('due', 'Respond by'),
  col('status', 'Status'),
  col('email', 'Email'),
  col('datetime', 'Date & Time'),
  col('telephone', 'Telephone'),
];

/** Future month table: Order ID, Name, Email, Telephone, Date & Time, Processing Date, Process Month, Status. */
export const FUTURE_COLUMNS: Column[] = [
  col('id', 'Order ID'),
  col('name', 'Name'),
  col('email', 'Email'),
  col('telephone', 'Telephone'),
  col('datetime', 'Date & Time'),
  col('processDate', 'Processing Date'),
  col('processMonth', 'Process Month'),
  col('status', 'Status'),
];
