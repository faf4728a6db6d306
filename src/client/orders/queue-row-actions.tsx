import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import type { Folder, Role } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import { rowDecision, type useBulkActions } from './use-bulk-actions';

interface Input {
  folder: Folder;
  role: Role | null;
  bulk: ReturnType<typeof useBulkActions>;
}

/** The buttons at the end of each row (Restore, Refund, Delete); none when the folder offers the role none. */
export function queueRowActions({ folder, role, bulk }: Input) {
  const canRestore = bulk.rowActions.includes('restore');
  const showRowDelete = bulk.rowActions.includes('delete');
  const showRefund = bulk.rowActions.includes('refund');
  if (!(showRowDelete || showRefund || canRestore)) return undefined;
  return (row: OrderListRow) => (
    <RowActions
      row={row}
      folder={folder}
      role={role}
      bulk={bulk}
      canRestore={canRestore}
      showRefund={showRefund}
      showRowDelete={showRowDelete}
    />
  );
}

function RowActions({
  row,
  folder,
  role,
  bulk: { busy, ask },
  canRestore,
  showRefund,
  showRowDelete,
}: Input & { row: OrderListRow; canRestore: boolean; showRefund: boolean; showRowDelete: boolean }) {
  const deletable = showRowDelete && rowDecision(row, { kind: 'delete' }, role).allowed;
  return (
    <>
      {canRestore ? (
        <Button size="sm" variant="primary" disabled={busy} onClick={() => ask('restore', [row.order_id])}>
          Restore
        </Button>
      ) : null}
      {showRefund ? (
        <Button size="sm" variant="success" disabled={busy} onClick={() => ask('refund', [row.order_id])}>
          Refund
        </Button>
      ) : null}
      {deletable && folder === 'chargeBack' ? (
        // Chargebacks are worked, rarely deleted: Delete waits in the row menu, not beside View.
        <Dropdown align="end">
          <Dropdown.Toggle
            size="sm"
            variant="outline-secondary"
            disabled={busy}
            aria-label={`More actions for order ${row.order_id}`}
          >
            More
          </Dropdown.Toggle>
          <Dropdown.Menu popperConfig={{ strategy: 'fixed' }}>
            <Dropdown.Item as="button" className="text-danger" onClick={() => ask('delete', [row.order_id])}>
              Delete
            </Dropdown.Item>
          </Dropdown.Menu>
        </Dropdown>
      ) : deletable ? (
        <Button size="sm" variant="danger" disabled={busy} onClick={() => ask('delete', [row.order_id])}>
          Delete
        </Button>
      ) : null}
    </>
  );
}
