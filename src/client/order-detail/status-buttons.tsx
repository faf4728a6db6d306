import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { toast } from 'react-toastify';
import { MOVABLE_STATUSES, STATUS_BUTTON_LABELS } from '../../shared/constants';
import type { OrderDetails } from '../../shared/contracts/order-detail';
import { MSG } from '../../shared/messages';
import { errorMessage } from '../app/api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { useMoveOrderStatusMutation } from './order-detail-api';

type Movable = (typeof MOVABLE_STATUSES)[number];

/** Moves that cannot be taken back with one click ask first (docs/decisions/042). */
const CONFIRM: Partial<Record<Movable, string>> = {
  Deleted: MSG.confirmDelete,
  Refunded: 'Are you sure want to move this order to Completed Refunds? The customer will be mailed.',
};

/** One button per movable status except the current one (spec §2); counts and lists refresh after. */
export function StatusButtons({ order }: { order: OrderDetails }) {
  const [move, { isLoading }] = useMoveOrderStatusMutation();
  const [pending, setPending] = useState<Movable | null>(null);

  const run = async (status: Movable) => {
    try {
      const res = await move({ orderId: order.order_id, updatingStatus: status }).unwrap();
      toast.success(res.message);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setPending(null);
    }
  };

  return (
    <nav aria-label="Move order" className="d-flex flex-wrap gap-2 mb-3">
      {MOVABLE_STATUSES.filter((s) => s !== order.process_status).map((status) => (
        <Button
          key={status}
          variant={status === 'Deleted' ? 'outline-danger' : 'outline-dark'}
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
