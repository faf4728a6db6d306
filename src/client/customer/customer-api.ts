import type {
  ApprovalNoticeResponse,
  DownloadDocumentResponse,
  DownloadHistoryResponse,
  TrackOrderResponse,
} from '../../shared/contracts/customer';
import type { CustomerLanguage } from '../../shared/languages';
import { MSG } from '../../shared/messages';
import { decodeOrderId } from '../../shared/order-id';

/**
 * The customer calls (docs/product.md) with plain fetch: the customer page carries no staff code (no Redux).
 * Every call answers the server's body, also for 4xx, or a 'Network Error' body.
 */
async function call<T extends { status: 0 | 1 | 401; message: string }>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  try {
    const res = await fetch(`/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: token } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as T | null;
    if (json && typeof json.message === 'string') return json;
    return { status: res.status === 401 ? 401 : 0, message: res.statusText || MSG.networkError } as T;
  } catch {
    return { status: 0, message: MSG.networkError } as T;
  }
}

/** The page's language goes with the calls: the server answers stage messages in it and keeps it on the order. */
export const trackOrder = (orderId: string, email: string, lang?: CustomerLanguage) =>
  call<TrackOrderResponse>('POST', '/front/track-order', { orderId, email, lang });

export const getDownloadHistory = (
  orderId: string,
  token: string,
  language?: { lang: CustomerLanguage; languageChosen: boolean },
) => call<DownloadHistoryResponse>('POST', '/front/get-download-history', { orderId, ...language }, token);

export const recordDownload = (orderId: string, customername: string, file1: string, token: string) =>
  call<DownloadDocumentResponse>(
    'POST',
    '/front/download-passport-doc-pdf',
    { orderId, customername, file1 },
    token,
  );

export const getApprovalNotice = (orderId: string, token: string) =>
  call<ApprovalNoticeResponse>('GET', `/front/approval-notice/${orderId}`, undefined, token);

const tokenKey = (orderId: string) => `edcard-customer-token:${orderId}`;

/** The customer token of an order, kept for this tab only (sessionStorage) and until it expires. */
export function saveToken(orderId: string, token: string, expiresInSeconds: number): void {
  try {
    sessionStorage.setItem(
      tokenKey(orderId),
      JSON.stringify({ token, expiresAt: Date.now() + expiresInSeconds * 1000 }),
    );
  } catch {
    // Storage blocked: the details page sends the customer back to track again.
  }
}

export function loadToken(orderId: string): string | null {
  try {
    const raw = sessionStorage.getItem(tokenKey(orderId));
    if (!raw) return null;
    const { token, expiresAt } = JSON.parse(raw) as { token?: string; expiresAt?: number };
    if (!token || !expiresAt || expiresAt <= Date.now()) {
      sessionStorage.removeItem(tokenKey(orderId));
      return null;
    }
    return token;
  } catch {
    return null;
  }
}

export function clearToken(orderId: string): void {
  try {
    sessionStorage.removeItem(tokenKey(orderId));
  } catch {
    // Nothing to clear.
  }
}

/** The order id in a customer URL: digits, or the staff-style encoded id (see order-id.ts). */
export function orderIdFromParam(param: string | undefined): string {
  if (!param) return '';
  if (/^\d{1,15}$/.test(param)) return param;
  const decoded = decodeOrderId(param);
  return decoded === null ? '' : String(decoded);
}

/** What the track page hands the details page: the server's "order found" words, in the page's language. */
export interface FoundState {
  found: string;
}
