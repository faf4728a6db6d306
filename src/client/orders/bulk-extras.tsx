import type { Folder } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';

export interface BulkExtrasProps {
  folder: Folder;
  role: string | null;
  /** The selected order ids. */
  selected: number[];
  /** The rows on screen (for rules that depend on a row's state). */
  rows: OrderListRow[];
  /** A standard bulk action is running. */
  busy: boolean;
  /** Clears the selection after an action succeeded. */
  onDone: () => void;
}

/**
 * Bulk actions beyond the folder policy's standard ones, shown in the list toolbar after them (before
 * Export). Each decides itself whether it shows for the folder and role.
 */
export function BulkExtras(_props: BulkExtrasProps) {
  return null;
}
