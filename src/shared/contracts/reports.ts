import dayjs from 'dayjs';
import { z } from 'zod';

/** Longest range a report may cover: three calendar years (decision 060). */
export const MAX_REPORT_YEARS = 3;

export const REPORT_MSG = {
  fromDateRequired: 'Please select the From date.',
  toDateRequired: 'Please select the To date.',
  dateInvalid: 'must be a date (YYYY-MM-DD)',
  toBeforeFrom: 'The To date must be on or after the From date.',
  rangeTooLong: `The range can be at most ${MAX_REPORT_YEARS} years.`,
} as const;

const reportDate = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .pipe(z.iso.date({ error: REPORT_MSG.dateInvalid }));

/**
 * Body of get-country-order-count and get-processed-by-count: calendar days, both included,
 * read in the service time zone. To on or after From; at most three years.
 */
export const reportRangeBody = z
  .object({
    fromDate: reportDate(REPORT_MSG.fromDateRequired),
    toDate: reportDate(REPORT_MSG.toDateRequired),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.toDate < v.fromDate) {
      ctx.addIssue({ code: 'custom', path: ['toDate'], message: REPORT_MSG.toBeforeFrom });
    } else if (!dayjs(v.toDate).isBefore(dayjs(v.fromDate).add(MAX_REPORT_YEARS, 'year'))) {
      ctx.addIssue({ code: 'custom', path: ['toDate'], message: REPORT_MSG.rangeTooLong });
    }
  });
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
