import type { z } from 'zod';
import type { OrderStatus } from '../../shared/constants';
import type { unmatchedItem } from '../../shared/contracts/conversation';
import { api, type Envelope } from '../transport/api';

export type UnmatchedItem = z.infer<typeof unmatchedItem>;

/** Mail that matched no order, and attaching one to an order. */
export const unmatchedApi = api.enhanceEndpoints({ addTagTypes: ['Unmatched'] }).injectEndpoints({
  endpoints: (build) => ({
    getUnmatched: build.query<{ total: number; items: UnmatchedItem[] }, { page: number; size: number }>({
      query: (params) => ({ url: 'admin/inbound/unmatched', params }),
      providesTags: ['Unmatched'],
    }),
    attachUnmatched: build.mutation<
      Envelope<{ orderId: number; processStatus: OrderStatus }>,
      { messageId: number; orderId: number }
    >({
      query: ({ messageId, orderId }) => ({
        url: `admin/inbound/${messageId}/attach`,
        method: 'POST',
        body: { orderId },
      }),
      invalidatesTags: (_r, error) => (error ? [] : ['Unmatched', 'Counts']),
    }),
  }),
});

export const { useGetUnmatchedQuery, useAttachUnmatchedMutation } = unmatchedApi;
