import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { describe, expect, it } from 'vitest';
import {
  easternZoneLabel,
  formatDate,
  formatEasternDateTime,
  formatEstDateTime,
  formatLongDate,
  formatIsoInstant,
  formatStaffDate,
  formatStaffDateTime,
  formatUtcDateTime,
  serviceToday,
  usDateTime,
} from './dates.js';

describe('date formats', () => {
  it('formats calendar dates as DD/MM/YYYY', () => {
    expect(formatDate('2026-03-07')).toBe('07/03/2026');
    expect(formatDate(null)).toBe('');
    expect(formatDate('garbage')).toBe('');
  });
  it('formats list times in UTC', () => {
    expect(formatUtcDateTime('2026-03-07T23:04:05Z')).toBe('07/03/2026 23:04:05');
  });
  it('formats history times in US Eastern time (EST and EDT)', () => {
    expect(formatEstDateTime('2026-01-15T17:00:00Z')).toBe('01-15-2026 12:00:00 PM');
    expect(formatEstDateTime('2026-07-15T17:00:00Z')).toBe('07-15-2026 1:00:00 PM');
  });
  it('labels Eastern times EST or EDT by the date, switching at the daylight-saving changes', () => {
    expect(formatEasternDateTime('2026-01-15T17:00:00Z')).toBe('01-15-2026 12:00:00 PM EST');
    expect(formatEasternDateTime('2026-07-15T17:00:00Z')).toBe('07-15-2026 1:00:00 PM EDT');
    // 2026: EDT from Sunday 8 March 02:00 EST (07:00 UTC) to Sunday 1 November 02:00 EDT (06:00 UTC).
    expect(easternZoneLabel('2026-03-08T06:59:59Z')).toBe('EST');
    expect(easternZoneLabel('2026-03-08T07:00:00Z')).toBe('EDT');
    expect(easternZoneLabel('2026-11-01T05:59:59Z')).toBe('EDT');
    expect(easternZoneLabel('2026-11-01T06:00:00Z')).toBe('EST');
    expect(formatEasternDateTime('2026-11-01T05:30:00Z')).toBe('11-01-2026 1:30:00 AM EDT');
    expect(formatEasternDateTime('2026-11-01T06:30:00Z')).toBe('11-01-2026 1:30:00 AM EST');
    expect(formatEasternDateTime(null)).toBe('');
    expect(easternZoneLabel('garbage')).toBe('');
  });
  it('gives the staff screens one unambiguous form: day, month name, 24-hour Eastern time and its label', () => {
    expect(formatStaffDateTime('2026-11-18T20:16:00Z')).toBe('18 Nov 2026 15:16 EST');
    expect(formatStaffDateTime('2026-07-04T03:05:00Z')).toBe('3 Jul 2026 23:05 EDT');
    expect(formatStaffDateTime('2026-11-01T05:30:00Z')).toBe('1 Nov 2026 01:30 EDT');
    expect(formatStaffDateTime('2026-11-01T06:30:00Z')).toBe('1 Nov 2026 01:30 EST');
    expect(formatStaffDateTime('')).toBe('');
    expect(formatIsoInstant('2026-11-18T20:16:00Z')).toBe('2026-11-18T20:16:00.000Z');
    expect(formatIsoInstant('garbage')).toBe('');
    expect(formatStaffDate('2026-03-07')).toBe('7 Mar 2026');
  });
  it('formats long dates and remark date/time', () => {
    expect(formatLongDate('2026-03-07')).toBe('07/March/2026');
    expect(usDateTime('2026-01-15T04:30:00Z')).toEqual({ us_date: '01-14-2026', us_time: '11:30:00 PM' });
  });
  it('gives the service-day of an instant', () => {
    expect(serviceToday(new Date('2026-01-15T03:00:00Z'))).toBe('2026-01-14');
  });
});

describe('serviceToday', () => {
  dayjs.extend(utc);
  dayjs.extend(timezone);
  it('gives the New York calendar day of any moment, across both clock changes, in any order', () => {
    const start = Date.UTC(2025, 0, 1);
    const moments: number[] = [];
    // Every 3 h 7 min 13 s for two years, plus each side of both 2026 clock changes and of midnight there.
    for (let t = start; t < start + 2 * 366 * 86_400_000; t += 187 * 60_000 + 13_000) moments.push(t);
    for (const edge of ['2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z', '2026-11-23T05:00:00Z']) {
      const e = Date.parse(edge);
      moments.push(e - 1, e, e + 1, e - 60_000, e + 60_000, e + 3_600_000 - 1, e + 3_600_000);
    }
    for (const t of [...moments, ...moments.reverse()]) {
      const d = new Date(t);
      expect(serviceToday(d), d.toISOString()).toBe(dayjs(d).tz('America/New_York').format('YYYY-MM-DD'));
    }
  }, 60_000);
});
