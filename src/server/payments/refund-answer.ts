import { HttpError } from '../http/errors.js';
import { ok } from '../http/envelope.js';
import type { ProviderRefund, RefundResult } from './refund-result.js';

export const REFUNDED_MESSAGE = 'Order has been refunded successfully';

/** One provider refund in words, naming the refund id (the toast shows it). */
export function providerRefundText(r: ProviderRefund): string {
  const what = `Refunded ${r.amount} through ${r.gateway} (refund ${r.refundId}).`;
  return r.closed
    ? `${what} The order is in Completed Refunds.`
    : `${what} ${r.refundedSoFar} refunded so far, ${r.remaining} left: the order stays in Refunds.`;
}

/**
 * The answer of 'Refunded it': 200 when any order was refunded (the failures listed per order); when
 * none was, the provider's reason as 422 (refused) or 502 (no answer), with the same list.
 */
export function refundAnswer(result: RefundResult) {
  const data = { orderId: result.refunded, failed: result.failed, throughProvider: result.throughProvider };
  const done = new Set([...result.refunded, ...result.throughProvider.map((r) => r.orderId)]);
  const said =
    result.throughProvider.length === 1 && done.size === 1
      ? providerRefundText(result.throughProvider[0]!)
      : REFUNDED_MESSAGE;
  if (!result.failed.length) return ok(data, said);
  const why = result.failed.map((f) => f.message).join(' ');
  if (!done.size) {
    const unknown = result.failed.some((f) => f.retrySafe);
    throw new HttpError(unknown ? 502 : 422, why, data);
  }
  return ok(data, `${done.size} of ${done.size + result.failed.length} orders refunded. ${why}`);
}
