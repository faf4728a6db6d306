import type { PaymentPolicy, PaymentPolicyBody } from '../../shared/contracts/payment-risk';
import { api, type Envelope } from '../transport/api';

const orderTag = (orderId: number) => [{ type: 'Order' as const, id: orderId }];

/** Acting on payment risk from the detail page, and the payment policy (docs/product.md). */
export const riskApi = api.injectEndpoints({
  endpoints: (build) => ({
    refundOnWarning: build.mutation<Envelope<unknown>, { orderId: number }>({
      query: ({ orderId }) => ({ url: `admin/orders/${orderId}/fraud-warning/refund`, method: 'POST' }),
      invalidatesTags: (_r, _e, { orderId }) => [...orderTag(orderId), 'Counts', 'Orders'],
    }),
    keepPayment: build.mutation<Envelope<unknown>, { orderId: number; reason: string }>({
      query: ({ orderId, reason }) => ({
        url: `admin/orders/${orderId}/fraud-warning/keep`,
        method: 'POST',
        body: { reason },
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
    clearRiskHold: build.mutation<Envelope<unknown>, { orderId: number; reason: string }>({
      query: ({ orderId, reason }) => ({
        url: `admin/orders/${orderId}/risk-hold/clear`,
        method: 'POST',
        body: { reason },
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
    getPaymentPolicy: build.query<PaymentPolicy, void>({
      query: () => ({ url: 'admin/payment-policy' }),
    }),
    savePaymentPolicy: build.mutation<Envelope<PaymentPolicy>, PaymentPolicyBody>({
      query: (body) => ({ url: 'admin/payment-policy', method: 'PUT', body }),
      onQueryStarted: async (_body, { dispatch, queryFulfilled }) => {
        const { data } = await queryFulfilled;
        if (data.data) dispatch(riskApi.util.upsertQueryData('getPaymentPolicy', undefined, data.data));
      },
    }),
  }),
});

export const {
  useRefundOnWarningMutation,
  useKeepPaymentMutation,
  useClearRiskHoldMutation,
  useGetPaymentPolicyQuery,
  useSavePaymentPolicyMutation,
} = riskApi;
