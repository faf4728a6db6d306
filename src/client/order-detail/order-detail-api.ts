import type { OrderStatus } from '../../shared/constants';
import type {
  EmailContent,
  MailPreview,
  OrderDetails,
  ResendMailBody,
} from '../../shared/contracts/order-detail';
import type {
  AddRemarkBody,
  MoveOrderStatusBody,
  SaveTransactionBody,
} from '../../shared/contracts/order-detail-actions';
import { api, type Envelope } from '../transport/api';
import { withVersion } from '../live/live-bus';

type Message = Envelope<unknown>;
const orderTag = (orderId: number) => [{ type: 'Order' as const, id: orderId }];

/** The order detail screen's calls; every write refreshes the order, moves also the queues. */
export const orderDetailApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrderDetails: build.query<OrderDetails, number>({
      query: (orderId) => ({ url: `admin/get-orders-details/${orderId}` }),
      providesTags: (_result, _error, orderId) => orderTag(orderId),
    }),
    getEmailContent: build.query<EmailContent, number>({
      query: (orderId) => ({ url: `admin/get-email-content/${orderId}` }),
      providesTags: (_result, _error, orderId) => orderTag(orderId),
    }),
    /** The customer mail a move to `status` (or macro `macroId`) would send; null when none. */
    getMailPreview: build.query<MailPreview, { orderId: number; status?: OrderStatus; macroId?: number }>({
      query: ({ orderId, ...params }) => ({
        url: `admin/orders/${orderId}/mail-preview`,
        params: params as Record<string, string | number>,
      }),
      keepUnusedDataFor: 0,
    }),
    moveOrderStatus: build.mutation<Message, MoveOrderStatusBody>({
      query: (body) => ({ url: 'admin/move-order-status', method: 'PUT', body: withVersion(body) }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
    addNewRemark: build.mutation<Message, AddRemarkBody & { orderId: number }>({
      query: (body) => ({ url: 'admin/add-new-remark', method: 'POST', body: withVersion(body) }),
      // The Refund and Chargeback flags move the order, so the queues refresh too.
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
    resendMail: build.mutation<Message, ResendMailBody>({
      query: (body) => ({ url: 'admin/resend-mail', method: 'POST', body: withVersion(body) }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : orderTag(orderId)),
    }),
    saveTransactionDetails: build.mutation<Message, SaveTransactionBody>({
      query: (body) => ({ url: 'admin/save-transaction-details', method: 'POST', body: withVersion(body) }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : orderTag(orderId)),
    }),
    /** Assigns to me the most urgent unassigned open order of a folder; 404 when none is waiting. */
    claimNextOrder: build.mutation<Envelope<{ orderId: number }>, { folderName: string }>({
      query: (body) => ({ url: 'admin/claim-next-order', method: 'POST', body }),
      invalidatesTags: (_r, error) => (error ? [] : ['Counts', 'Orders']),
    }),
    withdrawDocument: build.mutation<Message, { documentId: number; orderId: number; reason: string }>({
      query: ({ documentId, reason }) => ({
        url: `admin/order-document/${documentId}`,
        method: 'DELETE',
        body: { reason },
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : orderTag(orderId)),
    }),
  }),
});

export const {
  useWithdrawDocumentMutation,
  useGetOrderDetailsQuery,
  useGetEmailContentQuery,
  useMoveOrderStatusMutation,
  useLazyGetMailPreviewQuery,
  useAddNewRemarkMutation,
  useResendMailMutation,
  useSaveTransactionDetailsMutation,
  useClaimNextOrderMutation,
} = orderDetailApi;
