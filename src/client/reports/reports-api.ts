import type {
  FinanceAnswer,
  FinanceOrdersAnswer,
  FinanceOrdersQuery,
  FinanceQuery,
} from '../../shared/contracts/finance';
import type { CountryReportRow, ProcessedByRow, ReportRange } from '../../shared/contracts/reports';
import { type ApiMeta, type Envelope, api } from '../transport/api';

/** The report's rows with the message and status of the answer (the toast shows them). */
const withMeta = <T>(data: T | undefined, meta: ApiMeta | undefined): Envelope<T> => ({
  status: meta?.status ?? 0,
  message: meta?.message ?? '',
  data,
});

/** The two report calls; each keeps its message and status beside the rows, because the toast shows them. */
export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCountryOrderCount: build.query<Envelope<CountryReportRow[]>, ReportRange>({
      query: (body) => ({ url: 'admin/get-country-order-count', method: 'POST', body }),
      transformResponse: (rows: CountryReportRow[] | undefined, meta: ApiMeta | undefined) =>
        withMeta(rows, meta),
      providesTags: ['Reports'],
    }),
    getProcessedByCount: build.query<Envelope<ProcessedByRow[]>, ReportRange>({
      query: (body) => ({ url: 'admin/get-processed-by-count', method: 'POST', body }),
      transformResponse: (rows: ProcessedByRow[] | undefined, meta: ApiMeta | undefined) =>
        withMeta(rows, meta),
      providesTags: ['Reports'],
    }),
    getFinanceReport: build.query<FinanceAnswer, FinanceQuery>({
      query: (params) => ({ url: 'admin/reports/finance', params }),
      providesTags: ['Reports'],
    }),
    getFinanceOrders: build.query<FinanceOrdersAnswer, Omit<FinanceOrdersQuery, 'limit'>>({
      query: ({ reason, ...rest }) => ({
        url: 'admin/reports/finance/orders',
        params: reason ? { ...rest, reason } : rest,
      }),
      providesTags: ['Reports'],
    }),
  }),
});

export const {
  useGetCountryOrderCountQuery,
  useGetProcessedByCountQuery,
  useGetFinanceReportQuery,
  useGetFinanceOrdersQuery,
} = reportsApi;
