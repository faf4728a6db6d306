import { describe, expect, it } from 'vitest';
import type { WeekHours } from '../../shared/contracts/routing.js';
import {
  decideAssignments,
  isAvailable,
  type RoutingMember,
  type RoutingOrder,
  serviceWeekMinute,
  withinWeekHours,
} from './decide.js';

/** Mon–Fri 09:00–17:00 in the service time zone. */
const OFFICE: WeekHours = {
  mon: [['09:00', '17:00']],
  tue: [['09:00', '17:00']],
  wed: [['09:00', '17:00']],
  thu: [['09:00', '17:00']],
  fri: [['09:00', '17:00']],
  sat: [],
  sun: [],
};

// Monday 30 November 2026, New York on standard time (UTC−5).
const MON_0859 = new Date('2026-11-30T13:59:00Z');
const MON_0900 = new Date('2026-11-30T14:00:00Z');
const MON_1659 = new Date('2026-11-30T21:59:00Z');
const MON_1700 = new Date('2026-11-30T22:00:00Z');

const member = (id: number, extra: Partial<RoutingMember> = {}): RoutingMember => ({
  id,
  capacity: 25,
  languages: ['en'],
  shift: OFFICE,
  away: false,
  awayUntil: null,
  held: 0,
  lastAssignedAt: null,
  ...extra,
});

let next = 1000;
const order = (extra: Partial<RoutingOrder> = {}): RoutingOrder => {
  next += 1;
  return {
    orderId: next,
    priority: false,
    language: 'en',
    createdAt: new Date(MON_0900.getTime() - (10_000 - next) * 1000),
    ...extra,
  };
};

describe('the routing decision', () => {
  it('reads the day and minute in the service time zone, across the DST change', () => {
    expect(serviceWeekMinute(MON_0900)).toEqual({ day: 'mon', minute: 540 });
    // Monday 9 March 2026, the first weekday on daylight time (UTC−4): 13:00Z is 09:00 there.
    expect(serviceWeekMinute(new Date('2026-03-09T13:00:00Z'))).toEqual({ day: 'mon', minute: 540 });
    // Friday 6 March 2026, still standard time: 13:00Z is 08:00.
    expect(withinWeekHours(OFFICE, new Date('2026-03-06T13:00:00Z'))).toBe(false);
    expect(withinWeekHours(OFFICE, new Date('2026-03-09T13:00:00Z'))).toBe(true);
  });

  it('is on shift from the first minute of a stretch to the minute before its end', () => {
    expect(withinWeekHours(OFFICE, MON_0859)).toBe(false);
    expect(withinWeekHours(OFFICE, MON_0900)).toBe(true);
    expect(withinWeekHours(OFFICE, MON_1659)).toBe(true);
    expect(withinWeekHours(OFFICE, MON_1700)).toBe(false);
    // Saturday: no hours.
    expect(withinWeekHours(OFFICE, new Date('2026-11-28T15:00:00Z'))).toBe(false);
    expect(withinWeekHours(null, MON_0900)).toBe(false);
  });

  it('assigns nobody without a shift, off shift or away; away until a past time is back', () => {
    const o = [order()];
    expect(decideAssignments(o, [member(1, { shift: null })], MON_0900)).toEqual([]);
    expect(decideAssignments(o, [member(1)], MON_0859)).toEqual([]);
    expect(decideAssignments(o, [member(1)], MON_1700)).toEqual([]);
    expect(decideAssignments(o, [member(1)], MON_1659)).toEqual([{ orderId: o[0]!.orderId, staffId: 1 }]);
    expect(decideAssignments(o, [member(1, { away: true })], MON_0900)).toEqual([]);
    const until = new Date(MON_0900.getTime() + 60_000);
    expect(decideAssignments(o, [member(1, { away: true, awayUntil: until })], MON_0900)).toEqual([]);
    expect(isAvailable(member(1, { away: true, awayUntil: until }), new Date(until.getTime() + 1))).toBe(
      true,
    );
  });

  it('never fills a member above capacity; what is left waits, first in first out', () => {
    const orders = [order(), order(), order()];
    const got = decideAssignments(orders, [member(1, { capacity: 2 })], MON_0900);
    expect(got.map((a) => a.orderId)).toEqual([orders[0]!.orderId, orders[1]!.orderId]);
    expect(decideAssignments(orders, [member(1, { capacity: 2, held: 2 })], MON_0900)).toEqual([]);
    expect(decideAssignments(orders, [member(1, { capacity: 0 })], MON_0900)).toEqual([]);
    // One frees up: the oldest waiting order goes first.
    const freed = decideAssignments(
      orders.slice(2).concat(order()),
      [member(1, { capacity: 2, held: 1 })],
      MON_0900,
    );
    expect(freed).toEqual([{ orderId: orders[2]!.orderId, staffId: 1 }]);
  });

  it('hands Priority before Standard and older before newer', () => {
    const old = order({ createdAt: new Date('2026-11-29T10:00:00Z') });
    const newer = order({ createdAt: new Date('2026-11-30T10:00:00Z') });
    const prio = order({ priority: true, createdAt: new Date('2026-11-30T11:00:00Z') });
    const got = decideAssignments([newer, old, prio], [member(1, { capacity: 2 })], MON_0900);
    expect(got.map((a) => a.orderId)).toEqual([prio.orderId, old.orderId]);
  });

  it('gives the order to the one holding fewest, ties to the one assigned longest ago', () => {
    const members = [
      member(1, { held: 3 }),
      member(2, { held: 1, lastAssignedAt: new Date('2026-11-30T13:00:00Z') }),
      member(3, { held: 1, lastAssignedAt: new Date('2026-11-30T12:00:00Z') }),
    ];
    const [a, b, c, d] = [order(), order(), order(), order()];
    const got = decideAssignments([a!, b!, c!, d!], members, MON_0900);
    // 3 (tie at 1, assigned longer ago), then 2 (1 < 2), then 2 vs 3 both 2: 3 was assigned before 2 in this pass.
    expect(got.map((x) => x.staffId)).toEqual([3, 2, 3, 2]);
    // Never assigned counts as longest ago.
    expect(
      decideAssignments([order()], [member(2, { lastAssignedAt: MON_0859 }), member(5)], MON_0900),
    ).toEqual([expect.objectContaining({ staffId: 5 })]);
  });

  it('gives an order to a member speaking its language when anyone on shift does, else to anyone', () => {
    const es = order({ language: 'es' });
    const english = member(1);
    const spanish = member(2, { languages: ['es', 'en'], held: 5 });
    expect(decideAssignments([es], [english, spanish], MON_0900)).toEqual([
      { orderId: es.orderId, staffId: 2 },
    ]);
    // The Spanish speaker is full: the Spanish order waits for them, English orders still go out.
    const en = order();
    const full = member(2, { languages: ['es'], held: 25 });
    expect(decideAssignments([es, en], [english, full], MON_0900)).toEqual([
      { orderId: en.orderId, staffId: 1 },
    ]);
    // Nobody on shift speaks Papiamento (the speaker is off shift or away): anyone eligible takes it.
    const pap = order({ language: 'pap' });
    const offShift = member(3, { languages: ['pap'], shift: { ...OFFICE, mon: [] } });
    const away = member(4, { languages: ['pap'], away: true });
    expect(decideAssignments([pap], [english, offShift, away], MON_0900)).toEqual([
      { orderId: pap.orderId, staffId: 1 },
    ]);
    // No language on the order: anyone.
    expect(decideAssignments([order({ language: null })], [spanish], MON_0900)).toHaveLength(1);
  });
});
