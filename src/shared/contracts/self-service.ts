import { z } from 'zod';
import { CUSTOMER_LANGUAGES } from '../languages.js';
import { CUSTOMER_STAGES } from '../customer-stage.js';
import { intakeOrderBody } from './intake.js';
import { CUSTOMER_EDITABLE_FIELDS, type CustomerEditableField } from '../self-service-fields.js';

export { CUSTOMER_EDITABLE_FIELDS, type CustomerEditableField };
import { envelope, multilineText, text } from './common.js';

/**
 * Customers help themselves on the track page (docs/product.md, "Customers help themselves"): correct
 * their details and cancel before submission, rate the order, read the answers of their stage.
 */

/** The fields validated as at intake (and as for staff corrections). */
export const customerFields = intakeOrderBody
  .pick(
    Object.fromEntries(CUSTOMER_EDITABLE_FIELDS.map((f) => [f, true])) as Record<CustomerEditableField, true>,
  )
  .partial()
  .strict();

const version = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be 1 or more')
  .max(2_147_483_647, 'is too large');
const language = z.enum(CUSTOMER_LANGUAGES).optional();

/**
 * PATCH /api/customer/orders/{id}: the fields are checked by the route against `customerFields`, so that
 * a refused field is named in the customer's language.
 */
export const customerCorrectionBody = z
  .object({
    expectedVersion: version,
    fields: z.record(z.string().max(40), z.unknown()),
    lang: language,
  })
  .strict();

export const customerCorrectionAnswer = envelope(
  z.object({
    version: z.number().int(),
    changes: z.array(z.object({ field: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
  }),
);

/** What the track page shows and edits: the current values and whether they may change now. */
export const selfServiceState = z.object({
  orderId: z.number().int(),
  version: z.number().int(),
  editable: z.boolean(),
  cancellable: z.boolean(),
  fields: z.record(z.string(), z.string().nullable()),
  /** The cancellation policy's text in the customer's language, with the amount a cancel refunds now. */
  cancellation: z
    .object({ percent: z.number().int(), amount: z.string(), policyText: z.string() })
    .nullable(),
  cancelled: z
    .object({ percent: z.number().int(), amount: z.string(), outcome: z.enum(['refunded', 'refunds']) })
    .nullable(),
  /** The question "How did we do?" once the card was sent; the current rating when there is one. */
  rating: z.object({ asked: z.boolean(), score: z.number().int().nullable(), comment: z.string() }),
  /** Up to five answers for the order's stage. */
  answers: z.array(z.string()),
});
export const selfServiceResponse = envelope(selfServiceState);

export const customerCancelBody = z
  .object({
    reason: multilineText(1000).pipe(z.string().min(1, 'is required')),
    expectedVersion: version,
    lang: language,
  })
  .strict();
export const customerCancelAnswer = envelope(
  z.object({
    percent: z.number().int(),
    amount: z.string(),
    outcome: z.enum(['refunded', 'refunds']),
    replayed: z.boolean(),
  }),
);

/** The ladder of customer cancellations (PUT /api/admin/cancellation-policy, Admin). */
export const cancellationPolicy = z
  .object({
    /** Refunded while the order is New and nobody has worked on it. */
    untouchedPercent: z.number().int().min(0).max(100),
    /** Refunded once someone worked on it (a remark, a hold, a mail beyond the confirmation). */
    workedOnPercent: z.number().int().min(0).max(100),
  })
  .strict();
export type CancellationPolicy = z.infer<typeof cancellationPolicy>;
export const DEFAULT_CANCELLATION_POLICY: CancellationPolicy = { untouchedPercent: 100, workedOnPercent: 75 };
export const cancellationPolicyResponse = envelope(cancellationPolicy);

export const FEEDBACK_MAX_MINUTES = 10_080;
export const feedbackPolicy = z
  .object({
    askAfterMinutes: z.number().int().min(0).max(FEEDBACK_MAX_MINUTES),
    enabled: z.boolean(),
  })
  .strict();
export type FeedbackPolicy = z.infer<typeof feedbackPolicy>;
export const DEFAULT_FEEDBACK_POLICY: FeedbackPolicy = { askAfterMinutes: 1440, enabled: true };
export const feedbackPolicyResponse = envelope(feedbackPolicy);

/** POST /api/customer/orders/{id}/rating: with the customer token, or with the mail's signed link. */
export const ratingBody = z
  .object({
    score: z.number().int().min(1, 'must be 1 to 5').max(5, 'must be 1 to 5'),
    comment: multilineText(2000).optional(),
    /** The signed link of the feedback mail (instead of the customer token). */
    signature: z.string().max(200).optional(),
  })
  .strict();
export const ratingAnswer = envelope(z.object({ score: z.number().int(), comment: z.string() }));

/** Up to five short answers per stage, in each customer language (text only). */
export const MAX_STAGE_ANSWERS = 5;
const answerText = text(300).pipe(
  z
    .string()
    .min(1, 'is required')
    .refine((v) => !/[<>]/.test(v), 'must be text only (no HTML)'),
);
/** One answer: the stage it is shown on, its English text and its translations (English where one lacks). */
export const trackPageAnswer = z
  .object({
    stage: z.enum(CUSTOMER_STAGES),
    en: answerText,
    es: answerText.optional(),
    nl: answerText.optional(),
    pap: answerText.optional(),
    pt: answerText.optional(),
  })
  .strict();
export const trackPageAnswers = z
  .object({
    answers: z
      .array(trackPageAnswer)
      .max(CUSTOMER_STAGES.length * MAX_STAGE_ANSWERS)
      .refine(
        (list) => CUSTOMER_STAGES.every((s) => list.filter((a) => a.stage === s).length <= MAX_STAGE_ANSWERS),
        `at most ${MAX_STAGE_ANSWERS} answers per stage`,
      ),
  })
  .strict();
export type TrackPageAnswers = z.infer<typeof trackPageAnswers>;
export const trackPageAnswersResponse = envelope(trackPageAnswers);

/** GET /api/admin/insights/ratings: the customers' ratings per week, the latest comments, per staff member. */
export const ratingInsightsQuery = z
  .object({ weeks: z.coerce.number().int().min(1).max(52).default(12) })
  .strict();
export const ratingInsights = z.object({
  weeks: z.array(
    z.object({
      /** The Monday the week starts on (service time). */
      week: z.string(),
      count: z.number().int(),
      /** Share of scores 4 and 5, 0–1 (null without ratings). */
      goodShare: z.number().nullable(),
      /** Ratings of the orders asked that week over the orders asked (null when none was asked). */
      responseRate: z.number().nullable(),
    }),
  ),
  comments: z.array(
    z.object({ orderId: z.number().int(), score: z.number().int(), comment: z.string(), at: z.string() }),
  ),
  staff: z.array(
    z.object({
      staffId: z.number().int().nullable(),
      name: z.string(),
      count: z.number().int(),
      average: z.number(),
      goodShare: z.number(),
    }),
  ),
});
export type RatingInsights = z.infer<typeof ratingInsights>;
