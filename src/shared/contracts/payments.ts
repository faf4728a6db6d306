import { z } from 'zod';
import { REFUND_REASON_CODES, STORED_REFUND_REASONS } from '../refund-reasons.js';
import { envelope, text } from './common.js';

/** Submit (or save as a draft) the evidence of an order's open dispute at the payment provider. */
export const submitEvidenceBody = z
  .object({ submit: z.boolean({ error: 'must be true or false' }) })
  .strict();
export type SubmitEvidenceBody = z.infer<typeof submitEvidenceBody>;

export const submitEvidenceResponse = envelope(
  z.object({ disputeId: z.string(), status: z.string(), submitted: z.boolean(), at: z.string() }),
);

/** A partial refund: major units ("20.50"), at most two decimals. */
export const refundAmountField = z
  .union([z.number(), z.string().trim()], { error: 'must be an amount such as 20.50' })
  .transform((v) => String(v))
  .pipe(
    z
      .string()
      .regex(/^\d{1,8}(\.\d{1,2})?$/, 'must be an amount such as 20.50')
      .refine((v) => Number(v) > 0, 'must be more than 0'),
  );

export const REFUND_REASONS = ['requested_by_customer', 'duplicate'] as const;

/** The product's refund reason (docs/product.md, "Refund reasons"): a code, and a text for 'other'. */
export const refundReasonFields = {
  reasonCode: z
    .enum(REFUND_REASON_CODES, { error: `must be one of ${REFUND_REASON_CODES.join(', ')}` })
    .optional(),
  reasonText: text(300).optional(),
};

/** 'other' needs a text; a text goes only with 'other'. */
export function refundReasonProblem(v: { reasonCode?: string | undefined; reasonText?: string | undefined }) {
  if (v.reasonCode === 'other' && (v.reasonText ?? '').length < 3) {
    return 'reasonText: say why in a few words (at least 3 characters) for the reason other';
  }
  if (v.reasonText && v.reasonCode !== 'other') return 'reasonText: only with the reason other';
  return null;
}

/** A list filter by refund reason (Refunds and Completed Refunds). */
export const refundReasonFilter = z
  .enum(STORED_REFUND_REASONS, { error: `must be one of ${STORED_REFUND_REASONS.join(', ')}` })
  .optional();

/** A dispute as the order's Payment section shows it. Amounts are formatted ("59.00 USD"). */
export const paymentDispute = z.object({
  dispute_id: z.string(),
  status: z.string(),
  reason: z.string().nullable(),
  amount: z.string(),
  due_by: z.string().nullable(),
  evidence_saved_at: z.string().nullable(),
  evidence_submitted_at: z.string().nullable(),
  evidence_by: z.string().nullable(),
  closed_at: z.string().nullable(),
  created_at: z.string(),
  /** True while the provider takes evidence (needs response). */
  takes_evidence: z.boolean(),
});
export type PaymentDispute = z.infer<typeof paymentDispute>;

export const paymentRefund = z.object({
  refund_id: z.string().nullable(),
  amount: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed', 'unknown']),
  source: z.enum(['product', 'outside']),
  reason: z.string().nullable(),
  error: z.string().nullable(),
  requested_by: z.string().nullable(),
  created_at: z.string(),
});

/** How money moves for an order: the gateway, whether it is integrated (or why not), disputes, refunds. */
export const orderPayment = z.object({
  gateway: z.string().nullable(),
  integrated: z.boolean(),
  /** Why refunds and chargebacks of this order are handled by hand; null when integrated. */
  manual_reason: z.string().nullable(),
  disputes: z.array(paymentDispute),
  refunds: z.array(paymentRefund),
  /** Refunded through the provider so far and what is left of the payment ("20.00 USD"). */
  refunded_so_far: z.string(),
  remaining: z.string(),
  /** A refund whose provider answer is still awaited (it counts against the payment). */
  pending_refund: z.string().nullable(),
});
export type OrderPayment = z.infer<typeof orderPayment>;
export const orderPaymentResponse = envelope(orderPayment);

/** Insights: disputes opened, won and lost in the period, and refunds made through the provider. */
export const paymentInsights = z.object({
  disputes: z.object({
    opened: z.number().int(),
    won: z.number().int(),
    lost: z.number().int(),
    /** Per currency: amount disputed (opened in the period) and lost (closed lost in the period). */
    amounts: z.array(z.object({ currency: z.string(), disputed: z.string(), lost: z.string() })),
  }),
  refunds: z.object({
    throughProvider: z.number().int(),
    outside: z.number().int(),
    failed: z.number().int(),
    amounts: z.array(z.object({ currency: z.string(), refunded: z.string() })),
  }),
});
export type PaymentInsights = z.infer<typeof paymentInsights>;
