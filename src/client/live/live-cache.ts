import type { FolderCounts, OrderStatus } from '../../shared/constants';
import { toast } from 'react-toastify';
import { orderChangeEvent, presenceEvent, staffNotice } from '../../shared/contracts/live';
import type { OrderListRow } from '../../shared/contracts/orders';
import { api } from '../transport/api';
import type { AppDispatch, RootState } from '../state/store';
import { countsApi } from '../orders/counts-api';
import { orderEvents, presenceEvents } from './live-bus';
import type { SseEvent } from './sse';

interface StoreLike {
  dispatch: AppDispatch;
  getState: () => RootState;
}

type Recipe = (data: unknown) => void;
/** updateQueryData for any endpoint by name: list endpoints come and go, every one holds list rows. */
const updateAny = api.util.updateQueryData as unknown as (
  endpoint: string,
  args: unknown,
  recipe: Recipe,
) => Parameters<AppDispatch>[0];

/** The rows of a cached list answer: an array of rows, or an object with `rows`. */
function rowsOf(data: unknown): OrderListRow[] | null {
  const rows = Array.isArray(data) ? data : (data as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) && rows.every((r) => r && typeof r === 'object' && 'order_id' in r)
    ? (rows as OrderListRow[])
    : null;
}

/**
 * The new status and holder of one order, written into every cached list answer that shows it (the
 * folder lists, search, sorted pages) without a refetch, so nothing moves under the cursor.
 */
export function patchListRows(
  store: StoreLike,
  orderId: number,
  processStatus: OrderStatus,
  assignTo: string,
) {
  for (const q of Object.values(store.getState().api.queries)) {
    if (!q?.endpointName || !rowsOf(q.data)?.some((r) => r.order_id === orderId)) continue;
    store.dispatch(
      updateAny(q.endpointName, q.originalArgs, (draft) => {
        for (const row of rowsOf(draft) ?? []) {
          if (row.order_id !== orderId) continue;
          row.process_status = processStatus;
          row.assign_to = assignTo;
        }
      }),
    );
  }
}

/**
 * One event of the stream into the client: counts replace the cached folder counts (sidebar and tiles
 * re-render, nothing is polled), an order change patches the visible list rows in place and refreshes
 * that order's detail if it is open; presence goes to the detail page that shows it.
 */
export function applyLiveEvent(store: StoreLike, event: SseEvent): void {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return;
  }
  if (event.event === 'counts') {
    if (!data || typeof data !== 'object') return;
    store.dispatch(countsApi.util.upsertQueryData('getFolderCount', undefined, data as FolderCounts));
  } else if (event.event === 'order') {
    const parsed = orderChangeEvent.safeParse(data);
    if (!parsed.success) return;
    const change = parsed.data;
    patchListRows(store, change.orderId, change.processStatus, change.assignTo);
    orderEvents.emit(change);
  } else if (event.event === 'presence') {
    const parsed = presenceEvent.safeParse(data);
    if (parsed.success) presenceEvents.emit(parsed.data);
  } else if (event.event === 'notice') {
    // A fraud warning to review, a dispute band change: managers see it at once (the server chose who).
    // A machine's claim or submission passes by; its failure stays until read.
    const parsed = staffNotice.safeParse(data);
    if (!parsed.success) return;
    const toastId = `notice-${event.data}`;
    if (parsed.data.kind === 'submission_claimed' || parsed.data.kind === 'submission_submitted')
      toast.info(parsed.data.text, { autoClose: 6000, toastId });
    else toast.warning(parsed.data.text, { autoClose: false, toastId });
  }
}

/** Refetches the detail of one order wherever it is shown. */
export function refreshOrder(dispatch: AppDispatch, orderId: number): void {
  dispatch(api.util.invalidateTags([{ type: 'Order', id: orderId }]));
}
