import type { SubmissionPolicy } from '../../shared/contracts/submission';
import { api, type Envelope } from '../transport/api';

export type SubmissionPolicyAnswer = SubmissionPolicy & {
  updatedAt: string | null;
  updatedBy: string | null;
};

/** The submission policy of the settings screen (Admin and Manager). */
export const submissionPolicyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSubmissionPolicy: build.query<SubmissionPolicyAnswer, void>({
      query: () => ({ url: 'admin/submission-policy' }),
    }),
    saveSubmissionPolicy: build.mutation<
      Envelope<SubmissionPolicyAnswer & { moved?: number }>,
      SubmissionPolicy
    >({
      query: (body) => ({ url: 'admin/submission-policy', method: 'PUT', body }),
      // A changed window moves New orders into or out of Future Orders.
      invalidatesTags: (_r, error) => (error ? [] : ['Counts', 'Orders']),
    }),
  }),
});

export const { useGetSubmissionPolicyQuery, useSaveSubmissionPolicyMutation } = submissionPolicyApi;
