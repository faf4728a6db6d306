import { eq, sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import {
  DEFAULT_WORKING_HOURS,
  MAX_HOLIDAYS,
  type WorkingHours,
  workingHours,
} from '../../shared/contracts/working-hours.js';
import { serviceToday } from '../../shared/dates.js';
import type { DbOrTx } from '../db/client.js';
import { appSettings, staffUsers } from '../db/schema.js';

/**
 * The working-hours calendar lives in app_settings under this key; the SQL functions working_add and
 * working_sub (drizzle/0088) read it, and a trigger recomputes the open orders' due times when it
 * changes. Keep the key in step with drizzle/0088.
 */
export const WORKING_HOURS_KEY = 'workingHours';

export async function getWorkingHours(
  db: DbOrTx,
): Promise<WorkingHours & { updatedAt: string | null; updatedBy: string | null }> {
  const [row] = await db
    .select({ value: appSettings.value, updatedAt: appSettings.updatedAt, by: staffUsers.name })
    .from(appSettings)
    .leftJoin(staffUsers, eq(staffUsers.id, appSettings.updatedBy))
    .where(eq(appSettings.key, WORKING_HOURS_KEY));
  const parsed = workingHours.safeParse(row?.value);
  return {
    ...(parsed.success ? (parsed.data as WorkingHours) : DEFAULT_WORKING_HOURS),
    updatedAt: row ? row.updatedAt.toISOString() : null,
    updatedBy: row?.by ?? null,
  };
}

/** Saves the calendar; the database trigger gives the open orders their new due times in the same transaction. */
export async function saveWorkingHours(db: DbOrTx, value: WorkingHours, by: number, at: Date): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: WORKING_HOURS_KEY, value, updatedBy: by, updatedAt: at })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: by, updatedAt: at } });
}

/** Is a calendar saved (the idle release then counts working minutes)? */
export async function workingHoursSet(db: DbOrTx): Promise<boolean> {
  const { rows } = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from app_settings where key = ${WORKING_HOURS_KEY}`,
  );
  return Number(rows[0]?.n ?? 0) > 0;
}

/** `minutes` of working time after `start` (drizzle/0088's working_add). */
export async function addWorkingMinutes(db: DbOrTx, start: Date, minutes: number): Promise<Date> {
  const { rows } = await db.execute<{ at: string }>(
    sql`select working_add(${start.toISOString()}::timestamptz, ${minutes}::int)::text as at`,
  );
  return new Date(rows[0]!.at);
}

/** The instant `minutes` of working time before `finish` (drizzle/0088's working_sub). */
export async function subtractWorkingMinutes(db: DbOrTx, finish: Date, minutes: number): Promise<Date> {
  const { rows } = await db.execute<{ at: string }>(
    sql`select working_sub(${finish.toISOString()}::timestamptz, ${minutes}::int)::text as at`,
  );
  return new Date(rows[0]!.at);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The service day of an iCalendar time: an all-day date as written, a moment in the service time zone. */
const dayOf = (t: ICAL.Time): string =>
  t.isDate ? `${t.year}-${pad(t.month)}-${pad(t.day)}` : serviceToday(t.toJSDate());

/** At most this many occurrences of one recurring event, within the years read. */
const MAX_OCCURRENCES = 20;
/** Longest all-day event taken as holidays, in days. */
const MAX_EVENT_DAYS = 31;

/** An iCalendar file that cannot be read: the sender's fault (the route answers 400 with the message). */
export class IcalUnreadable extends Error {}

/**
 * The holidays of an iCalendar file (a public-holiday calendar exported from any calendar app): the days
 * of its events, recurring ones expanded from last year to three years ahead. Parsed with ical.js.
 */
export function holidaysFromIcal(text: string, now: Date): string[] {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch {
    throw new IcalUnreadable('ical: this is not an iCalendar file that can be read');
  }
  const year = Number(serviceToday(now).slice(0, 4));
  const days = new Set<string>();
  const add = (start: ICAL.Time, end: ICAL.Time | null) => {
    if (start.year < year - 1 || start.year > year + 3) return;
    days.add(dayOf(start));
    if (start.isDate && end?.isDate) {
      const d = start.clone();
      for (let i = 1; i < MAX_EVENT_DAYS; i++) {
        d.adjust(1, 0, 0, 0);
        if (d.compare(end) >= 0) break;
        days.add(dayOf(d));
      }
    }
  };
  try {
    for (const component of root.getAllSubcomponents('vevent')) {
      const event = new ICAL.Event(component);
      if (!event.startDate) continue;
      if (event.isRecurring()) {
        const it = event.iterator();
        for (let n = 0, next = it.next(); next && n < MAX_OCCURRENCES; n++, next = it.next()) {
          if (next.year > year + 3) break;
          add(next, null);
        }
      } else {
        add(event.startDate, event.endDate ?? null);
      }
      if (days.size > MAX_HOLIDAYS) break;
    }
  } catch {
    throw new IcalUnreadable('ical: an event of this iCalendar file cannot be read');
  }
  return [...days].sort();
}
