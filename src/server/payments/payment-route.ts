import type { Config } from '../config.js';
import type { PaymentGateway } from './gateway.js';
import { stripeGateway } from './stripe-gateway.js';

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

/**
 * True when the order names a provider the product integrates (connected or not): its payment
 * reference is the provider's, set by the intake or the provider's events, never typed by staff.
 */
export function paysThroughIntegration(
  config: Config,
  order: { merchantName: string | null; transactionId: string | null },
): boolean {
  const name = order.merchantName?.trim().toLowerCase();
  if (!name) return false;
  return KNOWN_INTEGRATIONS.includes(name) || paymentRouteOf(config, order).kind === 'integrated';
}
