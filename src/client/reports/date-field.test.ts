import { describe, expect, it } from 'vitest';
import { parseDayFirstDate, showDayFirstDate } from './date-field';

describe('report date field', () => {
  it('reads dates day first, with the month named or numbered, and ISO dates', () => {
    expect(parseDayFirstDate('18 Nov 2026')).toBe('2026-11-18');
    expect(parseDayFirstDate(' 1 november 2026 ')).toBe('2026-11-01');
    expect(parseDayFirstDate('18/11/2026')).toBe('2026-11-18');
    expect(parseDayFirstDate('03-02-2026')).toBe('2026-02-03');
    expect(parseDayFirstDate('2026-11-18')).toBe('2026-11-18');
  });
  it('refuses what is no real date', () => {
    expect(parseDayFirstDate('31 Feb 2026')).toBeNull();
    expect(parseDayFirstDate('11/18/2026')).toBeNull();
    expect(parseDayFirstDate('18 Nx 2026')).toBeNull();
    expect(parseDayFirstDate('2026-13-01')).toBeNull();
    expect(parseDayFirstDate('')).toBeNull();
  });
  it('shows a stored date day first', () => {
    expect(showDayFirstDate('2026-03-07')).toBe('7 Mar 2026');
    expect(showDayFirstDate('soon')).toBe('soon');
  });
});
