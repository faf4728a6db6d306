import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { SERVICE_TIME_ZONE } from './constants.js';

dayjs.extend(utc);
dayjs.extend(timezone);

type DateInput = string | number | Date | null | undefined;

function valid(value: DateInput): dayjs.Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const d = dayjs.utc(value);
  return d.isValid() ? d : null;
}

/** Arrival and other calendar dates in lists: DD/MM/YYYY (docs/product.md, "Dates and times"). */
export function formatDate(value: DateInput): string {
  return valid(value)?.format('DD/MM/YYYY') ?? '';
}

/** List date-time in UTC, DD/MM/YYYY HH:mm:ss (24-hour clock, decision 001). */
export function formatUtcDateTime(value: DateInput): string {
  return valid(value)?.format('DD/MM/YYYY HH:mm:ss') ?? '';
}

/** History tables in US Eastern time, MM-DD-YYYY h:mm:ss A, without the zone label. */
export function formatEstDateTime(value: DateInput): string {
  return valid(value)?.tz(SERVICE_TIME_ZONE).format('MM-DD-YYYY h:mm:ss A') ?? '';
}

/** The US Eastern label of that moment: EDT while daylight saving time is on (UTC-4), else EST. */
export function easternZoneLabel(value: DateInput): 'EST' | 'EDT' | '' {
  const d = valid(value)?.tz(SERVICE_TIME_ZONE);
  if (!d) return '';
  return d.utcOffset() === -240 ? 'EDT' : 'EST';
}

/** A history time with its label, e.g. "07-15-2026 1:00:00 PM EDT" or "01-15-2026 12:00:00 PM EST". */
export function formatEasternDateTime(value: DateInput): string {
  const time = formatEstDateTime(value);
  return time && `${time} ${easternZoneLabel(value)}`;
}

/**
 * The staff screens' one way to show a moment: day, month name, year, 24-hour time in US Eastern time
 * and its label by date, e.g. "18 Nov 2026 15:16 EST" or "15 Jul 2026 13:00 EDT".
 */
export function formatStaffDateTime(value: DateInput): string {
  const d = valid(value)?.tz(SERVICE_TIME_ZONE);
  return d ? `${d.format('D MMM YYYY HH:mm')} ${easternZoneLabel(value)}` : '';
}

/** The same moment as a full ISO 8601 instant in UTC (shown on hover beside the short form). */
export function formatIsoInstant(value: DateInput): string {
  return valid(value)?.toISOString() ?? '';
}

/** A calendar date with the month named, e.g. "18 Nov 2026" (pickers and labels of the staff screens). */
export function formatStaffDate(value: DateInput): string {
  return valid(value)?.format('D MMM YYYY') ?? '';
}

/** Long calendar date, DD/MMMM/YYYY. */
export function formatLongDate(value: DateInput): string {
  return valid(value)?.format('DD/MMMM/YYYY') ?? '';
}

/** us_date / us_time of a remark: the moment in US Eastern time (the remark list). */
export function usDateTime(value: DateInput): { us_date: string; us_time: string } {
  const d = valid(value)?.tz(SERVICE_TIME_ZONE);
  return { us_date: d?.format('MM-DD-YYYY') ?? '', us_time: d?.format('h:mm:ss A') ?? '' };
}

/** A moment in service time as the staff read it: MM/DD/YYYY at HH:mm (e.g. "12/03/2026 at 09:00"). */
export function formatServiceMoment(value: DateInput): string {
  return valid(value)?.tz(SERVICE_TIME_ZONE).format('MM/DD/YYYY [at] HH:mm') ?? '';
}

/** Today's calendar date (YYYY-MM-DD) in the service time zone. */
export function serviceToday(now: Date = new Date()): string {
  const t = now.getTime();
  if (t >= today.from && t < today.until) return today.day;
  const parts = Object.fromEntries(dayFormat.formatToParts(now).map((p) => [p.type, p.value]));
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  // A service day starts on a whole minute, so the answer holds for the rest of this minute. (Every
  // request asks: converting time zones each time was a fifth of a cached list page's CPU.)
  const minute = t - (((t % 60_000) + 60_000) % 60_000);
  today = { from: minute, until: minute + 60_000, day };
  return day;
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: SERVICE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
let today = { from: 0, until: 0, day: '' };

/** Start of a calendar day in the service time zone, as an instant. */
export function serviceDayStart(day: string): Date {
  return dayjs.tz(day, SERVICE_TIME_ZONE).toDate();
}

/** A day (YYYY-MM-DD) and a time (HH:mm) in the service time zone as an ISO instant; null if either is no value. */
export function serviceZoneInstant(day: string, time: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const d = dayjs.tz(`${day} ${time}`, 'YYYY-MM-DD HH:mm', SERVICE_TIME_ZONE);
  return d.isValid() ? d.toISOString() : null;
}
