import type { Folder, Role } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { can } from '../../shared/permissions';
import { MacroMenu } from '../communication/macro-menu';

export interface BulkExtrasProps {
  folder: Folder;
  role: Role | null;
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
export function BulkExtras({ role, selected, busy, onDone }: BulkExtrasProps) {
  if (!can(role, 'macros.apply') || busy) return null;
  return <MacroMenu orderIds={selected} label="Apply macro" size="sm" onApplied={onDone} />;
}
