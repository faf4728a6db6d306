import type { MarkSubmittedBody, OrderFileItem, SubmissionPacket } from '../../shared/contracts/submission';
import { withVersion } from '../live/live-bus';
import { api, type Envelope } from '../transport/api';

const orderTag = (orderId: number) => [{ type: 'Order' as const, id: orderId }];

/** The Submit panel's calls: the government form's packet and "Mark submitted" with the reference. */
export const submissionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSubmissionPacket: build.query<SubmissionPacket, number>({
      query: (orderId) => ({ url: `admin/orders/${orderId}/submission-packet` }),
      providesTags: (_r, _e, orderId) => orderTag(orderId),
    }),
    getOrderFiles: build.query<OrderFileItem[], number>({
      query: (orderId) => ({ url: `admin/orders/${orderId}/files` }),
      providesTags: (_r, _e, orderId) => orderTag(orderId),
    }),
    markSubmitted: build.mutation<Envelope<unknown>, MarkSubmittedBody & { orderId: number }>({
      query: ({ orderId, ...body }) => {
        const { orderId: _id, ...versioned } = withVersion({ orderId, ...body });
        return { url: `admin/orders/${orderId}/submitted`, method: 'POST', body: versioned };
      },
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
  }),
});

export const { useGetSubmissionPacketQuery, useGetOrderFilesQuery, useMarkSubmittedMutation } = submissionApi;
