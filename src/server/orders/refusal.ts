/**
 * Why the order domain refuses a change: the order changed or its state forbids it (`conflict`), the
 * actor's role may not do it (`forbidden`), the order or one of its parts does not exist (`not_found`),
 * or the request asks for something that makes no sense for the order (`invalid`). The message and the
 * data are what the screens show (the refused orders, the holder, the recent move, the load).
 *
 * The domain knows nothing of HTTP: one place (http/errors.ts, httpErrorOf) turns a refusal into its
 * answer (409, 403, 404, 400) with the same body.
 */
export type RefusalKind = 'conflict' | 'forbidden' | 'not_found' | 'invalid';

export class OrderRefusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'OrderRefusal';
  }
}

export const refuseConflict = (message: string, data?: unknown) =>
  new OrderRefusal('conflict', message, data);
export const refuseForbidden = (message = 'You do not have permission to do this.', data?: unknown) =>
  new OrderRefusal('forbidden', message, data);
export const refuseNotFound = (message = 'Not found', data?: unknown) =>
  new OrderRefusal('not_found', message, data);
export const refuseInvalid = (message: string, data?: unknown) => new OrderRefusal('invalid', message, data);

/** The refusal of a kind when it is one, else null (callers that answer some refusals themselves). */
export function refusalOf(err: unknown, kind?: RefusalKind): OrderRefusal | null {
  if (!(err instanceof OrderRefusal)) return null;
  return kind === undefined || err.kind === kind ? err : null;
}
