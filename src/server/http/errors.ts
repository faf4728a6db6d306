import { OrderRefusal, type RefusalKind } from '../orders/refusal.js';

/** One error shape for every 4xx/5xx: handlers throw these, the error handler answers. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, data?: unknown) => new HttpError(400, message, data);
export const unauthorized = (message = 'Unauthorized: please sign in again.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this.') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, data?: unknown) => new HttpError(409, message, data);
export const payloadTooLarge = (message = 'The file is too large.') => new HttpError(413, message);
export const unsupportedMediaType = (message: string) => new HttpError(415, message);
export const tooManyRequests = (message = 'Too many requests. Please try again later.') =>
  new HttpError(429, message);
export const serviceUnavailable = (message = 'Service temporarily unavailable. Please try again.') =>
  new HttpError(503, message);

/** The answer to each kind of refusal of the order domain (orders/refusal.ts). */
const REFUSAL_STATUS: Record<RefusalKind, number> = {
  conflict: 409,
  forbidden: 403,
  not_found: 404,
  invalid: 400,
};

/**
 * The one place a domain refusal becomes an HTTP error: an OrderRefusal answers its kind's status with
 * its message and data; an HttpError is itself; anything else is null.
 */
export function httpErrorOf(err: unknown): HttpError | null {
  if (err instanceof HttpError) return err;
  if (err instanceof OrderRefusal) return new HttpError(REFUSAL_STATUS[err.kind], err.message, err.data);
  return null;
}
