import type { NavigateFunction } from 'react-router';
import { toast } from 'react-toastify';
import { encodeOrderId } from '../../shared/order-id';
import { errorMessage } from '../transport/api';
import type { AppDispatch } from '../state/store';
import { lastQueue } from './live-bus';
import { orderDetailApi } from '../order-detail/order-detail-api';

/** Folders whose orders are held already or closed: nothing to claim there. */
const NO_CLAIM = new Set(['myOrder', 'completedOrder', 'deletedOrder', 'refundedOrder', 'allOrder']);
export const NO_NEXT_WAITING = 'No unassigned order is waiting in your queue, Priority Order or New Orders.';

/**
 * Where Next order looks, in turn: the queue the user came from (remembered for the tab), then
 * Priority Order, then New Orders.
 */
export function nextFolders(): string[] {
  const folder = lastQueue()?.folder;
  const first = folder && !NO_CLAIM.has(folder) ? [folder] : [];
  return [...new Set([...first, 'priorityOrder', 'newOrder'])];
}

/** Claims the next order (see nextFolders) and opens it; says so when nothing is waiting. */
export async function openNextOrder(dispatch: AppDispatch, navigate: NavigateFunction): Promise<void> {
  for (const folderName of nextFolders()) {
    try {
      const res = await dispatch(orderDetailApi.endpoints.claimNextOrder.initiate({ folderName })).unwrap();
      const orderId = res.data?.orderId;
      if (!orderId) continue;
      toast.success(`Order ${orderId} is now assigned to you.`, { toastId: `claimed:${orderId}` });
      navigate(`/admin/view-order/${encodeOrderId(orderId)}`);
      return;
    } catch (error) {
      if ((error as { status?: unknown }).status === 404) continue;
      toast.error(errorMessage(error));
      return;
    }
  }
  toast.info(NO_NEXT_WAITING, { toastId: 'claim-next' });
}
