import { toast } from 'react-toastify';
import { MOVABLE_STATUSES, ORDER_STATUSES, type Role } from '../../shared/constants';
import { serviceToday } from '../../shared/dates';
import { decide } from '../../shared/order-rules';
import { errorMessage } from '../transport/api';
import { sessionUser } from '../transport/session';
import type { AppDispatch } from '../state/store';
import { orderDetailApi } from '../order-detail/order-detail-api';
import { ordersApi } from '../orders/orders-api';
import { orderEvents, withVersion } from './live-bus';

export const UNDO_MS = 10_000;

/**
 * Whether a move can be taken back with one click: a delete by a restore, a move by the move back to
 * the status it left. A refund mails the customer and a new order's status cannot be chosen again, so
 * those moves offer no Undo.
 */
export function undoable(
  move: { from: string; to: string; assigned: boolean; processingDate: string },
  role: Role | null,
): boolean {
  const to = ORDER_STATUSES.find((s) => s === move.to);
  if (!to) return false;
  const after = { processStatus: to, assigned: move.assigned, processingDate: move.processingDate };
  // The order rules (the server's own) must allow the way back for this role.
  if (move.to === 'Deleted') return decide(after, { kind: 'restore' }, role, serviceToday()).allowed;
  if (move.to === 'Refunded' || move.from === move.to) return false;
  if (!(MOVABLE_STATUSES as readonly string[]).includes(move.from)) return false;
  const back = move.from as (typeof MOVABLE_STATUSES)[number];
  return decide(after, { kind: 'move', to: back }, role, serviceToday()).allowed;
}

/**
 * The toast after a status move or a delete: the server's message and Undo for 10 s. Undo is a normal
 * change of its own (a move back, or a restore), recorded as its own event; a change of the order by
 * someone else in the meantime withdraws the offer.
 */
export function offerUndo(
  dispatch: AppDispatch,
  move: {
    orderId: number;
    from: string;
    to: string;
    message: string;
    assigned: boolean;
    processingDate: string;
  },
): void {
  if (!undoable(move, sessionUser()?.type ?? null)) {
    toast.success(move.message);
    return;
  }
  const id = `undo:${move.orderId}:${Date.now()}`;
  let off = () => {};
  const undo = async () => {
    toast.dismiss(id);
    off();
    try {
      const res =
        move.to === 'Deleted'
          ? await dispatch(ordersApi.endpoints.restoreOrders.initiate({ orderId: [move.orderId] })).unwrap()
          : await dispatch(
              orderDetailApi.endpoints.moveOrderStatus.initiate(
                withVersion({
                  orderId: move.orderId,
                  updatingStatus: move.from as (typeof MOVABLE_STATUSES)[number],
                  // Undo also cancels the customer mail the move held (decision 298).
                  undo: true,
                }),
              ),
            ).unwrap();
      toast.success(`Undone: ${res.message}`);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  toast.success(
    <span className="d-flex align-items-center gap-2">
      {/* A long address in the message wraps rather than widen the toast past a phone's screen. */}
      <span className="text-break" style={{ minWidth: 0 }}>
        {move.message}
      </span>
      <button
        type="button"
        className="btn btn-sm btn-light ms-auto text-nowrap flex-shrink-0"
        onClick={() => void undo()}
      >
        Undo
      </button>
    </span>,
    { toastId: id, autoClose: UNDO_MS, pauseOnHover: false, pauseOnFocusLoss: false, closeOnClick: false },
  );
  // Someone else changing the order takes the offer back: an undo would overwrite their change.
  off = orderEvents.on((e) => {
    if (e.orderId === move.orderId && e.by !== '' && e.by !== sessionUser()?.name) {
      toast.dismiss(id);
      off();
    }
  });
  setTimeout(() => off(), UNDO_MS + 1000);
}
