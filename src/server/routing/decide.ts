import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import { minutesOfDay, WEEK_DAYS, type WeekDay, type WeekHours } from '../../shared/contracts/routing.js';
import type { CustomerLanguage } from '../../shared/languages.js';

/**
 * The routing decision (docs/product.md, "Routing"): pure, with the clock passed in, so the rules are
 * tested at every edge without a database. src/server/flows/route-orders.ts reads the members and the
 * waiting orders, calls `decideAssignments` and writes what it answers.
 */

/** A staff member as routing sees them. */
export interface RoutingMember {
  id: number;
  capacity: number;
  languages: readonly CustomerLanguage[];
  shift: WeekHours | null;
  away: boolean;
  awayUntil: Date | null;
  /** Open orders they hold now. */
  held: number;
  /** When an order was last assigned to them (null: never). */
  lastAssignedAt: Date | null;
}

/** An unassigned order waiting in a routed folder. */
export interface RoutingOrder {
  orderId: number;
  priority: boolean;
  /** The customer's language; null: any member may take it. */
  language: CustomerLanguage | null;
  createdAt: Date;
}

const weekdayFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: SERVICE_TIME_ZONE,
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The last minute asked and its answer: a routing pass asks about one instant for every member. */
let lastMinute: { key: number; value: { day: WeekDay; minute: number } } | null = null;

/** The day of the week and the minute of the day of an instant, in the service time zone. */
export function serviceWeekMinute(at: Date): { day: WeekDay; minute: number } {
  // Time-zone offsets are whole minutes, so every instant of a UTC minute has the same answer.
  const key = Math.floor(at.getTime() / 60_000);
  if (lastMinute?.key === key) return lastMinute.value;
  const parts = weekdayFormat.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = get('weekday').toLowerCase().slice(0, 3) as WeekDay;
  const value = { day, minute: Number(get('hour')) * 60 + Number(get('minute')) };
  lastMinute = { key, value };
  return value;
}

/** Is the instant inside the weekly hours (start included, end excluded)? */
export function withinWeekHours(hours: WeekHours | null, at: Date): boolean {
  if (!hours) return false;
  const { day, minute } = serviceWeekMinute(at);
  if (!WEEK_DAYS.includes(day)) return false;
  return hours[day].some(([from, to]) => minutesOfDay(from) <= minute && minute < minutesOfDay(to));
}

/** Away now: switched away, and the until-date (if any) not yet reached. */
export function isAway(m: Pick<RoutingMember, 'away' | 'awayUntil'>, now: Date): boolean {
  return m.away && (m.awayUntil === null || m.awayUntil.getTime() > now.getTime());
}

/** On shift and not away: the members routing may consider at all. */
export function isAvailable(m: RoutingMember, now: Date): boolean {
  return withinWeekHours(m.shift, now) && !isAway(m, now);
}

/** Priority before Standard, older before newer (then the lower order number). */
export function routingOrderCompare(a: RoutingOrder, b: RoutingOrder): number {
  if (a.priority !== b.priority) return a.priority ? -1 : 1;
  const t = a.createdAt.getTime() - b.createdAt.getTime();
  return t !== 0 ? t : a.orderId - b.orderId;
}

/** Fewest open held orders first; ties to the one assigned longest ago (never assigned first), then id. */
function better(
  a: { held: number; last: number; id: number },
  b: { held: number; last: number; id: number },
) {
  if (a.held !== b.held) return a.held < b.held;
  if (a.last !== b.last) return a.last < b.last;
  return a.id < b.id;
}

export interface Assignment {
  orderId: number;
  staffId: number;
}

/**
 * Who gets which order, now. Eligible for an order: on shift, not away, under capacity, and speaking the
 * order's language when any available member (on shift, not away) speaks it — otherwise anyone eligible.
 * Among the eligible, the fewest open held orders wins, ties to the one assigned longest ago. Orders go
 * Priority first, older first; an order nobody is eligible for waits (the next one may still go to
 * someone else: a Spanish order waiting for the Spanish speaker does not hold up English ones).
 */
export function decideAssignments(
  orders: readonly RoutingOrder[],
  members: readonly RoutingMember[],
  now: Date,
): Assignment[] {
  const available = members.filter((m) => isAvailable(m, now));
  if (!available.length) return [];
  const state = available.map((m) => ({
    id: m.id,
    capacity: m.capacity,
    languages: new Set(m.languages),
    held: m.held,
    last: m.lastAssignedAt ? m.lastAssignedAt.getTime() : Number.NEGATIVE_INFINITY,
  }));
  const spoken = new Set(available.flatMap((m) => m.languages));
  const out: Assignment[] = [];
  const nowMs = now.getTime();
  for (const order of [...orders].sort(routingOrderCompare)) {
    const needsLanguage = order.language !== null && spoken.has(order.language);
    let pick: (typeof state)[number] | null = null;
    for (const m of state) {
      if (m.held >= m.capacity) continue;
      if (needsLanguage && !m.languages.has(order.language!)) continue;
      if (!pick || better(m, pick)) pick = m;
    }
    if (!pick) continue;
    pick.held += 1;
    // Later in the same pass counts as later: the next tie goes to someone else.
    pick.last = nowMs + out.length;
    out.push({ orderId: order.orderId, staffId: pick.id });
  }
  return out;
}
