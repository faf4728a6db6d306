import Stripe from 'stripe';
import type { Config } from '../config.js';
import type { GatewayResult, PaymentGateway } from './gateway.js';

const STRIPE_OWN_HOST = 'api.stripe.com';

/** Stripe payment references: charges (ch_, py_) and payment intents (pi_). */
const STRIPE_PAYMENT = /^(ch|py|pi)_[A-Za-z0-9]{1,200}$/;

const clients = new WeakMap<Config, Stripe>();

/**
 * The official client, pointed at STRIPE_API_BASE when that is not Stripe's own address (the files
 * host follows it then too). Every call gives up after STRIPE_TIMEOUT_MS; the client does not retry on
 * its own, so each attempt is one recorded request.
 */
export function stripeClient(config: Config): Stripe {
  const cached = clients.get(config);
  if (cached) return cached;
  const base = new URL(config.STRIPE_API_BASE);
  const https = base.protocol === 'https:';
  const own = base.hostname === STRIPE_OWN_HOST;
  const client = new Stripe(config.STRIPE_SECRET_KEY ?? 'sk_unset', {
    ...(own
      ? {}
      : {
          host: base.hostname,
          port: base.port || (https ? 443 : 80),
          protocol: https ? 'https' : 'http',
        }),
    timeout: config.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'ED-Card' },
  });
  clients.set(config, client);
  return client;
}

/** A failed Stripe call as the product reports it: refused (Stripe answered) or unreachable (unknown). */
function failure(err: unknown): {
  ok: false;
  kind: 'refused' | 'unreachable';
  message: string;
  code: string | null;
} {
  if (err instanceof Stripe.errors.StripeError) {
    const status = err.statusCode ?? 0;
    if (
      err instanceof Stripe.errors.StripeIdempotencyError ||
      err.rawType === 'idempotency_error' ||
      status === 409
    ) {
      // 409: the first request with this key is still running at Stripe (or it was sent with other
      // parameters): its outcome is unknown, and only the same key may ask again.
      return {
        ok: false,
        kind: 'unreachable',
        code: 'idempotency_error',
        message: 'Stripe is still working on this refund (the same request is in progress).',
      };
    }
    const unknownOutcome =
      err instanceof Stripe.errors.StripeConnectionError || status === 0 || status >= 500;
    if (unknownOutcome) {
      const timedOut = /timeout/i.test(err.message);
      return {
        ok: false,
        kind: 'unreachable',
        code: err.code ?? null,
        message: timedOut
          ? 'Stripe did not answer in time.'
          : `Stripe could not be reached (${status ? `HTTP ${status}` : 'network error'}).`,
      };
    }
    if (err instanceof Stripe.errors.StripeAuthenticationError) {
      return { ok: false, kind: 'refused', code: err.code ?? null, message: 'Stripe refused the API key.' };
    }
    const code = err.code ?? err.decline_code ?? null;
    return {
      ok: false,
      kind: 'refused',
      code,
      message: `Stripe refused it: ${clean(err.message)}${code ? ` (${code})` : ''}`,
    };
  }
  return { ok: false, kind: 'unreachable', code: null, message: 'Stripe could not be reached.' };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** Provider text shown to staff: one line, no control characters, bounded. */
function clean(text: string | undefined): string {
  return (text ?? '').replace(CONTROL, ' ').trim().slice(0, 300) || 'no reason given';
}

export function stripeGateway(config: Config): PaymentGateway {
  const stripe = stripeClient(config);
  return {
    name: 'Stripe',
    handlesPayment: (transactionId) => !!transactionId && STRIPE_PAYMENT.test(transactionId.trim()),

    async refund(input) {
      const ref = input.paymentRef.trim();
      try {
        const refund = await stripe.refunds.create(
          {
            ...(ref.startsWith('pi_') ? { payment_intent: ref } : { charge: ref }),
            ...(input.amount !== undefined ? { amount: input.amount } : {}),
            reason: input.reason,
            metadata: {
              order_id: String(input.orderId),
              edcard_key: input.idempotencyKey,
              refund_reason: input.reasonCode,
            },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (refund.status === 'failed' || refund.status === 'canceled') {
          return {
            ok: false,
            kind: 'refused',
            code: refund.failure_reason ?? null,
            message: `Stripe could not refund it: ${refund.failure_reason ?? refund.status}`,
          };
        }
        return { ok: true, value: { refundId: refund.id, status: refund.status ?? 'pending' } };
      } catch (err) {
        return failure(err);
      }
    },

    async findRefund(input) {
      const ref = input.paymentRef.trim();
      try {
        const list = await stripe.refunds.list({
          ...(ref.startsWith('pi_') ? { payment_intent: ref } : { charge: ref }),
          limit: 100,
        });
        const found = list.data.find((r) => r.metadata?.edcard_key === input.idempotencyKey);
        if (!found) return { ok: true, value: null };
        if (found.status === 'failed' || found.status === 'canceled') {
          return {
            ok: false,
            kind: 'refused',
            code: found.failure_reason ?? null,
            message: `Stripe could not refund it: ${found.failure_reason ?? found.status}`,
          };
        }
        return { ok: true, value: { refundId: found.id, status: found.status ?? 'pending' } };
      } catch (err) {
        return failure(err);
      }
    },

    async paymentRecord(paymentRef) {
      const ref = paymentRef.trim();
      try {
        const p = ref.startsWith('pi_')
          ? await stripe.paymentIntents.retrieve(ref)
          : await stripe.charges.retrieve(ref);
        const email =
          'receipt_email' in p && p.receipt_email
            ? p.receipt_email
            : 'billing_details' in p
              ? (p.billing_details?.email ?? null)
              : null;
        return {
          ok: true,
          value: {
            orderId: p.metadata?.order_id ?? null,
            amount: p.amount,
            currency: p.currency.toUpperCase(),
            customer: typeof p.customer === 'string' ? p.customer : (p.customer?.id ?? null),
            email: email ?? null,
          },
        };
      } catch (err) {
        return failure(err);
      }
    },

    async submitEvidence(input): Promise<GatewayResult<{ fileIds: string[]; status: string }>> {
      try {
        const uploaded: Record<string, string> = {};
        for (const f of input.files) {
          const file = await stripe.files.create({
            purpose: 'dispute_evidence',
            file: { data: Buffer.from(f.data), name: f.name, type: f.type },
          });
          uploaded[f.field] = file.id;
        }
        const dispute = await stripe.disputes.update(input.disputeId, {
          evidence: { ...input.fields, ...uploaded },
          submit: input.submit,
          metadata: { order_id: String(input.orderId) },
        });
        return { ok: true, value: { fileIds: Object.values(uploaded), status: dispute.status } };
      } catch (err) {
        return failure(err);
      }
    },
  };
}

/** Verifies a webhook's Stripe-Signature on the raw body (5 minutes' tolerance) and parses the event. */
export function verifyStripeEvent(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(rawBody, signature, secret, 300);
}
