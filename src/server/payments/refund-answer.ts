import { HttpError } from '../http/errors.js';
import { ok } from '../http/envelope.js';
import type { RefundResult } from './refunds.js';

export const REFUNDED_MESSAGE = 'Order has been refunded successfully';

/**
 * The answer of 'Refunded it': 200 when any order was refunded (the failures listed per order); when
 * none was, the provider's reason as 422 (refused) or 502 (no answer), with the same list.
 */
export function refundAnswer(result: RefundResult) {
  const data = { orderId: result.refunded, failed: result.failed, throughProvider: result.throughProvider };
  if (!result.failed.length) return ok(data, REFUNDED_MESSAGE);
  const why = result.failed.map((f) => f.message).join(' ');
  if (!result.refunded.length) {
    const unknown = result.failed.some((f) => f.retrySafe);
    throw new HttpError(unknown ? 502 : 422, why, data);
  }
  return ok(
    data,
    `${result.refunded.length} of ${result.refunded.length + result.failed.length} orders refunded. ${why}`,
  );
}
