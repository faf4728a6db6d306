import type Stripe from 'stripe';
import { z } from 'zod';

/**
 * The parts of Stripe's objects the product reads, checked before anything is applied: a signed event
 * whose object is not what Stripe documents is refused (400) and changes nothing.
 */
const id = z.string().regex(/^[A-Za-z0-9_]{1,255}$/);
const ref = z.union([id, z.object({ id })]);
const word = z.string().regex(/^[a-z_]{1,64}$/);
const minor = z.number().int().min(0).max(1e12);
const currency = z.string().regex(/^[A-Za-z]{3}$/);

const event = z.object({
  id,
  type: z.string().regex(/^[a-z_.]{1,100}$/),
  data: z.object({ object: z.object({}).loose() }),
});

const dispute = z
  .object({
    id,
    charge: ref,
    payment_intent: ref.nullish(),
    amount: minor,
    currency,
    reason: word,
    status: word,
    evidence_details: z
      .object({ due_by: z.number().int().min(0).max(1e11).nullish() })
      .loose()
      .nullish(),
  })
  .loose();

const charge = z
  .object({
    id,
    payment_intent: ref.nullish(),
    amount: minor,
    amount_refunded: minor,
    refunded: z.boolean(),
    currency,
    refunds: z
      .object({
        data: z
          .array(
            z
              .object({
                id,
                status: word.nullish(),
                metadata: z.record(z.string().max(40), z.string().max(500)).nullish(),
              })
              .loose(),
          )
          .max(1000),
      })
      .loose()
      .nullish(),
  })
  .loose();

/** A succeeded charge: its card network and Radar's risk level (either may be absent). */
const succeededCharge = z
  .object({
    id,
    payment_intent: ref.nullish(),
    amount: minor,
    currency,
    created: z.number().int().min(0).max(1e11).nullish(),
    outcome: z.object({ risk_level: word.nullish() }).loose().nullish(),
    payment_method_details: z
      .object({ card: z.object({ brand: word.nullish() }).loose().nullish() })
      .loose()
      .nullish(),
  })
  .loose();

/** A succeeded payment intent: its latest charge, expanded or by id. */
const succeededIntent = z
  .object({
    id,
    amount: minor,
    currency,
    created: z.number().int().min(0).max(1e11).nullish(),
    latest_charge: z.union([id, succeededCharge]).nullish(),
  })
  .loose();

const fraudWarning = z.object({ id, charge: ref, payment_intent: ref.nullish(), fraud_type: word }).loose();

const OBJECTS: Record<string, z.ZodType> = {
  'charge.dispute.created': dispute,
  'charge.dispute.updated': dispute,
  'charge.dispute.closed': dispute,
  'charge.refunded': charge,
  'radar.early_fraud_warning.created': fraudWarning,
  'charge.succeeded': succeededCharge,
  'payment_intent.succeeded': succeededIntent,
};

/** Why the event cannot be applied (its id, type or the object the product reads), or null. */
export function stripeEventShapeError(e: Stripe.Event): string | null {
  const outer = event.safeParse(e);
  if (!outer.success) return describe(outer.error);
  const schema = OBJECTS[e.type];
  if (!schema) return null;
  const inner = schema.safeParse(e.data.object);
  return inner.success ? null : describe(inner.error, 'data.object.');
}

function describe(error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0];
  return issue ? `${prefix}${issue.path.join('.') || 'body'} ${issue.message}` : 'malformed';
}
