import type { FolderCounts } from '../../shared/constants';
import { api } from '../transport/api';

/** Folder counts for the tiles and the sidebar (get-folder-count). */
export const countsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFolderCount: build.query<FolderCounts, void>({
      query: () => ({ url: 'admin/get-folder-count' }),
      providesTags: ['Counts'],
    }),
  }),
});

export const { useGetFolderCountQuery } = countsApi;
