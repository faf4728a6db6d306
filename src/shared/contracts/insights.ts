import { z } from 'zod';
import { periodSchema } from './period.js';
import { paymentInsights } from './payments.js';

/** Longest period the insights answer for: one year and a day (a leap year, or a year with both ends). */
export const MAX_INSIGHTS_DAYS = 366;

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD`: service-time-zone days, both included (the one period schema). */
export const insightsQuery = periodSchema({ days: MAX_INSIGHTS_DAYS });
export type InsightsQuery = z.infer<typeof insightsQuery>;

/** Age buckets of the open orders, measured from payment (the order's creation) to now. */
export const BACKLOG_BUCKETS = [
  { key: 'lt24h', label: '< 24 h' },
  { key: 'd1to3', label: '1–3 d' },
  { key: 'd3to7', label: '3–7 d' },
  { key: 'gt7d', label: '> 7 d' },
] as const;
export type BacklogBucket = (typeof BACKLOG_BUCKETS)[number]['key'];

/**
 * Folders the open orders are split into, each order exactly once: a New order with a processing date
 * after today is Future; else assigned → Pending; else Priority or New by mode. Other statuses by status.
 */
export const BACKLOG_FOLDERS = [
  { key: 'newOrder', label: 'New Orders' },
  { key: 'priorityOrder', label: 'Priority Orders' },
  { key: 'pendingOrder', label: 'Pending Orders' },
  { key: 'futureOrder', label: 'Future Orders' },
  { key: 'awaitingOrder', label: 'Awaiting Response' },
  { key: 'awaitingGovtOrder', label: 'Awaiting Govt' },
  { key: 'customerCalledOrder', label: 'Customer Called' },
  { key: 'contactCustomerOrder', label: 'Contact Customer' },
  { key: 'refundOrder', label: 'Refunds' },
  { key: 'chargeBack', label: 'ChargeBack' },
] as const;
export type BacklogFolder = (typeof BACKLOG_FOLDERS)[number]['key'];

const int = z.number().int();
const hours = int.nullable();
const share = z.number().nullable();

const bucketCounts = z.object({ lt24h: int, d1to3: int, d3to7: int, gt7d: int, total: int });

export const insightsData = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  /** The instant "now" for the backlog ages. */
  asOf: z.string(),
  backlog: z.object({
    total: bucketCounts,
    folders: z.array(bucketCounts.extend({ folder: z.string(), label: z.string() })),
  }),
  throughput: z.array(
    z.object({ day: z.string(), received: int, completed: int, refunded: int, deleted: int }),
  ),
  /** Whole hours (rounded down) from payment to Completed; percentiles are nearest-rank. */
  timeToComplete: z.object({
    overall: z.object({ completed: int, medianHours: hours, p90Hours: hours }),
    days: z.array(z.object({ day: z.string(), completed: int, medianHours: hours, p90Hours: hours })),
  }),
  perStaff: z.array(
    z.object({
      staffId: int,
      name: z.string(),
      completed: int,
      statusMoves: int,
      remarks: int,
      handled: int,
      medianHandlingHours: hours,
      /** Orders assigned to them in the period (by themselves, someone else or routing). */
      assigned: int,
      /** Median minutes from an assignment to their first own action on that order (null: none yet). */
      medianFirstActionMinutes: z.number().nullable(),
      /** Their completions with a due time, and the share of those done within it (null: none). */
      completedWithDue: int,
      onTimeShare: z.number().nullable(),
    }),
  ),
  /**
   * Completions on time, per completion day: `completed` counts the moves to Completed of orders that had
   * a due time at that moment, `withinTarget` those at or before it, `share` = withinTarget / completed.
   * Completions without a due time (mode without a policy, or completed from Refunded/Deleted) are not in
   * the share; `withoutDue` counts them.
   */
  onTime: z.object({
    overall: z.object({ completed: int, withinTarget: int, withoutDue: int, share }),
    days: z.array(z.object({ day: z.string(), completed: int, withinTarget: int, withoutDue: int, share })),
  }),
  chargebacks: z.object({
    overall: z.object({ chargebacks: int, completed: int, share }),
    days: z.array(z.object({ day: z.string(), chargebacks: int, completed: int, share })),
  }),
  /** `failed` includes `bounced`: mails sent whose delivery report said they did not arrive. */
  mail: z.array(
    z.object({ day: z.string(), provider: z.string(), sent: int, failed: int, pending: int, bounced: int }),
  ),
  /** Disputes and refunds through the payment providers (src/server/payments). */
  payments: paymentInsights.optional(),
  /** The disputes of the period (opened, won, lost, amounts): the same as `payments.disputes`. */
  disputes: paymentInsights.shape.disputes.optional(),
});
export type InsightsData = z.infer<typeof insightsData>;

/** The "My day" card: the caller's completions today (service day) and their open assigned orders. */
export const myDayData = z.object({ day: z.string(), completedToday: int, openAssigned: int });
export type MyDayData = z.infer<typeof myDayData>;

/** Nearest-rank percentile position (1-based) of fraction num/den among n values: ceil(n·num/den). */
export function percentileRank(n: number, num: number, den: number): number {
  return Math.max(1, Math.floor((n * num + den - 1) / den));
}
