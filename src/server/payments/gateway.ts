import type { Config } from '../config.js';
import { stripeGateway } from './stripe-gateway.js';

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
  submitEvidence(input: EvidenceRequest): Promise<GatewayResult<{ fileIds: string[]; status: string }>>;
}

export interface RefundRequest {
  orderId: number;
  /** The charge or payment intent id (the order's transaction_id). */
  paymentRef: string;
  /** In the currency's minor unit; undefined refunds what is left of the payment. */
  amount: number | undefined;
  reason: 'requested_by_customer' | 'duplicate';
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

/** How an order stands with the payment providers: the integration that acts on it, or why none does. */
export type PaymentRoute =
  | { kind: 'integrated'; gateway: PaymentGateway }
  | { kind: 'manual'; gateway: string | null; reason: string };

/** The gateways with an integration, given the configuration (a provider without its key has none). */
export function integratedGateways(config: Config): PaymentGateway[] {
  const gateways: PaymentGateway[] = [];
  if (config.STRIPE_SECRET_KEY) gateways.push(stripeGateway(config));
  return gateways;
}

const KNOWN_INTEGRATIONS = ['stripe'];

/** Which way money moves for an order: through an integrated provider, or by hand (with the reason). */
export function paymentRouteOf(
  config: Config,
  order: { merchantName: string | null; transactionId: string | null },
): PaymentRoute {
  const name = order.merchantName?.trim() || null;
  if (!name) return { kind: 'manual', gateway: null, reason: 'The order names no payment gateway.' };
  const gateway = integratedGateways(config).find((g) => g.name.toLowerCase() === name.toLowerCase());
  if (!gateway) {
    const reason = KNOWN_INTEGRATIONS.includes(name.toLowerCase())
      ? `${name} is not connected (no API key is set): refund and answer chargebacks in ${name}'s dashboard.`
      : `${name} has no integration: refund and answer chargebacks in ${name}'s dashboard.`;
    return { kind: 'manual', gateway: name, reason };
  }
  if (!gateway.handlesPayment(order.transactionId)) {
    return {
      kind: 'manual',
      gateway: gateway.name,
      reason: `The transaction id is not a ${gateway.name} payment: refund in ${gateway.name}'s dashboard.`,
    };
  }
  return { kind: 'integrated', gateway };
}
