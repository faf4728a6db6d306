import type { InsightsData, InsightsQuery, MyDayData } from '../../shared/contracts/insights';
import { api } from '../transport/api';

/** The insights dashboard and the "My day" card. */
export const insightsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getInsights: build.query<InsightsData, InsightsQuery>({
      query: ({ from, to }) => ({ url: 'admin/insights', params: { from, to } }),
      providesTags: ['Reports'],
    }),
    getMyDay: build.query<MyDayData, void>({
      query: () => ({ url: 'admin/insights/my-day' }),
      providesTags: ['Counts'],
    }),
  }),
});

export const { useGetInsightsQuery, useGetMyDayQuery } = insightsApi;
