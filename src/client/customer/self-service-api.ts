import type { CustomerLanguage } from '../../shared/languages';
import { MSG } from '../../shared/messages';

/** The self-service calls of the track page (customer token, or the feedback mail's signed link). */
export interface Answer<T> {
  code: number;
  message: string;
  data?: T;
  errors?: { field: string; message: string }[];
}

export interface SelfServiceState {
  orderId: number;
  version: number;
  editable: boolean;
  cancellable: boolean;
  fields: Record<string, string | null>;
  cancellation: { percent: number; amount: string; policyText: string } | null;
  cancelled: { percent: number; amount: string; outcome: 'refunded' | 'refunds' } | null;
  rating: { asked: boolean; score: number | null; comment: string };
  answers: string[];
}

async function send<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string | null,
): Promise<Answer<T>> {
  try {
    const res = await fetch(`/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: token } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as {
      message?: string;
      data?: T & { errors?: Answer<T>['errors'] };
    } | null;
    return {
      code: res.status,
      message: json?.message ?? MSG.networkError,
      ...(res.ok ? { data: json?.data as T } : { errors: json?.data?.errors ?? [] }),
    };
  } catch {
    return { code: 0, message: MSG.networkError };
  }
}

const base = (orderId: string) => `/customer/orders/${encodeURIComponent(orderId)}`;

export const getSelfService = (orderId: string, token: string, lang: CustomerLanguage) =>
  send<SelfServiceState>('GET', `${base(orderId)}/self-service?lang=${lang}`, undefined, token);

export const correctDetails = (
  orderId: string,
  token: string,
  body: { expectedVersion: number; fields: Record<string, string>; lang: CustomerLanguage },
) => send<{ version: number; changes: { field: string }[] }>('PATCH', base(orderId), body, token);

export const cancelOrder = (
  orderId: string,
  token: string,
  body: { reason: string; expectedVersion: number; lang: CustomerLanguage },
) =>
  send<{ percent: number; amount: string; outcome: string; replayed: boolean }>(
    'POST',
    `${base(orderId)}/cancel`,
    body,
    token,
  );

export const rateOrder = (
  orderId: string,
  body: { score: number; comment?: string; signature?: string },
  token?: string | null,
) => send<{ score: number; comment: string }>('POST', `${base(orderId)}/rating`, body, token);
