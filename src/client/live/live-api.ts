import type { PresenceEvent } from '../../shared/contracts/live';
import { api, type Envelope } from '../transport/api';

/** Presence on an order. */
export const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    putPresence: build.mutation<Envelope<PresenceEvent>, { orderId: number; editing: boolean }>({
      query: (body) => ({ url: 'admin/presence', method: 'PUT', body }),
    }),
  }),
});

export const { usePutPresenceMutation } = liveApi;
