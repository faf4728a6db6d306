import type { OrderListRow } from '../../shared/contracts/orders';
import { formatDate, formatUtcDateTime } from '../../shared/dates';

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
  | 'assignTo';

export interface Column {
  key: ColumnKey;
  label: string;
}

/** Telephone as the spec shows it: `+code number`, or a dash when missing. */
export function formatPhone(row: Pick<OrderListRow, 'phone_code' | 'telephone_number'>): string {
  const number = row.telephone_number?.trim();
  if (!number) return '-';
  const code = row.phone_code?.trim();
  return code ? `+${code} ${number}` : number;
}

/** The text of a cell, shared by the table and the CSV export (spec §3 display formats). */
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
  }
}

const col = (key: ColumnKey, label: string): Column => ({ key, label });

/** Folder lists (spec §2 "Order lists"); Contact Customer hides Telephone. */
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

export const CONTACT_CUSTOMER_COLUMNS = FOLDER_COLUMNS.filter((c) => c.key !== 'telephone');

/** Chargeback list: Order Id, Email, Telephone, Date & Time, Status (+ Action). */
export const CHARGEBACK_COLUMNS: Column[] = [
  col('id', 'Order Id'),
  col('email', 'Email'),
  col('telephone', 'Telephone'),
  col('datetime', 'Date & Time'),
  col('status', 'Status'),
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
