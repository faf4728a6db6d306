import type { Folder, Role } from './constants.js';
import { decide } from './order-rules.js';
import { can, deletePermissionFor } from './permissions.js';

/**
 * Which actions a folder's list offers, for which role: the bulk actions over the selected rows and the
 * buttons on each row. The list screens read this; the server decides again on every request (the
 * permission table and the order rules), so this only mirrors them.
 */
export type BulkAction = 'assign' | 'moveBack' | 'refund' | 'delete' | 'restore';
export type RowAction = 'restore' | 'refund' | 'delete';

export interface FolderActions {
  /** In the bulk bar's order. */
  bulk: BulkAction[];
  /** On every row, in the row's order (a row's own state may still refuse one: see the order rules). */
  row: RowAction[];
}

/** Queues whose bulk bar offers Delete: the new, priority and default queues, refunds, my orders. */
const NO_BULK_DELETE: readonly Folder[] = ['deletedOrder', 'futureOrder', 'chargeBack'];
/** Per-row Delete: the future list, the chargeback list and the refund queue. */
const ROW_DELETE: readonly Folder[] = ['futureOrder', 'chargeBack', 'refundOrder'];
/** Any deleted order: Restore is offered to the roles the order rules allow. */
const DELETED = { processStatus: 'Deleted', assigned: false, processingDate: '' } as const;

export function folderActions(folder: Folder, role: Role | null | undefined): FolderActions {
  const canDelete = can(role, deletePermissionFor(folder)) && folder !== 'deletedOrder';
  const canRefund = folder === 'refundOrder' && can(role, 'orders.refund');
  const canRestore =
    folder === 'deletedOrder' && decide(DELETED, { kind: 'restore' }, role ?? null, '').allowed;
  const bulk: BulkAction[] = [];
  if (folder === 'newOrder' || folder === 'priorityOrder') bulk.push('assign');
  if (folder === 'myOrder') bulk.push('moveBack');
  if (canRefund) bulk.push('refund');
  if (canDelete && !NO_BULK_DELETE.includes(folder)) bulk.push('delete');
  if (canRestore) bulk.push('restore');
  const row: RowAction[] = [];
  if (canRestore) row.push('restore');
  if (canRefund) row.push('refund');
  if (canDelete && ROW_DELETE.includes(folder)) row.push('delete');
  return { bulk, row };
}
