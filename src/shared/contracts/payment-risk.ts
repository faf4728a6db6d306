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
