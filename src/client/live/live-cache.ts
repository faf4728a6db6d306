import type { FolderCounts } from '../../shared/constants';
import { orderChangeEvent, presenceEvent } from '../../shared/contracts/live';
import type { OrderListRow } from '../../shared/contracts/orders';
import { api } from '../app/api';
import type { AppDispatch, RootState } from '../app/store';
import { countsApi } from '../orders/counts-api';
import { ordersApi } from '../orders/orders-api';
import { orderEvents, presenceEvents } from './live-bus';
import type { SseEvent } from './sse';

interface StoreLike {
  dispatch: AppDispatch;
  getState: () => RootState;
}

/** The new status and holder of one order, written into every cached list row of it (no refetch). */
export function patchListRows(store: StoreLike, orderId: number, processStatus: string, assignTo: string) {
  const patch = (row: OrderListRow) => {
    if (row.order_id !== orderId) return;
    row.process_status = processStatus;
    row.assign_to = assignTo;
  };
  const state = store.getState();
  for (const args of ordersApi.util.selectCachedArgsForQuery(state, 'getOrdersList')) {
    store.dispatch(
      ordersApi.util.updateQueryData('getOrdersList', args, (rows) => {
        for (const row of rows) patch(row);
      }),
    );
  }
  for (const args of ordersApi.util.selectCachedArgsForQuery(state, 'searchOrders')) {
    store.dispatch(
      ordersApi.util.updateQueryData('searchOrders', args, (found) => {
        for (const row of found.rows) patch(row);
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
  }
}

/** Refetches the detail of one order wherever it is shown. */
export function refreshOrder(dispatch: AppDispatch, orderId: number): void {
  dispatch(api.util.invalidateTags([{ type: 'Order', id: orderId }]));
}
