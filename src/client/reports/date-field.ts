import dayjs from 'dayjs';
import { formatStaffDate } from '../../shared/dates';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Reads a date typed day first, as the staff screens show it: "18 Nov 2026", "18 November 2026",
 * "18/11/2026", "18-11-2026", or the ISO "2026-11-18". Answers YYYY-MM-DD, or null when it is no real date.
 */
export function parseDayFirstDate(text: string): string | null {
  const t = text.trim();
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const dayFirst = /^(\d{1,2})[\s/.-]+([A-Za-z]+|\d{1,2})[\s/.,-]+(\d{4})$/.exec(t);
  if (iso) {
    [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else if (dayFirst) {
    const month = dayFirst[2]!;
    d = Number(dayFirst[1]);
    y = Number(dayFirst[3]);
    if (/^\d+$/.test(month)) m = Number(month);
    else {
      const name = month.toLowerCase();
      m = name.length >= 3 ? MONTHS.findIndex((mm) => name.startsWith(mm)) + 1 : 0;
    }
  } else {
    return null;
  }
  const out = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const parsed = dayjs(out, 'YYYY-MM-DD');
  return m >= 1 && m <= 12 && parsed.isValid() && parsed.format('YYYY-MM-DD') === out ? out : null;
}

/** How a YYYY-MM-DD value shows in the field: "18 Nov 2026" (anything else as it is). */
export function showDayFirstDate(value: string): string {
  return parseDayFirstDate(value) ? formatStaffDate(value) : value;
}
