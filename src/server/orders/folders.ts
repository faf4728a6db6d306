import { type SQL, sql } from 'drizzle-orm';
import { CLOSED_STATUSES, type Folder, MONTHS, type OrderStatus } from '../../shared/constants.js';
import { sqlList, sqlValue } from '../db/sql-lists.js';

/** Who is asking and what "today" is: the date-dependent folders and My Orders need both. */
export interface FolderScope {
  /** YYYY-MM-DD in the service time zone (serviceToday()). */
  today: string;
  staffId: number;
  /** Future orders only: 1…12, the process month of a tile. */
  month?: number | undefined;
}

const CLOSED = sql`(${sqlList(CLOSED_STATUSES)})`;
const NEW = sqlValue('New');
const PRIORITY = sqlValue('Priority');

export const STATUS_FOLDERS: Partial<Record<Folder, OrderStatus>> = {
  awaitingOrder: 'Awaiting',
  awaitingGovtOrder: 'AwaitingGovt',
  customerCalledOrder: 'Customer Called',
  contactCustomerOrder: 'Contact Customer',
  completedOrder: 'Completed',
  deletedOrder: 'Deleted',
  refundOrder: 'Refunds',
  refundedOrder: 'Refunded',
  chargeBack: 'ChargeBack',
};

/**
 * The folders of docs/product.md over the orders table (unqualified columns). Written to match the
 * partial indexes of drizzle/0002_order_queues.sql, so each folder reads one small index.
 */
export function folderWhere(folder: Folder, scope: FolderScope): SQL {
  return folderPredicate(folder, scope, sql.raw('processing_date'));
}

/** The same meanings over order_folder_counts (due_date = processing_date for status New). */
export function counterWhere(folder: Folder, scope: FolderScope): SQL {
  return folderPredicate(folder, scope, sql.raw('due_date'));
}

/** One definition for both tables; `day` is the column holding the processing date. */
function folderPredicate(folder: Folder, scope: FolderScope, day: SQL): SQL {
  const status = STATUS_FOLDERS[folder];
  if (status) return sql`process_status = ${status}`;
  switch (folder) {
    case 'newOrder':
      return sql`process_status = ${NEW} and assigned_to is null and processing_mode <> ${PRIORITY} and ${day} <= ${scope.today}`;
    case 'priorityOrder':
      return sql`process_status = ${NEW} and assigned_to is null and processing_mode = ${PRIORITY} and ${day} <= ${scope.today}`;
    case 'pendingOrder':
      return sql`process_status = ${NEW} and assigned_to is not null`;
    case 'myOrder':
      return sql`assigned_to = ${scope.staffId} and process_status not in ${CLOSED}`;
    case 'futureOrder':
      return scope.month
        ? sql`process_status = ${NEW} and ${day} > ${scope.today} and extract(month from ${day}) = ${scope.month}`
        : sql`process_status = ${NEW} and ${day} > ${scope.today}`;
    case 'allOrder':
      return sql`process_status <> ${sqlValue('Deleted')}`;
    default:
      throw new Error(`unknown folder ${folder}`);
  }
}

/** 'Jan'…'Dec' -> 1…12. */
export function monthNumber(month: (typeof MONTHS)[number] | undefined): number | undefined {
  return month ? MONTHS.indexOf(month) + 1 : undefined;
}
