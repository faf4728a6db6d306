import { z } from 'zod';
import { type WeekHours, weekHours } from './routing.js';

/** The most holidays one calendar keeps (a few years of them). */
export const MAX_HOLIDAYS = 400;
/** The largest iCalendar file imported (its holidays are read on the request: small by nature). */
export const MAX_ICAL_BYTES = 256 * 1024;

const day = z
  .string({ error: 'must be a date (YYYY-MM-DD)' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be a date (YYYY-MM-DD)');

/**
 * The working-hours calendar (GET/PUT /api/admin/working-hours, Admin): the weekly opening hours in the
 * service time zone and the holidays. Due-time rules with `clock: "working"` and the idle release count
 * only these hours.
 */
export const workingHours = z
  .object({
    week: weekHours,
    holidays: z.array(day).max(MAX_HOLIDAYS, `at most ${MAX_HOLIDAYS} holidays`),
  })
  .strict();
export type WorkingHours = { week: WeekHours; holidays: string[] };

/** PUT: the calendar, and optionally an iCalendar file whose events' days become holidays too. */
export const workingHoursBody = workingHours
  .extend({
    ical: z
      .string({ error: 'must be the text of an iCalendar file' })
      .max(MAX_ICAL_BYTES, 'the iCalendar file is too large (256 KB at most)')
      .optional(),
  })
  .strict();

export const workingHoursAnswer = workingHours.extend({
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});

const OFFICE: [string, string][] = [['09:00', '17:00']];
/** Without a saved calendar: Monday to Friday 09:00–17:00, no holidays (as drizzle/0088 assumes). */
export const DEFAULT_WORKING_HOURS: WorkingHours = {
  week: { mon: OFFICE, tue: OFFICE, wed: OFFICE, thu: OFFICE, fri: OFFICE, sat: [], sun: [] },
  holidays: [],
};
