import type { Folder } from '../../shared/constants';
import type { FutureMonthCounts, OrderListRow } from '../../shared/contracts/orders';
import { type ApiMeta, type Envelope, api } from '../app/api';
import { openVersion } from '../live/live-bus';

export interface ListArgs {
  folder: Folder;
  page: number;
  limit: number;
  month?: string | undefined;
}

export interface SearchArgs {
  folderName: Folder;
  searchVal: string;
  start: number;
  end: number;
  month?: string | undefined;
}

type Changed = Envelope<{ orderId: number[] }>;

/** Folder lists, search and the bulk actions; every action refreshes counts and lists. */
export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrdersList: build.query<OrderListRow[], ListArgs>({
      query: ({ folder, page, limit, month }) => ({
        url: `admin/get-orders-list/${folder}`,
        params: { page, limit, delay: 1, ...(month ? { month } : {}) },
      }),
      providesTags: ['Orders'],
    }),
    searchOrders: build.query<{ rows: OrderListRow[]; total: number; totalCapped: boolean }, SearchArgs>({
      query: (body) => ({ url: 'admin/search-order', method: 'POST', body }),
      transformResponse: (rows: OrderListRow[] | undefined, meta: ApiMeta | undefined) => ({
        rows: rows ?? [],
        total: meta?.total ?? 0,
        totalCapped: meta?.totalCapped ?? false,
      }),
      providesTags: ['Orders'],
    }),
    getFutureMonthCount: build.query<FutureMonthCounts, void>({
      query: () => ({ url: 'admin/get-future-month-count' }),
      providesTags: ['Counts'],
    }),
    deleteOrders: build.mutation<Changed, { orderId: number[]; folderName: Folder }>({
      query: ({ orderId, folderName }) => ({
        url: 'admin/change-order-status',
        method: 'PUT',
        body: { orderId, permanentDeletedFlag: false, updatingStatus: 'Deleted', folderName },
      }),
      invalidatesTags: ['Counts', 'Orders', 'Order'],
    }),
    assignOrders: build.mutation<Changed, { orderId: number[]; assignto: string }>({
      // One order open on its detail page: the change carries the version shown there.
      query: (body) => {
        const version = body.orderId.length === 1 ? openVersion(body.orderId[0]!) : undefined;
        return {
          url: 'admin/assign-order-status',
          method: 'PUT',
          body: version === undefined ? body : { ...body, expectedVersion: version },
        };
      },
      invalidatesTags: ['Counts', 'Orders', 'Order'],
    }),
    completeRefund: build.mutation<Changed, { orderId: number[] }>({
      query: (body) => ({ url: 'admin/move-to-complete-refund', method: 'PUT', body }),
      invalidatesTags: ['Counts', 'Orders', 'Order'],
    }),
    restoreOrders: build.mutation<Changed, { orderId: number[] }>({
      query: (body) => ({ url: 'admin/restore-order', method: 'PUT', body }),
      invalidatesTags: ['Counts', 'Orders', 'Order'],
    }),
  }),
});

export const {
  useGetOrdersListQuery,
  useSearchOrdersQuery,
  useGetFutureMonthCountQuery,
  useDeleteOrdersMutation,
  useAssignOrdersMutation,
  useCompleteRefundMutation,
  useRestoreOrdersMutation,
} = ordersApi;
