import { badRequest, HttpError } from '../http/errors.js';

/**
 * A form the parser could not read to its end (cut off, a broken boundary): the sender's fault, 400.
 * Our own refusals (4xx) pass as they are.
 */
export function malformedForm(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new HttpError(status, (err as Error).message);
  return badRequest('The form data is incomplete or malformed.');
}
