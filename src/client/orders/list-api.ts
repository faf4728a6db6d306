import type { Folder } from '../../shared/constants';
import type { OrderListRow } from '../../shared/contracts/orders';
import type { SlaPolicy } from '../../shared/contracts/sla';
import type { SavedView, SavedViewBody } from '../../shared/contracts/views';
import { type ApiMeta, type Envelope, api } from '../app/api';

/** Sort and filter parameters of a list, as they are in the URL (only the ones set). */
export type ListQuery = Record<string, string>;

export interface PageArgs {
  folder: Folder;
  page: number;
  limit: number;
  month?: string | undefined;
  query: ListQuery;
}

export type SlaPolicyAnswer = SlaPolicy & { updatedAt: string | null; updatedBy: string | null };

/** Sorted and filtered list pages (with their total), saved views and the due-time policy. */
export const listApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOrdersPage: build.query<{ rows: OrderListRow[]; total: number }, PageArgs>({
      query: ({ folder, page, limit, month, query }) => ({
        url: `admin/get-orders-list/${folder}`,
        params: { page, limit, delay: 1, ...(month ? { month } : {}), ...query },
      }),
      transformResponse: (rows: OrderListRow[] | undefined, meta: ApiMeta | undefined) => ({
        rows: rows ?? [],
        total: meta?.total ?? 0,
      }),
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
    getSlaPolicy: build.query<SlaPolicyAnswer, void>({
      query: () => ({ url: 'admin/sla-policy' }),
      providesTags: ['Counts'],
    }),
    saveSlaPolicy: build.mutation<Envelope<SlaPolicyAnswer>, SlaPolicy>({
      query: (body) => ({ url: 'admin/sla-policy', method: 'PUT', body }),
      invalidatesTags: ['Counts', 'Orders', 'Order'],
    }),
  }),
});

export const {
  useGetOrdersPageQuery,
  useGetViewsQuery,
  useSaveViewMutation,
  useDeleteViewMutation,
  useGetSlaPolicyQuery,
  useSaveSlaPolicyMutation,
} = listApi;
