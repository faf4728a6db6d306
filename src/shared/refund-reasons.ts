/**
 * Why an order is refunded (docs/product.md, "Refund reasons"). Staff choose one of the codes; 'other'
 * carries a text. A request without one records 'unspecified'.
 */
export const REFUND_REASON_CODES = [
  'customer_request',
  'duplicate',
  'government_rejected',
  'fraud_warning',
  'service_failure',
  'chargeback_prevention',
  'other',
] as const;
export type RefundReasonCode = (typeof REFUND_REASON_CODES)[number];

/** Every stored value: the codes and 'unspecified'. */
export const STORED_REFUND_REASONS = [...REFUND_REASON_CODES, 'unspecified'] as const;
export type StoredRefundReason = (typeof STORED_REFUND_REASONS)[number];

export const REFUND_REASON_LABELS: Record<StoredRefundReason, string> = {
  customer_request: 'Customer request',
  duplicate: 'Duplicate order',
  government_rejected: 'Government rejected',
  fraud_warning: 'Early fraud warning',
  service_failure: 'Service failure',
  chargeback_prevention: 'Chargeback prevention',
  other: 'Other',
  unspecified: 'Unspecified',
};

/** A reason as the product passes it along: the code, and the text of 'other'. */
export interface RefundWhy {
  code: RefundReasonCode;
  text?: string | undefined;
}

/** How a reason reads on a screen or in a file: the label, with the text of 'other'. */
export function refundReasonText(code: string | null | undefined, text?: string | null): string {
  if (!code) return '';
  const label = REFUND_REASON_LABELS[code as StoredRefundReason] ?? code;
  return code === 'other' && text ? `${label}: ${text}` : label;
}
