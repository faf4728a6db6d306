import type { Folder } from './constants.js';
import type { ListSortKey, SortDirection } from './contracts/orders.js';

/** Earliest due time first; orders without a due time last; ties by order id. */
const DUE_FIRST = { sort: 'due_at', dir: 'asc' } as const;

/**
 * The sort of a folder's list, search and export when none is asked (docs/product.md, "Order lists";
 * decision 332): the working queues by due time, the Chargeback list by its Respond by (the dispute's
 * evidence deadline, kept as the order's due time), every other folder newest first. The server applies
 * it; the list header shows it as the active sort.
 */
export const DEFAULT_LIST_SORT: Partial<
  Record<Folder, { sort: ListSortKey; dir: SortDirection; byDeadlineOnly?: true }>
> = {
  newOrder: DUE_FIRST,
  priorityOrder: DUE_FIRST,
  pendingOrder: DUE_FIRST,
  myOrder: DUE_FIRST,
  // Deadlines only: an unread answer or a passed trip does not move a dispute ahead of an earlier one.
  chargeBack: { ...DUE_FIRST, byDeadlineOnly: true },
};
