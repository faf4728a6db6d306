import type { PresenceEvent } from '../../shared/contracts/live';
import { type ApiEnvelope, api } from '../app/api';

/** Presence on an order. */
export const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    putPresence: build.mutation<PresenceEvent, { orderId: number; editing: boolean }>({
      query: (body) => ({ url: 'admin/presence', method: 'PUT', body }),
      transformResponse: (body: ApiEnvelope<PresenceEvent>) => body.data as PresenceEvent,
    }),
  }),
});

export const { usePutPresenceMutation } = liveApi;
