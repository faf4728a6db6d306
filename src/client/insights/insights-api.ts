import type { InsightsData, InsightsQuery, MyDayData } from '../../shared/contracts/insights';
import { type ApiEnvelope, api } from '../app/api';

/** The insights dashboard and the "My day" card. */
export const insightsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getInsights: build.query<InsightsData, InsightsQuery>({
      query: ({ from, to }) => ({ url: 'admin/insights', params: { from, to } }),
      transformResponse: (body: ApiEnvelope<InsightsData>) => body.data as InsightsData,
      providesTags: ['Reports'],
    }),
    getMyDay: build.query<MyDayData, void>({
      query: () => ({ url: 'admin/insights/my-day' }),
      transformResponse: (body: ApiEnvelope<MyDayData>) => body.data as MyDayData,
      providesTags: ['Counts'],
    }),
  }),
});

export const { useGetInsightsQuery, useGetMyDayQuery } = insightsApi;
