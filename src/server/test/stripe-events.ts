import Stripe from 'stripe';

/**
 * Stripe's webhook events as Stripe sends them, for the tests, the end-to-end specs and the benchmark:
 * the event envelope, a dispute object for one of our charges, and the signed body. The signature is
 * Stripe's own (`t=<unix time>,v1=<HMAC-SHA256 of "t.payload">`), made by the Stripe library.
 */

const unixNow = () => Math.floor(Date.now() / 1000);

/** An event envelope around `object` (`charge.dispute.created`, `charge.refunded`, …). */
export function stripeEvent(type: string, object: object, opts: { id: string; created?: number }) {
  return {
    id: opts.id,
    object: 'event',
    api_version: '2025-10-29.clover',
    created: opts.created ?? unixNow(),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object },
  };
}

/** A dispute of `charge` that needs a response within `dueInSeconds` (a week unless given). */
export function stripeDispute(
  charge: string,
  opts: { id: string; dueInSeconds?: number; created?: number },
  over: Record<string, unknown> = {},
) {
  const created = opts.created ?? unixNow();
  return {
    id: opts.id,
    object: 'dispute',
    amount: 5900,
    currency: 'usd',
    charge,
    payment_intent: null,
    reason: 'fraudulent',
    status: 'needs_response',
    created,
    evidence_details: {
      due_by: created + (opts.dueInSeconds ?? 7 * 86_400),
      has_evidence: false,
      submission_count: 0,
    },
    livemode: false,
    ...over,
  };
}

/** A charge refunded in full at Stripe (the object of `charge.refunded`). */
export function stripeRefundedCharge(charge: string, over: Record<string, unknown> = {}) {
  return {
    id: charge,
    object: 'charge',
    amount: 5900,
    amount_refunded: 5900,
    refunded: true,
    currency: 'usd',
    payment_intent: null,
    ...over,
  };
}

/** The `Stripe-Signature` header of `payload` under the endpoint's signing secret. */
export function stripeSignature(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp ? { timestamp } : {}),
  });
}

/** An event's body and its signature, ready to post to /api/webhooks/stripe. */
export function signedStripeEvent(event: object, secret: string): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  return { payload, signature: stripeSignature(payload, secret) };
}
