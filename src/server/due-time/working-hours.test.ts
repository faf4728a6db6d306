import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKING_HOURS } from '../../shared/contracts/working-hours.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { addWorkingMinutes, subtractWorkingMinutes } from './working-hours.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const put = (role: DemoRole, payload: object) =>
  t.as(role, { method: 'PUT', url: '/api/admin/working-hours', payload });
const add = (iso: string, minutes: number) =>
  addWorkingMinutes(t.database.db, new Date(iso), minutes).then((d) => d.toISOString());
const sub = (iso: string, minutes: number) =>
  subtractWorkingMinutes(t.database.db, new Date(iso), minutes).then((d) => d.toISOString());

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Test//Holidays//EN',
  'BEGIN:VEVENT',
  'UID:xmas-2026@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;VALUE=DATE:20261225',
  'DTEND;VALUE=DATE:20261226',
  'SUMMARY:Christmas Day',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:new-year@test',
  'DTSTAMP:20260101T000000Z',
  'DTSTART;VALUE=DATE:20260101',
  'RRULE:FREQ=YEARLY',
  'SUMMARY:New Year',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('working-hours arithmetic (Mon–Fri 09:00–17:00, America/New_York)', () => {
  it('counts a Friday-evening reply from Monday morning: 18:00 + 4 working hours is Monday 13:00', async () => {
    // Friday 27 November 2026, 18:00 EST = 23:00Z; Monday 13:00 EST = 18:00Z.
    expect(await add('2026-11-27T23:00:00Z', 240)).toBe('2026-11-30T18:00:00.000Z');
  });

  it('tells 16:59 from 17:00', async () => {
    // 16:59: one minute on Friday, 3 h 59 on Monday → 12:59. 17:00: the day is over → 13:00.
    expect(await add('2026-11-27T21:59:00Z', 240)).toBe('2026-11-30T17:59:00.000Z');
    expect(await add('2026-11-27T22:00:00Z', 240)).toBe('2026-11-30T18:00:00.000Z');
    // Within the day: plain addition; ending exactly at 17:00.
    expect(await add('2026-11-27T18:00:00Z', 240)).toBe('2026-11-27T22:00:00.000Z');
  });

  it('skips weekends both ways and counts backwards too', async () => {
    // Saturday noon + 1 h → Monday 10:00.
    expect(await add('2026-11-28T17:00:00Z', 60)).toBe('2026-11-30T15:00:00.000Z');
    // Monday 10:00 − 2 working hours → Friday 16:00.
    expect(await sub('2026-11-30T15:00:00Z', 120)).toBe('2026-11-27T21:00:00.000Z');
  });

  it('keeps 09:00–17:00 local across the DST changes', async () => {
    // Friday 6 March 2026 16:00 EST (21:00Z) + 2 h → Monday 9 March 10:00 EDT (14:00Z).
    expect(await add('2026-03-06T21:00:00Z', 120)).toBe('2026-03-09T14:00:00.000Z');
    // Friday 30 October 2026 16:00 EDT (20:00Z) + 2 h → Monday 2 November 10:00 EST (15:00Z).
    expect(await add('2026-10-30T20:00:00Z', 120)).toBe('2026-11-02T15:00:00.000Z');
  });

  it('skips holidays once the calendar has them', async () => {
    const res = await put('Admin', { ...DEFAULT_WORKING_HOURS, holidays: ['2026-12-25'] });
    expect(res.statusCode, res.body).toBe(200);
    // Thursday 24 December 16:00 EST + 2 h: one hour Thursday, Friday is a holiday → Monday 28th 10:00.
    expect(await add('2026-12-24T21:00:00Z', 120)).toBe('2026-12-28T15:00:00.000Z');
  });
});

