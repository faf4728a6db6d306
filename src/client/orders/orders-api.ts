import type { RefundReasonCode } from '../../shared/refund-reasons';
import type { Folder } from '../../shared/constants';
import type { FutureMonthCounts } from '../../shared/contracts/orders';
import { type Envelope, api } from '../transport/api';
import { openVersion } from '../live/live-bus';

type Changed = Envelope<{ orderId: number[] }>;

/** The future month counts and the bulk actions; every action refreshes counts and lists. */
export const ordersApi = api.injectEndpoints({
  endpoints: (build) => ({
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
    completeRefund: build.mutation<
      Changed,
      { orderId: number[]; reasonCode?: RefundReasonCode; reasonText?: string }
    >({
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
  useGetFutureMonthCountQuery,
  useDeleteOrdersMutation,
  useAssignOrdersMutation,
  useCompleteRefundMutation,
  useRestoreOrdersMutation,
} = ordersApi;
