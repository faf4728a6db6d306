import { api, type Envelope } from '../transport/api';

/** One's own Available/Away state (account menu). */
export interface Availability {
  away: boolean;
  awayUntil: string | null;
  routed: boolean;
  onShift: boolean;
}

export const availabilityApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAvailability: build.query<Availability, void>({
      query: () => ({ url: 'staff/availability' }),
      providesTags: ['Availability'],
    }),
    setAvailability: build.mutation<Envelope<Availability>, { away: boolean }>({
      query: (body) => ({ url: 'staff/availability', method: 'PUT', body }),
      invalidatesTags: ['Availability'],
    }),
  }),
});

export const { useGetAvailabilityQuery, useSetAvailabilityMutation } = availabilityApi;
