import { z } from 'zod';
import { envelope, multilineText } from './common.js';

/**
 * The payment policy and acting on payment risk (docs/product.md, "Fraud warnings and risk", "Dispute
 * ratios"): the switch for refunding on an early fraud warning, and the thresholds of the dispute bands.
 */
/** The risk levels that hold an order before submission (Stripe Radar's outcome.risk_level). */
export const RISKY_LEVELS: readonly string[] = ['elevated', 'highest'];

export const paymentPolicy = z.object({
  autoRefundFraudWarnings: z.boolean(),
  disputeWatchPercent: z.number(),
  disputeExcessivePercent: z.number(),
});
export type PaymentPolicy = z.infer<typeof paymentPolicy>;

const percent = z
  .number({ error: 'must be a number (a percentage)' })
  .min(0.001, 'must be more than 0')
  .max(100, 'can be at most 100');

/** PUT /api/admin/payment-policy: any of the fields; the watch band stays below the excessive one. */
export const paymentPolicyBody = z
  .object({
    autoRefundFraudWarnings: z.boolean({ error: 'must be true or false' }).optional(),
    disputeWatchPercent: percent.optional(),
    disputeExcessivePercent: percent.optional(),
  })
  .strict();
export type PaymentPolicyBody = z.infer<typeof paymentPolicyBody>;
export const paymentPolicyResponse = envelope(paymentPolicy);

/** Why a risk hold is cleared or a fraud-warned payment is kept: a few words, kept in the audit log. */
export const riskReasonBody = z
  .object({
    reason: multilineText(500).pipe(z.string().min(3, 'Please say why in a few words')),
  })
  .strict();
export type RiskReasonBody = z.infer<typeof riskReasonBody>;

/** The answer of a risk action: what the order is now. */
export const riskActionResponse = envelope(
  z.object({
    orderId: z.number().int(),
    processStatus: z.string(),
    refundId: z.string().nullable().optional(),
  }),
);

/** GET /api/admin/insights/disputes?month=YYYY-MM (default: the current month in the service time zone). */
export const disputesQuery = z
  .object({
    month: z
      .string()
      .max(7, 'must be a month (YYYY-MM)')
      .regex(/^20\d\d-(0[1-9]|1[0-2])$/, 'must be a month (YYYY-MM)')
      .optional(),
  })
  .strict();

export const DISPUTE_BANDS = ['ok', 'watch', 'excessive'] as const;
export type DisputeBand = (typeof DISPUTE_BANDS)[number];
const band = z.enum(DISPUTE_BANDS);

/** The figures of one card network (or of all) for a month; money in cents (USD). */
export const networkDisputes = z.object({
  network: z.string(),
  settledCount: z.number().int(),
  settledCents: z.number().int(),
  previousSettledCount: z.number().int(),
  disputeCount: z.number().int(),
  disputeCents: z.number().int(),
  disputesByReason: z.record(z.string(), z.number().int()),
  fraudWarnings: z.number().int(),
  won: z.number().int(),
  lost: z.number().int(),
  feeCents: z.number().int(),
  /** (disputes + fraud warnings) / settled charges of the month, in percent; null without charges. */
  visaRatio: z.number().nullable(),
  visaBand: band,
  /** Disputes of the month / settled charges of the previous month, in percent; null without charges. */
  mastercardRatio: z.number().nullable(),
  mastercardBand: band,
});
export type NetworkDisputes = z.infer<typeof networkDisputes>;

export const disputesAnswer = z.object({
  month: z.string(),
  watchPercent: z.number(),
  excessivePercent: z.number(),
  networks: z.array(networkDisputes),
  total: networkDisputes,
  /** The worst band of the month over the networks and both ratios. */
  band,
  /** The 12 months up to `month`: both ratios over all networks, and the worst band. */
  history: z.array(
    z.object({
      month: z.string(),
      visaRatio: z.number().nullable(),
      mastercardRatio: z.number().nullable(),
      band,
    }),
  ),
});
export type DisputesAnswer = z.infer<typeof disputesAnswer>;
export const disputesResponse = envelope(disputesAnswer);
