import { z } from 'zod';
import { PROCESSING_MODES } from '../constants.js';

/**
 * Where an open order stands against its due time. Closed orders (Completed, Refunded, Deleted) have none.
 * `paused`: it waits on someone else (Awaiting, AwaitingGovt, Refunds, ChargeBack: the trigger of migration
 * 0050_due_clock_pause), its clock stands still; `trip_passed`: it is still
 * worked but its arrival day is over — its own state, never counted late (docs/decisions/316).
 */
export const DUE_STATES = ['on_track', 'at_risk', 'breached', 'paused', 'trip_passed'] as const;

export type DueState = (typeof DUE_STATES)[number];

/** How a rule counts its hours (docs/product.md, "Working hours"). */
export const DUE_CLOCKS = ['calendar', 'working'] as const;

/** Up to a year, in whole hours. */
const hours = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number of hours')
  .min(0, 'must be 0 or more')
  .max(8760, 'can be at most 8760 hours (a year)');

/** One processing mode's limits: hours from payment, and hours before the arrival day begins. */
export const dueTimeModePolicy = z
  .object({
    fromPaymentHours: hours.refine((h) => h >= 1, 'must be 1 or more'),
    beforeArrivalHours: hours,
    /**
     * How the hours from payment are counted: `calendar` (every hour) or `working` (only the working
     * hours of the calendar, GET/PUT /api/admin/working-hours). The arrival limit is always calendar time.
     */
    clock: z.enum(DUE_CLOCKS, { error: 'must be calendar or working' }).default('calendar'),
  })
  .strict();
export type DueTimeModePolicy = z.infer<typeof dueTimeModePolicy>;

/**
 * The customer answer's own target: a verified answer from the customer makes its open order due within
 * `hours` of the answer (counted as `clock` says), unless the order was due sooner anyway. The target
 * holds until the order's next move.
 */
export const customerAnswerRule = z
  .object({
    hours: hours.refine((h) => h >= 1, 'must be 1 or more'),
    clock: z.enum(DUE_CLOCKS, { error: 'must be calendar or working' }).default('calendar'),
  })
  .strict();
export type CustomerAnswerRule = z.infer<typeof customerAnswerRule>;

/**
 * The due-time policy: one entry per processing mode, and the margin under which an open order is
 * "at risk". An order is due at the earlier of (payment + fromPaymentHours) and (start of the arrival
 * day in service time − beforeArrivalHours); payment counts from the processing date when that is later.
 */
export const dueTimePolicy = z
  .object({
    modes: z
      .object(
        Object.fromEntries(PROCESSING_MODES.map((m) => [m, dueTimeModePolicy])) as Record<
          (typeof PROCESSING_MODES)[number],
          typeof dueTimeModePolicy
        >,
      )
      .strict(),
    atRiskMarginHours: hours.refine((h) => h >= 1, 'must be 1 or more'),
    /** The customer answer's target; null (or left out): an answer keeps the order's due time. */
    customerAnswer: customerAnswerRule.nullable().default(null),
  })
  .strict();
export type DueTimePolicy = z.infer<typeof dueTimePolicy>;
/** A policy as given (each rule's clock, and the customer answer's rule, may be left out). */
export type DueTimePolicyInput = z.input<typeof dueTimePolicy>;

export const DEFAULT_DUE_TIME_POLICY: DueTimePolicy = {
  modes: {
    Standard: { fromPaymentHours: 72, beforeArrivalHours: 24, clock: 'calendar' },
    Priority: { fromPaymentHours: 24, beforeArrivalHours: 24, clock: 'calendar' },
  },
  atRiskMarginHours: 12,
  customerAnswer: null,
};

export const dueTimePolicyAnswer = dueTimePolicy.extend({
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
