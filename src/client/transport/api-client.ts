import type { z } from 'zod';
import type { messageOnly } from '../../shared/contracts/common';
import { MSG } from '../../shared/messages';
import { clearSession, getAccessToken } from './session';

/**
 * The one staff transport: every call to `/api/` goes through here, whether it is an RTK Query endpoint
 * (the base query in api.ts), a file download (blob) or an upload with progress (XMLHttpRequest). Each
 * sends the stored token the same way and treats a 401 the same way: the registered handler signs out.
 */

/** The body every API call answers with, as the shared contract defines it; lists add totals beside `data`. */
export type Envelope<T = unknown> = z.infer<typeof messageOnly> & {
  data?: T;
  total?: number;
  totalCapped?: boolean;
};

/** A failed call: the HTTP status (or 'FETCH_ERROR' when none came back) and the server's envelope. */
export interface ApiError {
  status: number | 'FETCH_ERROR';
  data: Envelope;
}

/** Set by the staff shell: shows the message and signs out (clears the session, the store and the cache). */
let onUnauthorized: (message: string) => void = () => {
  // Before the shell registers its handler: drop the session and start again from the sign-in.
  clearSession();
  window.location.assign('/');
};
export function setUnauthorizedHandler(handler: (message: string) => void): void {
  onUnauthorized = handler;
}
/** A 401 seen by a stream that does not go through here (the live events) takes the same path. */
export function signalUnauthorized(message: string): void {
  onUnauthorized(message);
}

export type Params = Record<string, string | number | boolean | undefined | null>;

/** `/api/<path>?<params>`; absolute paths and full URLs are kept, params left unset are left out. */
export function apiUrl(path: string, params?: Params): string {
  const base = path.startsWith('/') || path.includes('://') ? path : `/api/${path}`;
  if (!params) return base;
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value != null) qs.append(key, String(value));
  const text = qs.toString();
  return text ? `${base}${base.includes('?') ? '&' : '?'}${text}` : base;
}

/** The stored access token goes in Authorization as is, without "Bearer". */
function withAuth(headers?: HeadersInit): Headers {
  const out = new Headers(headers);
  const token = getAccessToken();
  if (token) out.set('Authorization', token);
  return out;
}

function isEnvelope(body: unknown): body is Envelope {
  return !!body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string';
}

/** The error of a refused call; a 401 signs out here, once, whoever asked. */
function failure(status: number | 'FETCH_ERROR', body: unknown, fallback: string): ApiError {
  const data: Envelope = isEnvelope(body)
    ? body
    : { status: status === 401 ? 401 : 0, message: status === 'FETCH_ERROR' ? MSG.networkError : fallback };
  if (status === 401) onUnauthorized(data.message);
  return { status, data };
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON, or as is when it is FormData. */
  body?: unknown;
  params?: Params;
  headers?: HeadersInit;
  signal?: AbortSignal;
}

function init(opts: RequestOptions): RequestInit {
  const headers = withAuth(opts.headers);
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(opts.body);
  }
  return { method: opts.method ?? 'GET', headers, body, signal: opts.signal ?? null };
}

export type JsonResult<T> = { ok: true; status: number; body: Envelope<T> } | { ok: false; error: ApiError };

/** A JSON call: the envelope on success, else the error (the server's envelope when it sent one). */
export async function requestJson<T = unknown>(
  path: string,
  opts: RequestOptions = {},
): Promise<JsonResult<T>> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.params), init(opts));
  } catch {
    return { ok: false, error: failure('FETCH_ERROR', null, MSG.networkError) };
  }
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page: a generic message below.
  }
  if (res.ok && isEnvelope(body)) return { ok: true, status: res.status, body: body as Envelope<T> };
  return { ok: false, error: failure(res.status, body, `Request failed (HTTP ${res.status})`) };
}

export type BlobResult = { ok: true; blob: Blob; fileName: string | null } | { ok: false; error: ApiError };

/**
 * A file (CSV export, PDF, uploaded document): the body as a Blob and the name the server gave it. An
 * answer of another type than `expectType` (an error envelope) is a failure with the server's message.
 */
export async function requestBlob(
  path: string,
  opts: RequestOptions & { expectType?: string } = {},
): Promise<BlobResult> {
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.params), init(opts));
  } catch {
    return { ok: false, error: failure('FETCH_ERROR', null, MSG.networkError) };
  }
  const type = res.headers.get('content-type') ?? '';
  if (res.ok && (!opts.expectType || type.includes(opts.expectType))) {
    const fileName = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? null;
    return { ok: true, blob: await res.blob(), fileName };
  }
  const body = await res.json().catch(() => null);
  return { ok: false, error: failure(res.status, body, `Request failed (HTTP ${res.status})`) };
}

/**
 * A multipart upload that reports its progress. XMLHttpRequest, not fetch, because only it reports
 * upload progress; the token and the 401 handling are those of every other call.
 */
export function uploadWithProgress<T = unknown>(
  path: string,
  form: FormData,
  onProgress: (percent: number) => void,
): Promise<JsonResult<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    withAuth().forEach((value, key) => {
      xhr.setRequestHeader(key, value);
    });
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: a generic message below.
      }
      if (xhr.status >= 200 && xhr.status < 300 && isEnvelope(body)) {
        resolve({ ok: true, status: xhr.status, body: body as Envelope<T> });
      } else {
        resolve({ ok: false, error: failure(xhr.status, body, `Upload failed (HTTP ${xhr.status})`) });
      }
    };
    xhr.onerror = () => resolve({ ok: false, error: failure('FETCH_ERROR', null, MSG.networkError) });
    xhr.send(form);
  });
}

/** The message of a failed call for a toast. */
export function errorMessage(error: unknown): string {
  const data = (error as { data?: Envelope } | undefined)?.data;
  return data?.message ?? MSG.networkError;
}
