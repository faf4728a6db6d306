import type {
  CorrectOrderBody,
  DuplicateDecisionBody,
  OrderChecksAnswer,
} from '../../shared/contracts/checks';
import { api, type Envelope } from '../transport/api';

const orderTag = (orderId: number) => [{ type: 'Order' as const, id: orderId }];

/** Corrections and duplicate decisions of the detail page; both refresh the order, the queues and counts. */
export const orderChecksApi = api.injectEndpoints({
  endpoints: (build) => ({
    correctOrder: build.mutation<Envelope<OrderChecksAnswer>, { orderId: number; body: CorrectOrderBody }>({
      query: ({ orderId, body }) => ({ url: `admin/orders/${orderId}`, method: 'PATCH', body }),
      invalidatesTags: (_r, error, { orderId }) => (error ? [] : [...orderTag(orderId), 'Counts', 'Orders']),
    }),
    decideDuplicate: build.mutation<
      Envelope<OrderChecksAnswer>,
      { orderId: number; body: DuplicateDecisionBody }
    >({
      query: ({ orderId, body }) => ({
        url: `admin/orders/${orderId}/duplicate-decision`,
        method: 'POST',
        body,
      }),
      invalidatesTags: (_r, error, { orderId, body }) =>
        error ? [] : [...orderTag(orderId), ...orderTag(body.otherOrderId), 'Counts', 'Orders'],
    }),
  }),
});

export const { useCorrectOrderMutation, useDecideDuplicateMutation } = orderChecksApi;
