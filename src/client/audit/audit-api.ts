import type { AuditLogPage, AuditLogQuery, GatewayChange } from '../../shared/contracts/audit';
import { api } from '../transport/api';

export type AuditLogArgs = Partial<Omit<AuditLogQuery, 'page'>> & { page: number };

/** The audit trail and the gateway change history. */
export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAuditLog: build.query<AuditLogPage, AuditLogArgs>({
      query: (args) => ({
        url: 'admin/audit-log',
        params: Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== '')),
      }),
    }),
    getGatewayChanges: build.query<GatewayChange[], void>({
      query: () => ({ url: 'admin/payment-gateway-changes' }),
      providesTags: ['Gateways'],
    }),
  }),
});

export const { useGetAuditLogQuery, useGetGatewayChangesQuery } = auditApi;
