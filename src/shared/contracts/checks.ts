import { z } from 'zod';
import { governmentReferenceField } from './submission.js';
import { ORDER_STATUSES } from '../constants.js';
import { CHECK_CODES, CHECK_SEVERITIES, DUPLICATE_DECISIONS } from '../check-codes.js';
import { orderIdField } from './common.js';
import { intakeOrderBody } from './intake.js';

/** One failing check of an order, with its message (docs/product.md, "Order checks"). */
export const orderCheckItem = z.object({
  code: z.enum(CHECK_CODES),
  severity: z.enum(CHECK_SEVERITIES),
  message: z.string(),
  fields: z.array(z.string()),
  /** The address the e-mail typo check suggests (its "apply" fills both address fields). */
  suggestion: z.string().optional(),
});
export type OrderCheckItem = z.infer<typeof orderCheckItem>;

/** A possible duplicate, with what the side-by-side view shows of it. */
export const duplicateCandidate = z.object({
  order_id: z.number().int(),
  /** Which rule matched: the same passport and nationality, or the same e-mail and traveller. */
  rule: z.enum(['passport', 'email']),
  /** 'duplicate' when staff linked the two; undecided: null ('not_duplicate' pairs are not listed). */
  decision: z.enum(DUPLICATE_DECISIONS).nullable(),
  /** The fields that hold the same value on both orders. */
  matching_fields: z.array(z.string()),
  process_status: z.enum(ORDER_STATUSES),
  amount: z.string(),
  currency: z.string(),
  transaction_id: z.string().nullable(),
  merchant_name: z.string().nullable(),
  created_at: z.string(),
  email: z.string(),
  passport_number: z.string().nullable(),
  nationality: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string().nullable(),
  arrival_date: z.string().nullable(),
  departure_date: z.string().nullable(),
});
export type DuplicateCandidate = z.infer<typeof duplicateCandidate>;

/** GET /api/admin/orders/{id}/checks, and the `checks` part of the detail answer. */
export const orderChecksAnswer = z.object({
  checks: z.array(orderCheckItem),
  duplicates: z.array(duplicateCandidate),
});
export type OrderChecksAnswer = z.infer<typeof orderChecksAnswer>;

export const duplicateDecisionBody = z
  .object({
    otherOrderId: orderIdField,
    decision: z.enum(DUPLICATE_DECISIONS, { error: `must be ${DUPLICATE_DECISIONS.join(' or ')}` }),
  })
  .strict();
export type DuplicateDecisionBody = z.infer<typeof duplicateDecisionBody>;

/** The traveller and trip fields staff may correct (every intake field but the payment and the site's). */
export const CORRECTABLE_FIELDS = [
  'email',
  're_enter_email',
  'first_name',
  'last_name',
  'date_of_birth',
  'sex',
  'nationality',
  'country_of_birth',
  'passport_number',
  'passport_expiration',
  'dual_citizenship',
  'arrival_date',
  'departure_date',
  'country_of_departure',
  'travel_mode',
  'airline',
  'flight_number',
  'vessel_name',
  'country_of_residence',
  'zip_code',
  'state',
  'city',
  'address',
  'residence_number',
  'resident_check',
  'occupation',
  'purpose_of_visit',
  'phone_code',
  'telephone_number',
  'prior_visits',
  'place_of_stay',
  'name_of_place_of_stay',
  'other_hotel_name',
  'local_address',
  'house_number',
] as const;
export type CorrectableField = (typeof CORRECTABLE_FIELDS)[number];

const correctable = intakeOrderBody.pick(
  Object.fromEntries(CORRECTABLE_FIELDS.map((f) => [f, true])) as Record<CorrectableField, true>,
);

/**
 * PATCH /api/admin/orders/{id}: the changed fields (validated as at intake) and the version the client
 * saw (required: a correction never overwrites a change it has not seen).
 */
export const correctOrderBody = correctable
  .partial()
  .extend({
    expectedVersion: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .positive('must be 1 or more')
      .max(2_147_483_647, 'is too large'),
    /** The government's reference of an order submitted without one (docs/product.md, "Submitting to the government"). */
    governmentReference: governmentReferenceField.optional(),
  })
  .strict()
  .refine((v) => v.governmentReference !== undefined || CORRECTABLE_FIELDS.some((f) => v[f] !== undefined), {
    message: 'Change at least one field.',
  });
export type CorrectOrderBody = z.infer<typeof correctOrderBody>;

/** Each changed field with its old and new value (the correction's event and audit entry). */
export const fieldChange = z.object({
  field: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type FieldChange = z.infer<typeof fieldChange>;

export const correctOrderAnswer = orderChecksAnswer.extend({
  version: z.number().int(),
  changes: z.array(fieldChange),
});
