import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import { MOVABLE_STATUSES, STATUS_BUTTON_LABELS } from '../../shared/constants';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { MSG } from '../../shared/messages';
import { errorMessage } from '../app/api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { serviceToday } from '../../shared/dates';
import { decide, orderStateOf } from '../../shared/order-rules';
import { sessionUser } from '../app/session';
import { useRestoreOrdersMutation } from '../orders/orders-api';
import { useAppDispatch } from '../app/store';
import { likelyNextStatus } from '../live/describe';
import { offerUndo } from '../live/undo';
import { useMoveOrderStatusMutation } from './order-detail-api';

type Movable = (typeof MOVABLE_STATUSES)[number];

/** Moves that cannot be taken back with one click ask first (docs/decisions/042). */
const CONFIRM: Partial<Record<Movable, string>> = {
  Deleted: MSG.confirmDelete,
  Refunded: 'Are you sure want to move this order to Completed Refunds? The customer will be mailed.',
};

/**
 * One button per status the order may move to, as the shared order rules allow for this role (the
 * server decides again); a deleted order offers Restore instead. Counts and lists refresh after.
 */
export function StatusButtons({ order }: { order: OrderDetails }) {
  const [move, moving] = useMoveOrderStatusMutation();
  const [restore, restoring] = useRestoreOrdersMutation();
  const isLoading = moving.isLoading || restoring.isLoading;
  const [pending, setPending] = useState<Movable | null>(null);
  const dispatch = useAppDispatch();
  const next = likelyNextStatus(order.process_status);
  const role = sessionUser()?.type ?? '';
  const state = orderStateOf(order);
  const today = serviceToday();
  const movable = MOVABLE_STATUSES.filter((to) => decide(state, { kind: 'move', to }, role, today).allowed);
  const canRestore = decide(state, { kind: 'restore' }, role, today).allowed;

  const runRestore = async () => {
    try {
      const res = await restore({ orderId: [order.order_id] }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  const run = async (status: Movable) => {
    try {
      const res = await move({ orderId: order.order_id, updatingStatus: status }).unwrap();
      // Undo for 10 s: a move back (or a restore after a delete), as its own change.
      offerUndo(dispatch, {
        orderId: order.order_id,
        from: order.process_status,
        to: status,
        message: res.message,
        assigned: !!order.assign_to,
        processingDate: order.processing_date,
      });
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(null);
    }
  };

  return (
    <nav aria-label="Move order" className="d-flex flex-wrap gap-2 mb-3">
      {canRestore ? (
        <Button variant="primary" size="sm" disabled={isLoading} onClick={runRestore}>
          Restore
        </Button>
      ) : null}
      {movable.map((status) => (
        <Button
          key={status}
          variant={status === 'Deleted' ? 'outline-danger' : status === next ? 'primary' : 'outline-dark'}
          size="sm"
          disabled={isLoading}
          onClick={() => (CONFIRM[status] ? setPending(status) : run(status))}
        >
          {STATUS_BUTTON_LABELS[status]}
        </Button>
      ))}
      <ConfirmDialog
        show={pending !== null}
        message={pending ? (CONFIRM[pending] ?? '') : ''}
        busy={isLoading}
        onYes={() => pending && run(pending)}
        onNo={() => setPending(null)}
      />
    </nav>
  );
}