describe('GET/PUT /api/admin/working-hours', () => {
  it('answers the default week to everyone', async () => {
    const res = await t.as('Night Staff', { method: 'GET', url: '/api/admin/working-hours' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.week.mon).toEqual([['09:00', '17:00']]);
  });

  it('saves a whole valid calendar with an iCalendar import, audited; refuses hostile values and other roles', async () => {
    const week = { ...DEFAULT_WORKING_HOURS.week, sat: [['10:00', '14:00']] };
    const res = await put('Admin', { week, holidays: ['2026-07-04'], ical: ICS });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().data;
    expect(saved.week.sat).toEqual([['10:00', '14:00']]);
    expect(saved.holidays).toEqual(expect.arrayContaining(['2026-07-04', '2026-12-25', '2027-01-01']));
    const { rows } = await t.database.sql.query<{ to_value: { importedHolidays: number } }>(
      `select to_value from audit_log where action = 'working-hours.update' order by id desc limit 1`,
    );
    expect(rows[0]!.to_value.importedHolidays).toBeGreaterThanOrEqual(2);
    const before = JSON.stringify(
      (await t.as('Admin', { method: 'GET', url: '/api/admin/working-hours' })).json().data,
    );
    for (const bad of [
      { week, holidays: ['2026-13-01'] },
      { week, holidays: ['2026-07-04\u0000'] },
      {
        week,
        holidays: Array.from({ length: 401 }, (_, i) => `2026-01-${String((i % 28) + 1).padStart(2, '0')}`),
      },
      { week: { ...week, mon: [['17:00', '09:00']] }, holidays: [] },
      {
        week: {
          ...week,
          mon: [
            ['09:00', '17:00'],
            ['12:00', '13:00'],
          ],
        },
        holidays: [],
      },
      { week, holidays: [], ical: 'not a calendar' },
      { week, holidays: [], ical: 'x'.repeat(300_000) },
      { week, holidays: [], extra: true },
    ]) {
      expect((await put('Admin', bad)).statusCode, JSON.stringify(bad).slice(0, 100)).toBe(400);
    }
    for (const role of ['Manager', 'Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await put(role, { week, holidays: [] })).statusCode).toBe(403);
    }
    const after = JSON.stringify(
      (await t.as('Admin', { method: 'GET', url: '/api/admin/working-hours' })).json().data,
    );
    expect(after).toBe(before);
  });
});

describe('due-time rules on the working clock', () => {
  it('keeps calendar time by default and counts working hours where a rule says working', async () => {
    await put('Admin', DEFAULT_WORKING_HOURS);
    const policy = await t.as('Admin', { method: 'GET', url: '/api/admin/due-time-policy' });
    expect(policy.json().data.modes.Standard.clock).toBe('calendar');
    const order = await createOrder(t.database);
    // A reply on Friday 27 November 2026 at 18:00 EST, arriving well after.
    await t.database.sql.query(
      `update orders set created_at = '2026-11-27T23:00:00Z', processing_date = '2026-11-27', arrival_date = '2027-06-01' where order_id = $1`,
      [order.orderId],
    );
    const dueAt = async () =>
      (
        await t.database.sql.query<{ d: string }>(
          `select to_char(due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') d from orders where order_id = $1`,
          [order.orderId],
        )
      ).rows[0]!.d;
    const { updatedAt: _a, updatedBy: _b, ...current } = policy.json().data;
    const save = (clock: string) =>
      t.as('Admin', {
        method: 'PUT',
        url: '/api/admin/due-time-policy',
        payload: {
          ...current,
          modes: { ...current.modes, Standard: { fromPaymentHours: 4, beforeArrivalHours: 24, clock } },
        },
      });
    expect((await save('calendar')).statusCode).toBe(200);
    expect(await dueAt()).toBe('2026-11-28T03:00');
    expect((await save('working')).statusCode).toBe(200);
    expect(await dueAt()).toBe('2026-11-30T18:00');
    expect((await save('lunar')).statusCode).toBe(400);
    // The old body, without clock, still works (calendar).
    const old = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/due-time-policy',
      payload: {
        ...current,
        modes: { ...current.modes, Standard: { fromPaymentHours: 4, beforeArrivalHours: 24 } },
      },
    });
    expect(old.statusCode).toBe(200);
    expect(old.json().data.modes.Standard.clock).toBe('calendar');
    expect(await dueAt()).toBe('2026-11-28T03:00');
  });
});
