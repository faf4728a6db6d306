import type {
  AuditLogPage,
  AuditLogQuery,
  ExportEventBody,
  GatewayChange,
} from '../../shared/contracts/audit';
import { type ApiEnvelope, api } from '../app/api';

export type AuditLogArgs = Partial<Omit<AuditLogQuery, 'page'>> & { page: number };

/** The audit trail, the CSV export record and the gateway change history. */
export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAuditLog: build.query<AuditLogPage, AuditLogArgs>({
      query: (args) => ({
        url: 'admin/audit-log',
        params: Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== '')),
      }),
      transformResponse: (body: ApiEnvelope<AuditLogPage>) => body.data as AuditLogPage,
    }),
    recordExport: build.mutation<ApiEnvelope, ExportEventBody>({
      query: (body) => ({ url: 'admin/audit/export-event', method: 'POST', body }),
    }),
    getGatewayChanges: build.query<GatewayChange[], void>({
      query: () => ({ url: 'admin/payment-gateway-changes' }),
      transformResponse: (body: ApiEnvelope<GatewayChange[]>) => body.data ?? [],
      providesTags: ['Gateways'],
    }),
  }),
});

export const { useGetAuditLogQuery, useRecordExportMutation, useGetGatewayChangesQuery } = auditApi;
