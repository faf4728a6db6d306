/** The response body of every API call (docs/product.md): status 1 success, 0 failure, 401 unauthorised. */
export interface Envelope<T = unknown> {
  status: 0 | 1 | 401;
  message: string;
  data?: T;
}

export function ok<T>(data: T, message = 'Success'): Envelope<T> {
  return { status: 1, message, data };
}

export function done(message: string): Envelope<never> {
  return { status: 1, message };
}
