import { type BaseQueryFn, createApi, type FetchArgs, fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import { MSG } from '../../shared/messages';
import { clearSession, getAccessToken } from './session';

/** The body every API call answers with (spec §7). */
export interface ApiEnvelope<T = unknown> {
  status: 0 | 1 | 401;
  message: string;
  data?: T;
}

/** Set by the staff shell: shows the message, clears the session and goes to / (spec §6, §8). */
let onUnauthorized: (message: string) => void = () => {
  clearSession();
  window.location.assign('/');
};
export function setUnauthorizedHandler(handler: (message: string) => void): void {
  onUnauthorized = handler;
}
/** A 401 seen outside RTK Query (uploads, PDFs) takes the same path as one inside it. */
export function signalUnauthorized(message: string): void {
  onUnauthorized(message);
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api/',
  prepareHeaders: (headers) => {
    const token = getAccessToken();
    // The stored access token goes in Authorization as is, without "Bearer" (spec §7).
    if (token) headers.set('Authorization', token);
    return headers;
  },
});

/** Every error becomes the server's envelope, so screens read `error.data.message`; 401 signs out. */
const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  { status: number | string; data: ApiEnvelope }
> = async (args, api, extra) => {
  const result = await rawBaseQuery(args, api, extra);
  if (!result.error) return { data: result.data, meta: result.meta };
  const status = result.error.status;
  const body = (result.error as { data?: unknown }).data as ApiEnvelope | undefined;
  const data: ApiEnvelope =
    body && typeof body === 'object' && 'message' in body
      ? body
      : { status: 0, message: status === 'FETCH_ERROR' ? MSG.networkError : 'Request failed' };
  if (status === 401) onUnauthorized(data.message);
  return { error: { status, data } };
};

/** The one API slice; each area adds its endpoints with injectEndpoints, tags drive refreshes. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Counts', 'Orders', 'Order', 'Team', 'Gateways', 'Reports', 'User'],
  endpoints: () => ({}),
});

/** Reads the message of a failed call for a toast. */
export function errorMessage(error: unknown): string {
  const data = (error as { data?: ApiEnvelope } | undefined)?.data;
  return data?.message ?? MSG.networkError;
}
