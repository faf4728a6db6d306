import { z } from 'zod';
import { STORED_REFUND_REASONS } from '../refund-reasons.js';
import { periodSchema } from './period.js';
import { REPORT_LIMIT } from './reports.js';

/** The finance report's grouping: service-time-zone days or months. */
export const FINANCE_GROUPS = ['day', 'month'] as const;

/** `GET /api/admin/reports/finance?from&to&group` (and `/export`, CSV): days in the service time zone, both included. */
export const financeQuery = periodSchema(REPORT_LIMIT).safeExtend({
  group: z.enum(FINANCE_GROUPS).default('month'),
});
export type FinanceQuery = z.infer<typeof financeQuery>;

const cents = z.number().int();

/**
 * The figures of the finance report whose orders can be listed: each sums, per order, the synced
 * transactions (or the submitted orders) behind it. Paid orders list with gross, submitted orders with
 * government fees, provider net and net per order with net.
 */
export const FINANCE_FIGURES = [
  'gross',
  'providerFees',
  'governmentFees',
  'refunds',
  'disputes',
  'disputeFees',
  'wonBack',
  'other',
  'net',
] as const;
export type FinanceFigure = (typeof FINANCE_FIGURES)[number];

/** The reasons a refunds figure is split by: the stored reasons and `unmatched` (no order found). */
export const FINANCE_REFUND_REASONS = [...STORED_REFUND_REASONS, 'unmatched'] as const;

/**
 * `GET /api/admin/reports/finance/orders?from&to&figure[&reason][&limit]`: the orders behind one figure
 * of the report over days of the service time zone (a period's or the whole range's).
 */
export const financeOrdersQuery = periodSchema(REPORT_LIMIT)
  .safeExtend({
    figure: z.enum(FINANCE_FIGURES, { error: `must be one of ${FINANCE_FIGURES.join(', ')}` }),
    reason: z
      .enum(FINANCE_REFUND_REASONS, { error: `must be one of ${FINANCE_REFUND_REASONS.join(', ')}` })
      .optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(500),
  })
  .superRefine((v, issues) => {
    if (v.reason && v.figure !== 'refunds') {
      issues.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'a reason goes with the refunds figure only',
      });
    }
  });
export type FinanceOrdersQuery = z.infer<typeof financeOrdersQuery>;

/** One period (or the totals) of the finance report, USD, integer cents. */
export const financeRow = z.object({
  period: z.string(),
  paidOrders: z.number().int(),
  gross: cents,
  providerFees: cents,
  submittedOrders: z.number().int(),
  governmentFees: cents,
  refunds: cents,
  refundsByReason: z.record(z.string(), cents),
  disputes: z.object({ count: z.number().int(), amount: cents, fees: cents, wonBack: cents }),
  /** Adjustments that are neither refunds nor disputes. */
  other: cents,
  /** What the provider paid out for the period: the sum of the synced balance transactions' net. */
  providerNet: cents,
  /** providerNet minus the government fees. */
  net: cents,
  netPerOrder: cents.nullable(),
});
export type FinanceRow = z.infer<typeof financeRow>;

export const financeAnswer = z.object({
  currency: z.literal('USD'),
  group: z.enum(FINANCE_GROUPS),
  from: z.string(),
  to: z.string(),
  govFeeCents: z.number().int(),
  periods: z.array(financeRow),
  totals: financeRow,
  /** Balance transactions in other currencies, listed apart and never summed with USD. */
  otherCurrencies: z.array(
    z.object({
      currency: z.string(),
      transactions: z.number().int(),
      amount: cents,
      fees: cents,
      net: cents,
    }),
  ),
  /** Synced transactions of the range not matched to an order. */
  unmatched: z.number().int(),
});
export type FinanceAnswer = z.infer<typeof financeAnswer>;

export const payoutSyncAnswer = z.object({
  payouts: z.number().int(),
  transactions: z.number().int(),
  stored: z.number().int(),
  matched: z.number().int(),
  /** False when the run stopped at its bound: the next run (or the hourly job) carries on. */
  complete: z.boolean(),
});
export type PayoutSyncAnswer = z.infer<typeof payoutSyncAnswer>;

export const unmatchedQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(500).default(100) })
  .strict();

export const unmatchedTransaction = z.object({
  transactionId: z.string(),
  payoutId: z.string(),
  type: z.string(),
  reportingCategory: z.string().nullable(),
  amount: cents,
  fee: cents,
  net: cents,
  currency: z.string(),
  sourceId: z.string().nullable(),
  occurredAt: z.string(),
});
export type UnmatchedTransaction = z.infer<typeof unmatchedTransaction>;

/** One order behind a figure: its share of the figure in cents and how many entries make it. */
export const financeOrder = z.object({
  orderId: z.number().int(),
  name: z.string(),
  status: z.string(),
  /** Transactions (or, for government fees, submissions) behind the amount. */
  entries: z.number().int(),
  amount: z.number().int(),
});
export type FinanceOrder = z.infer<typeof financeOrder>;

export const financeOrdersAnswer = z.object({
  figure: z.enum(FINANCE_FIGURES),
  reason: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  /** Largest amounts first, at most `limit`; `orderCount` and `orderTotal` cover them all. */
  orders: z.array(financeOrder),
  orderCount: z.number().int(),
  orderTotal: z.number().int(),
  /** The part of the figure from synced transactions no order was found for. */
  unmatched: z.object({ entries: z.number().int(), amount: z.number().int() }),
  /** orderTotal + unmatched.amount: the figure of the report for the same days. */
  figureTotal: z.number().int(),
});
export type FinanceOrdersAnswer = z.infer<typeof financeOrdersAnswer>;
