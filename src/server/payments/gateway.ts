/**
 * What the product asks of a payment provider (docs/decisions/300). A gateway with an integration
 * implements this; orders paid through any other gateway keep the manual flow (refund in the provider's
 * dashboard, then 'Refunded it' here) and the screens say so. Webhooks are each provider's own route.
 */
export interface PaymentGateway {
  /** The gateway's name as orders store it in merchant_name (compared without case). */
  readonly name: string;
  /** True when this order's payment reference is one the provider can act on. */
  handlesPayment(transactionId: string | null): boolean;
  refund(input: RefundRequest): Promise<GatewayResult<{ refundId: string; status: string }>>;
  /**
   * Reads back the refund an earlier attempt created with this idempotency key (null: none exists), so
   * an attempt whose answer was lost is settled without a second refund.
   */
  findRefund(input: {
    paymentRef: string;
    idempotencyKey: string;
  }): Promise<GatewayResult<{ refundId: string; status: string } | null>>;
  /** The provider's record of a payment: whose it is (metadata order id, amount, customer). */
  paymentRecord(paymentRef: string): Promise<GatewayResult<PaymentRecord>>;
  submitEvidence(input: EvidenceRequest): Promise<GatewayResult<{ fileIds: string[]; status: string }>>;
}

export interface PaymentRecord {
  /** The order id the payment was made for (metadata order_id), when the intake set one. */
  orderId: string | null;
  /** In minor units. */
  amount: number;
  currency: string;
  customer: string | null;
  email: string | null;
}

export interface RefundRequest {
  orderId: number;
  /** The charge or payment intent id (the order's transaction_id). */
  paymentRef: string;
  /** In the currency's minor unit; undefined refunds what is left of the payment. */
  amount: number | undefined;
  reason: 'requested_by_customer' | 'duplicate' | 'fraudulent';
  /** The product's reason code, sent along as metadata (refund_reason). */
  reasonCode: string;
  idempotencyKey: string;
}

export interface EvidenceRequest {
  orderId: number;
  disputeId: string;
  /** Files uploaded as dispute evidence, each into its evidence field (the Defence Pack, the card). */
  files: EvidenceFile[];
  /** Text evidence fields by the provider's names. */
  fields: Record<string, string>;
  /** False saves the evidence as a draft; true submits it to the bank. */
  submit: boolean;
}

export interface EvidenceFile {
  field: 'uncategorized_file' | 'service_documentation';
  data: Uint8Array;
  name: string;
  type: 'application/pdf' | 'image/jpeg' | 'image/png';
}

/**
 * A provider call's outcome: `refused` when the provider answered with an error (nothing happened there),
 * `unreachable` when the outcome is unknown (timeout, network, the provider's own failure): a retry with
 * the same idempotency key is then safe.
 */
export type GatewayResult<T> =
  | { ok: true; value: T }
  | { ok: false; kind: 'refused' | 'unreachable'; message: string; code: string | null };
