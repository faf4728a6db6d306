import type { InsightsData, InsightsQuery, MyDayData } from '../../shared/contracts/insights';
import type { DisputesAnswer } from '../../shared/contracts/payment-risk';
import { api } from '../transport/api';

/** The insights dashboard and the "My day" card. */
export const insightsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getInsights: build.query<InsightsData, InsightsQuery>({
      query: ({ from, to }) => ({ url: 'admin/insights', params: { from, to } }),
      providesTags: ['Reports'],
    }),
    getDisputes: build.query<DisputesAnswer, string | undefined>({
      query: (month) => ({ url: 'admin/insights/disputes', params: month ? { month } : {} }),
      providesTags: ['Reports'],
    }),
    getMyDay: build.query<MyDayData, void>({
      query: () => ({ url: 'admin/insights/my-day' }),
      providesTags: ['Counts'],
    }),
  }),
});

export const { useGetInsightsQuery, useGetMyDayQuery, useGetDisputesQuery } = insightsApi;
