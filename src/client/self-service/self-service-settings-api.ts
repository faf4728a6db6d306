import type {
  CancellationPolicy,
  FeedbackPolicy,
  TrackPageAnswers,
} from '../../shared/contracts/self-service';
import { api, type Envelope } from '../transport/api';

/** The Admin's settings of the customers' self-service (docs/product.md, "Customers help themselves"). */
const selfServiceSettingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCancellationPolicy: build.query<CancellationPolicy, void>({
      query: () => ({ url: 'admin/cancellation-policy' }),
    }),
    saveCancellationPolicy: build.mutation<Envelope<CancellationPolicy>, CancellationPolicy>({
      query: (body) => ({ url: 'admin/cancellation-policy', method: 'PUT', body }),
    }),
    getFeedbackPolicy: build.query<FeedbackPolicy, void>({ query: () => ({ url: 'admin/feedback-policy' }) }),
    saveFeedbackPolicy: build.mutation<Envelope<FeedbackPolicy>, FeedbackPolicy>({
      query: (body) => ({ url: 'admin/feedback-policy', method: 'PUT', body }),
    }),
    getTrackPageAnswers: build.query<TrackPageAnswers, void>({
      query: () => ({ url: 'admin/track-page-answers' }),
    }),
    saveTrackPageAnswers: build.mutation<Envelope<TrackPageAnswers>, TrackPageAnswers>({
      query: (body) => ({ url: 'admin/track-page-answers', method: 'PUT', body }),
    }),
  }),
});

export const {
  useGetCancellationPolicyQuery,
  useSaveCancellationPolicyMutation,
  useGetFeedbackPolicyQuery,
  useSaveFeedbackPolicyMutation,
  useGetTrackPageAnswersQuery,
  useSaveTrackPageAnswersMutation,
} = selfServiceSettingsApi;
