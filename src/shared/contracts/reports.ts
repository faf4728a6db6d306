import { z } from 'zod';
import { periodSchema } from './period.js';

/** Longest range a report may cover: three calendar years (decision 060). */
export const REPORT_LIMIT = { years: 3 } as const;

/**
 * Body of get-country-order-count and get-processed-by-count: calendar days, both included, read in the
 * service time zone. To on or after From; at most three years (the one period schema, under the names
 * these bodies have always had).
 */
export const reportRangeBody = periodSchema(REPORT_LIMIT, { from: 'fromDate', to: 'toDate' });
export type ReportRange = z.infer<typeof reportRangeBody>;

/** Country report row (decision 060). */
export const countryReportRow = z.object({
  nationality: z.string(),
  count: z.number().int(),
  standard_count: z.number().int(),
  priority_count: z.number().int(),
  future_count: z.number().int(),
});
export type CountryReportRow = z.infer<typeof countryReportRow>;

/** Processed-by report row (decision 060). */
export const processedByRow = z.object({
  processed_by: z.string(),
  count: z.number().int(),
});
export type ProcessedByRow = z.infer<typeof processedByRow>;
