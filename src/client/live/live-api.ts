import type { PresenceEvent } from '../../shared/contracts/live';
import { type ApiEnvelope, api } from '../app/api';

/** Presence on an order and claiming the next order of a folder. */
export const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    putPresence: build.mutation<PresenceEvent, { orderId: number; editing: boolean }>({
      query: (body) => ({ url: 'admin/presence', method: 'PUT', body }),
      transformResponse: (body: ApiEnvelope<PresenceEvent>) => body.data as PresenceEvent,
    }),
    claimNext: build.mutation<{ orderId: number }, { folderName: string }>({
      query: (body) => ({ url: 'admin/claim-next-order', method: 'POST', body }),
      transformResponse: (body: ApiEnvelope<{ orderId: number }>) => body.data as { orderId: number },
      invalidatesTags: ['Counts'],
    }),
  }),
});

export const { usePutPresenceMutation, useClaimNextMutation } = liveApi;
