import type { CountryReportRow, ProcessedByRow, ReportRange } from '../../shared/contracts/reports';
import { type ApiEnvelope, api } from '../app/api';

/** The two report calls of spec §7; the whole envelope is kept because the toast shows its message. */
export const reportsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCountryOrderCount: build.query<ApiEnvelope<CountryReportRow[]>, ReportRange>({
      query: (body) => ({ url: 'admin/get-country-order-count', method: 'POST', body }),
      providesTags: ['Reports'],
    }),
    getProcessedByCount: build.query<ApiEnvelope<ProcessedByRow[]>, ReportRange>({
      query: (body) => ({ url: 'admin/get-processed-by-count', method: 'POST', body }),
      providesTags: ['Reports'],
    }),
  }),
});

export const { useGetCountryOrderCountQuery, useGetProcessedByCountQuery } = reportsApi;
