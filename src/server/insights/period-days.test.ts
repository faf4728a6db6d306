import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { periodDays } from './queries.js';

/** The list of calendar days the old dayjs loop built, kept here as the reference. */
function dayjsDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = dayjs(from); !d.isAfter(dayjs(to)); d = d.add(1, 'day')) days.push(d.format('YYYY-MM-DD'));
  return days;
}

describe('periodDays', () => {
  it('lists every calendar day once, across daylight-saving changes, leap days and year ends', () => {
    const periods: [string, string][] = [
      ['2026-03-01', '2026-03-31'], // New York springs forward on 8 March
      ['2026-10-25', '2026-11-10'], // and falls back on 1 November
      ['2028-02-27', '2028-03-02'], // a leap day
      ['2026-12-30', '2027-01-02'],
      ['2026-01-01', '2026-12-31'],
      ['2026-05-05', '2026-05-05'],
    ];
    for (const [from, to] of periods)
      expect(periodDays(from, to), `${from}..${to}`).toEqual(dayjsDays(from, to));
    expect(periodDays('2026-01-01', '2026-12-31')).toHaveLength(365);
    expect(periodDays('2028-01-01', '2028-12-31')).toHaveLength(366);
  });

  it('is empty when the period ends before it starts', () => {
    expect(periodDays('2026-05-06', '2026-05-05')).toEqual([]);
  });
});
