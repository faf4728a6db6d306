import type { OrderPayment, SubmitEvidenceBody } from '../../shared/contracts/payments';
import { api, type Envelope } from '../transport/api';

const orderTag = (orderId: number) => [{ type: 'Order' as const, id: orderId }];

/** The order's Payment section: how money moves for it, its disputes and refunds, and dispute evidence. */
export const paymentApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrderPayment: build.query<OrderPayment, number>({
      query: (orderId) => ({ url: `admin/orders/${orderId}/payment` }),
      providesTags: (_result, _error, orderId) => orderTag(orderId),
    }),
    submitEvidence: build.mutation<Envelope<unknown>, SubmitEvidenceBody & { orderId: number }>({
      query: ({ orderId, submit }) => ({
        url: `admin/orders/${orderId}/submit-evidence`,
        method: 'POST',
        body: { submit },
      }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : orderTag(orderId)),
    }),
    refundThroughProvider: build.mutation<
      Envelope<unknown>,
      { orderId: number; amount?: string | undefined; close?: boolean | undefined }
    >({
      query: ({ orderId, amount, close }) => ({
        url: 'admin/move-to-complete-refund',
        method: 'PUT',
        body: { orderId: [orderId], ...(amount ? { amount } : {}), ...(close ? { close } : {}) },
      }),
      invalidatesTags: (_r, _error, { orderId }) => [...orderTag(orderId), 'Counts', 'Orders'],
    }),
  }),
});

export const { useGetOrderPaymentQuery, useSubmitEvidenceMutation, useRefundThroughProviderMutation } =
  paymentApi;
