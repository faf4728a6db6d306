import type { FolderCounts } from '../../shared/constants';
import { api, type ApiEnvelope } from '../app/api';

/** Folder counts for the tiles and the sidebar (get-folder-count). */
export const countsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFolderCount: build.query<FolderCounts, void>({
      query: () => ({ url: 'admin/get-folder-count' }),
      transformResponse: (body: ApiEnvelope<FolderCounts>) => body.data as FolderCounts,
      providesTags: ['Counts'],
    }),
  }),
});

export const { useGetFolderCountQuery } = countsApi;
