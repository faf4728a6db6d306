import { type BaseQueryFn, createApi } from '@reduxjs/toolkit/query/react';
import { type ApiError, type Envelope, type Params, requestJson } from './api-client';

export { type Envelope, errorMessage } from './api-client';

/** What an endpoint asks for: a path under /api/ (or a full request). */
export type ApiArgs = string | { url: string; method?: string; body?: unknown; params?: Params };

/** What every answer leaves beside its payload: the message and, on lists, the totals. */
export type ApiMeta = Omit<Envelope, 'data'>;

/**
 * The envelope is unwrapped here, once: a query answers its `data` (typed by the endpoint), a mutation
 * answers the whole envelope (screens toast its message). The message and list totals travel in `meta`
 * for the endpoints that need them. Every failure is `{ status, data: envelope }`; a 401 has already
 * signed out in the transport.
 */
const baseQuery: BaseQueryFn<ApiArgs, unknown, ApiError, object, ApiMeta> = async (args, api) => {
  const { url, ...opts } = typeof args === 'string' ? { url: args } : args;
  const result = await requestJson(url, { ...opts, signal: api.signal });
  if (!result.ok) return { error: result.error };
  const { data, ...meta } = result.body;
  return { data: api.type === 'query' ? data : result.body, meta };
};

/** The one API slice; each area adds its endpoints with injectEndpoints, tags drive refreshes. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Counts', 'Orders', 'Order', 'Team', 'Gateways', 'Reports', 'User', 'Availability'],
  endpoints: () => ({}),
});
