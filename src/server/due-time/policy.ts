import { eq, type SQL, sql } from 'drizzle-orm';
import {
  DEFAULT_DUE_TIME_POLICY,
  type DueTimePolicy,
  type DueTimePolicyInput,
  type DueState,
  dueTimePolicy,
} from '../../shared/contracts/due-time.js';
import { now } from '../clock.js';
import type { DbOrTx } from '../db/client.js';
import { appSettings, staffUsers } from '../db/schema.js';

/**
 * The due-time policy lives in app_settings under this key. The SQL function policy_due_at (drizzle
 * 0021, renamed in 0060) reads it when a trigger on orders stores each open order's due_at, and a trigger
 * on app_settings recomputes the open orders when the policy's limits change. Keep the key in step with
 * drizzle/0060.
 */
export const DUE_TIME_SETTINGS_KEY = 'dueTimePolicy';

/** The moment "now" for due states (the injected clock of src/server/clock.ts) and the margin. */
export interface DueClock {
  now: Date;
  marginHours: number;
}

export async function getDueTimePolicy(
  db: DbOrTx,
): Promise<DueTimePolicy & { updatedAt: string | null; updatedBy: string | null }> {
  const [row] = await db
    .select({ value: appSettings.value, updatedAt: appSettings.updatedAt, by: staffUsers.name })
    .from(appSettings)
    .leftJoin(staffUsers, eq(staffUsers.id, appSettings.updatedBy))
    .where(eq(appSettings.key, DUE_TIME_SETTINGS_KEY));
  const parsed = dueTimePolicy.safeParse(row?.value);
  const policy = parsed.success ? parsed.data : DEFAULT_DUE_TIME_POLICY;
  return {
    ...policy,
    updatedAt: row?.by ? row.updatedAt.toISOString() : null,
    updatedBy: row?.by ?? null,
  };
}

/** Saves the policy; the database trigger recomputes every open order's due_at in the same transaction. */
export async function saveDueTimePolicy(db: DbOrTx, value: DueTimePolicyInput, by: number): Promise<void> {
  const at = now();
  await db
    .insert(appSettings)
    .values({ key: DUE_TIME_SETTINGS_KEY, value, updatedBy: by, updatedAt: at })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: by, updatedAt: at } });
}

/**
 * Due states read the service clock (src/server/clock.ts). Tests may move this one alone, so
 * that sign-in sessions do not expire while they look days ahead.
 */
let dueClock: () => Date = now;

export function setDueClockForTests(clock: (() => Date) | null): void {
  dueClock = clock ?? now;
}

/** "Now" of the due states (moved by tests through setDueClockForTests). */
export function dueNow(): Date {
  return dueClock();
}

export async function readDueClock(db: DbOrTx): Promise<DueClock> {
  const policy = await getDueTimePolicy(db);
  return { now: dueClock(), marginHours: policy.atRiskMarginHours };
}

/** The columns a due state is read from (of `orders` under some alias). */
export interface DueColumns {
  dueAt: SQL;
  pausedAt: SQL;
  tripEndsAt: SQL;
}

/** The due columns of `orders`, under an alias or bare. */
export const dueColumnsOf = (alias?: string): DueColumns => {
  const p = alias ? `${alias}.` : '';
  return {
    dueAt: sql.raw(`${p}due_at`),
    pausedAt: sql.raw(`${p}due_paused_at`),
    tripEndsAt: sql.raw(`${p}trip_ends_at`),
  };
};

/**
 * The one definition of the due states (tile, lists, filters, detail and Insights use it): trip passed
 * once the arrival day of a still-worked order is over; paused while it waits on someone else (unless that
 * wait has its own deadline, a dispute's evidence due); else
 * breached from the due time on, at risk while less than the margin is left, on track before. Null when
 * there is no due time (closed orders).
 */
export function dueStateSql(c: DueColumns, clock: DueClock): SQL {
  const at = clock.now.toISOString();
  const edge = new Date(clock.now.getTime() + clock.marginHours * 3_600_000).toISOString();
  return sql`case when ${c.tripEndsAt} <= ${at}::timestamptz then 'trip_passed'
              when ${c.pausedAt} is not null and ${c.dueAt} is null then 'paused'
              when ${c.dueAt} is null then null
              when ${c.dueAt} <= ${at}::timestamptz then 'breached'
              when ${c.dueAt} < ${edge}::timestamptz then 'at_risk'
              else 'on_track' end`;
}

/** The condition of one due state (the lists' filter), the same definition as dueStateSql. */
export function dueStateWhere(state: DueState, c: DueColumns, clock: DueClock): SQL {
  const at = clock.now.toISOString();
  const edge = new Date(clock.now.getTime() + clock.marginHours * 3_600_000).toISOString();
  const tripAhead = sql`(${c.tripEndsAt} is null or ${c.tripEndsAt} > ${at}::timestamptz)`;
  switch (state) {
    case 'trip_passed':
      return sql`${c.tripEndsAt} <= ${at}::timestamptz`;
    case 'paused':
      return sql`${c.pausedAt} is not null and ${c.dueAt} is null and ${tripAhead}`;
    case 'breached':
      return sql`${c.dueAt} <= ${at}::timestamptz and ${tripAhead}`;
    case 'at_risk':
      return sql`${c.dueAt} > ${at}::timestamptz and ${c.dueAt} < ${edge}::timestamptz and ${tripAhead}`;
    default:
      return sql`${c.dueAt} >= ${edge}::timestamptz and ${tripAhead}`;
  }
}

/** The same rule in TypeScript (the detail answer). */
export function dueStateOf(
  dueAt: Date | null,
  clock: DueClock,
  pause: { pausedAt: Date | null; tripEndsAt: Date | null } = { pausedAt: null, tripEndsAt: null },
): DueState | null {
  if (pause.tripEndsAt && pause.tripEndsAt.getTime() <= clock.now.getTime()) return 'trip_passed';
  // A deadline someone else set while the order waits (a dispute's evidence due) wins over the pause.
  if (pause.pausedAt && !dueAt) return 'paused';
  if (!dueAt) return null;
  const left = dueAt.getTime() - clock.now.getTime();
  if (left <= 0) return 'breached';
  return left < clock.marginHours * 3_600_000 ? 'at_risk' : 'on_track';
}
