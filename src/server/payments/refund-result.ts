/** What a refund of orders answers (flows/refund-orders.ts), for the answer the screens get. */

export interface RefundFailure {
  orderId: number;
  message: string;
  /** True when the provider's answer is unknown (timeout): retrying repeats the same request. */
  retrySafe: boolean;
}

export interface ProviderRefund {
  orderId: number;
  gateway: string;
  refundId: string;
  /** This refund, e.g. "20.00 USD". */
  amount: string;
  /** All refunded of the payment so far, this refund included. */
  refundedSoFar: string;
  /** What is left of the payment. */
  remaining: string;
  /** True when the order moved to Completed Refunds. */
  closed: boolean;
}

export interface RefundResult {
  /** Every order now in Completed Refunds. */
  refunded: number[];
  /** Those refunded at a provider, with the provider's refund id (closed or kept in Refunds). */
  throughProvider: ProviderRefund[];
  failed: RefundFailure[];
}
