import type { Folder } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import type { DueTimePolicy } from '../../shared/contracts/due-time';
import type { SavedView, SavedViewBody } from '../../shared/contracts/views';
import { type ApiMeta, type Envelope, api } from '../transport/api';

/** Sort and filter parameters of a list, as they are in the URL (only the ones set). */
export type ListQuery = Record<string, string>;

export interface PageArgs {
  folder: Folder;
  page: number;
  limit: number;
  month?: string | undefined;
  query: ListQuery;
}

export interface SearchArgs {
  folderName: Folder;
  searchVal: string;
  start: number;
  end: number;
  month?: string | undefined;
}

/** One page of a list, whichever read answered it (the total is the server's, under the filters). */
export interface ListPage {
  rows: OrderListRow[];
  total: number;
  /** A search stopped counting at its cap. */
  totalCapped: boolean;
}

const toPage = (rows: OrderListRow[] | undefined, meta: ApiMeta | undefined): ListPage => ({
  rows: rows ?? [],
  total: meta?.total ?? 0,
  totalCapped: meta?.totalCapped ?? false,
});

/** The request of one list page (the folder list, its sort and filters, a saved view); 'All' streams it. */
export const listPageRequest = ({ folder, page, limit, month, query }: PageArgs) => ({
  url: `admin/get-orders-list/${folder}`,
  params: { page, limit, delay: 1, ...(month ? { month } : {}), ...query },
});

export type DueTimePolicyAnswer = DueTimePolicy & { updatedAt: string | null; updatedBy: string | null };

/**
 * The list reads, one endpoint per purpose (a folder page with its sort, filters or saved view; a
 * search), both answering a `ListPage`; 'All' streams through `useAllRows`. Then saved views and the
 * due-time policy. The queue screen reads them all through `useQueueRows`.
 */
export const listApi = api.injectEndpoints({
  endpoints: (build) => ({
    getListPage: build.query<ListPage, PageArgs>({
      query: listPageRequest,
      transformResponse: toPage,
      providesTags: ['Orders'],
    }),
    searchList: build.query<ListPage, SearchArgs & { query: ListQuery }>({
      query: ({ query, ...args }) => ({
        url: 'admin/search-order',
        method: 'POST',
        body: { ...args, ...query },
      }),
      transformResponse: toPage,
      providesTags: ['Orders'],
    }),
    getViews: build.query<SavedView[], void>({
      query: () => ({ url: 'admin/views' }),
      providesTags: ['Orders', 'Counts'],
    }),
    saveView: build.mutation<Envelope<SavedView>, SavedViewBody & { id?: number }>({
      query: ({ id, ...body }) => ({
        url: id ? `admin/views/${id}` : 'admin/views',
        method: id ? 'PUT' : 'POST',
        body,
      }),
      invalidatesTags: ['Orders'],
    }),
    deleteView: build.mutation<Envelope, number>({
      query: (id) => ({ url: `admin/views/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Orders'],
    }),
    getDueTimePolicy: build.query<DueTimePolicyAnswer, void>({
      query: () => ({ url: 'admin/due-time-policy' }),
      providesTags: ['Counts'],
    }),
    saveDueTimePolicy: build.mutation<Envelope<DueTimePolicyAnswer>, DueTimePolicy>({
      query: (body) => ({ url: 'admin/due-time-policy', method: 'PUT', body }),
      invalidatesTags: ['Counts', 'Orders', 'Order'],
    }),
  }),
});

export const {
  useGetListPageQuery,
  useSearchListQuery,
  useGetViewsQuery,
  useSaveViewMutation,
  useDeleteViewMutation,
  useGetDueTimePolicyQuery,
  useSaveDueTimePolicyMutation,
} = listApi;
