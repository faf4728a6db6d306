import dayjs from 'dayjs';
import { z } from 'zod';

/** What a period refuses, in the words the date fields of every period screen show. */
export const PERIOD_MSG = {
  fromRequired: 'Please select the From date.',
  toRequired: 'Please select the To date.',
  dateInvalid: 'must be a date (YYYY-MM-DD)',
  toBeforeFrom: 'The To date must be on or after the From date.',
} as const;

/** The longest a period may be: a number of days (both ends counted) or of calendar years. */
export type PeriodLimit = { days: number } | { years: number };

/** One end of a period: a real date written YYYY-MM-DD (spaces around it ignored). */
const periodDay = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(10, PERIOD_MSG.dateInvalid)
    .pipe(z.iso.date({ error: PERIOD_MSG.dateInvalid }));

/** Why the period from–to cannot be answered (To before From, longer than the limit), or null. */
function periodProblem(from: string, to: string, limit: PeriodLimit): string | null {
  if (to < from) return PERIOD_MSG.toBeforeFrom;
  if ('days' in limit)
    return dayjs(to).diff(dayjs(from), 'day') + 1 > limit.days
      ? `The period can be at most ${limit.days} days.`
      : null;
  return dayjs(to).isBefore(dayjs(from).add(limit.years, 'year'))
    ? null
    : `The range can be at most ${limit.years} years.`;
}

/**
 * The one period of the insights and the reports: two service-time-zone days, both included, To on or
 * after From and the whole no longer than `limit`; the problem is reported on the To field. The fields
 * are `from` and `to` unless `keys` names others (the older report bodies say fromDate and toDate).
 * Nothing else is accepted beside them; a query with more fields extends it (safeExtend keeps the rule).
 */
export function periodSchema<F extends string = 'from', T extends string = 'to'>(
  limit: PeriodLimit,
  keys: { from: F; to: T } = { from: 'from', to: 'to' } as { from: F; to: T },
) {
  const shape = {
    [keys.from]: periodDay(PERIOD_MSG.fromRequired),
    [keys.to]: periodDay(PERIOD_MSG.toRequired),
  } as Record<F | T, ReturnType<typeof periodDay>>;
  return z
    .object(shape)
    .strict()
    .superRefine((value, issues) => {
      const days = value as Record<string, string>;
      const problem = periodProblem(days[keys.from]!, days[keys.to]!, limit);
      if (problem) issues.addIssue({ code: 'custom', path: [keys.to], message: problem });
    });
}
