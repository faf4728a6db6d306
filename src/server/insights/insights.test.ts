import { readFileSync } from 'node:fs';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OrderStatus, SERVICE_TIME_ZONE } from '../../shared/constants.js';
import { BACKLOG_FOLDERS, type InsightsData, percentileRank } from '../../shared/contracts/insights.js';
import { DEFAULT_DUE_TIME_POLICY, type DueTimePolicy } from '../../shared/contracts/due-time.js';
import { serviceToday } from '../../shared/dates.js';
import { mailLog, orderEvents, orders } from '../db/schema.js';
import { orderValuesFromSnake } from '../orders/columns.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { buildOrder } from '../test/factories.js';
import { insights, periodDays } from './queries.js';

dayjs.extend(utc);
dayjs.extend(timezone);

let t: TestApp;
let staffIds: number[] = [];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date();

/** A small deterministic generator, so a failing history can be replayed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const SEED = Number(process.env.INSIGHTS_SEED ?? 20261122);
const rand = prng(SEED);
const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
const STATUSES = [
  'Awaiting',
  'AwaitingGovt',
  'Customer Called',
  'Contact Customer',
  'Completed',
  'Completed',
  'Completed',
  'Deleted',
  'Refunds',
  'Refunded',
  'ChargeBack',
] as const;

/** Start of a service-time-zone day, in ms. */
const dayStart = (day: string) => dayjs.tz(day, SERVICE_TIME_ZONE).valueOf();

/**
 * The due time an order has while in `status` under `policy` (written out here from the policy's rule,
 * independently of the SQL): the earlier of payment (or the start of the processing day, when later) plus
 * fromPaymentHours and the start of the arrival day minus beforeArrivalHours; none when the status is
 * Completed, Refunded or Deleted or the mode has no policy.
 */
function dueOf(
  policy: DueTimePolicy,
  status: string,
  o: { mode: string; createdMs: number; processingDate: string; arrivalDate: string | null },
): number | null {
  if (['Completed', 'Refunded', 'Deleted'].includes(status)) return null;
  const p = (
    policy.modes as Record<string, { fromPaymentHours: number; beforeArrivalHours: number } | undefined>
  )[o.mode];
  if (!p) return null;
  const fromPayment = Math.max(o.createdMs, dayStart(o.processingDate)) + p.fromPaymentHours * HOUR;
  if (o.arrivalDate === null) return fromPayment;
  return Math.min(fromPayment, dayStart(o.arrivalDate) - p.beforeArrivalHours * HOUR);
}

/**
 * A random history over the last 45 days: orders from the factory, assignments and releases, remarks,
 * chains of status moves (some orders completed twice), mail in every state at both providers. Some moves
 * to Completed land exactly at the order's due time, or a millisecond either side of it.
 */
async function generateHistory(count: number) {
  const { db } = t.database;
  for (let i = 0; i < count; i++) {
    const created = new Date(now.getTime() - Math.floor(rand() * 45 * DAY) + (rand() < 0.03 ? 2 * HOUR : 0));
    const priority = rand() < 0.3;
    const processing = dayjs(created)
      .tz(SERVICE_TIME_ZONE)
      .add(rand() < 0.1 ? 20 : Math.floor(rand() * 3), 'day');
    const arrival =
      rand() < 0.15
        ? null
        : dayjs(created)
            .tz(SERVICE_TIME_ZONE)
            .add(2 + Math.floor(rand() * 12), 'day')
            .format('YYYY-MM-DD');
    const [order] = await db
      .insert(orders)
      .values({
        ...orderValuesFromSnake(
          buildOrder({
            processing_mode: priority ? 'Priority' : 'Standard',
            processing_date: processing.format('YYYY-MM-DD'),
          }),
        ),
        arrivalDate: arrival,
        createdAt: created,
      })
      .returning();
    const events: (typeof orderEvents.$inferInsert)[] = [
      { orderId: order!.orderId, action: 'created', toValue: 'New', createdAt: created },
    ];
    let at = created.getTime();
    let status: OrderStatus = 'New';
    let assigned: number | null = null;
    const steps = Math.floor(rand() * 6);
    for (let s = 0; s < steps; s++) {
      const prev = at;
      at += Math.floor(rand() * (rand() < 0.7 ? 30 : 150) * HOUR);
      if (at > now.getTime()) break;
      const actor = rand() < 0.05 ? null : pick(staffIds);
      const r = rand();
      if (r < 0.3) {
        const to = rand() < 0.8 ? pick(staffIds) : null;
        events.push({
          orderId: order!.orderId,
          actorId: actor,
          action: 'assign',
          toValue: to === null ? null : String(to),
          createdAt: new Date(at),
        });
        assigned = to;
      } else if (r < 0.5) {
        events.push({
          orderId: order!.orderId,
          actorId: actor,
          action: 'remark',
          toValue: 'note',
          createdAt: new Date(at),
        });
      } else {
        const to = pick(STATUSES);
        const due = dueOf(DEFAULT_DUE_TIME_POLICY, status, {
          mode: priority ? 'Priority' : 'Standard',
          createdMs: created.getTime(),
          processingDate: processing.format('YYYY-MM-DD'),
          arrivalDate: arrival,
        });
        if (to === 'Completed' && due !== null && rand() < 0.5) {
          const edge = due + pick([0, 0, -1, 1]);
          if (edge >= prev && edge <= now.getTime()) at = edge;
        }
        events.push({
          orderId: order!.orderId,
          actorId: actor,
          action: 'status',
          fromValue: status,
          toValue: to,
          createdAt: new Date(at),
        });
        status = to;
      }
    }
    await db.insert(orderEvents).values(events);
    await db.update(orders).set({ processStatus: status, assignedTo: assigned }).where(sqlEq(order!.orderId));
    const mails = Math.floor(rand() * 3);
    if (mails) {
      await db.insert(mailLog).values(
        Array.from({ length: mails }, () => ({
          orderId: order!.orderId,
          kind: 'approval' as const,
          toEmail: 'x@example.com',
          provider: pick(['AWS', 'Sendgrid'] as const),
          status: pick(['queued', 'sending', 'retrying', 'sent', 'sent', 'failed'] as const),
          // A delivery report said some mails did not arrive (Insights counts them as failed).
          bouncedAt: rand() < 0.15 ? now : null,
          createdAt: new Date(Math.min(now.getTime(), created.getTime() + Math.floor(rand() * 3 * DAY))),
        })),
      );
    }
  }
}

import { eq } from 'drizzle-orm';
const sqlEq = (orderId: number) => eq(orders.orderId, orderId);

interface RawEvent {
  id: number;
  order_id: number;
  actor_id: number | null;
  action: string;
  from_value: string | null;
  to_value: string | null;
  ms: number;
}

/** The oracle: every figure computed in TypeScript from the raw rows. */
async function oracle(from: string, to: string, at: Date): Promise<InsightsData> {
  const q = t.database.sql;
  const ms = `(extract(epoch from created_at) * 1000)::float8 as ms`;
  const ordersRows = (
    await q.query<{
      order_id: number;
      ms: number;
      process_status: string;
      processing_mode: string;
      assigned_to: number | null;
      processing_date: string;
      arrival_date: string | null;
    }>(`select order_id::int as order_id, ${ms}, process_status, processing_mode, assigned_to,
               to_char(processing_date, 'YYYY-MM-DD') as processing_date,
               to_char(arrival_date, 'YYYY-MM-DD') as arrival_date from orders`)
  ).rows;
  const policy = (
    await q.query<{ value: DueTimePolicy }>(`select value from app_settings where key = 'dueTimePolicy'`)
  ).rows[0]!.value;
  const events = (
    await q.query<RawEvent>(
      `select id::int as id, order_id::int as order_id, actor_id, action, from_value, to_value, ${ms}
       from order_events order by id`,
    )
  ).rows;
  const mails = (
    await q.query<{ provider: string; status: string; bounced: boolean; ms: number }>(
      `select provider, status, bounced_at is not null as bounced, ${ms} from mail_log`,
    )
  ).rows;
  const staff = new Map(
    (await q.query<{ id: number; name: string }>('select id, name from staff_users')).rows.map((r) => [
      r.id,
      r.name,
    ]),
  );
  const dayOf = (v: number) => dayjs(v).tz(SERVICE_TIME_ZONE).format('YYYY-MM-DD');
  const inPeriod = (d: string) => d >= from && d <= to;
  const days = periodDays(from, to);
  const orderById = new Map(ordersRows.map((o) => [o.order_id, o]));
  const pct = (values: number[], num: number, den: number) => {
    if (!values.length) return null;
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[percentileRank(sorted.length, num, den) - 1]!;
  };

  const received = new Map<string, number>();
  for (const o of ordersRows) {
    const d = dayOf(o.ms);
    received.set(d, (received.get(d) ?? 0) + 1);
  }
  // Each event's day and each order's events, computed once (the oracle stays linear).
  const eventDay = new Map(events.map((e) => [e.id, dayOf(e.ms)]));
  const eventsOfOrder = new Map<number, RawEvent[]>();
  for (const e of events) eventsOfOrder.set(e.order_id, [...(eventsOfOrder.get(e.order_id) ?? []), e]);
  const eventsOfDay = new Map<string, RawEvent[]>();
  for (const e of events)
    eventsOfDay.set(eventDay.get(e.id)!, [...(eventsOfDay.get(eventDay.get(e.id)!) ?? []), e]);
  const count = (d: string, pred: (e: RawEvent) => boolean) => (eventsOfDay.get(d) ?? []).filter(pred).length;
  const isStatus = (to: string) => (e: RawEvent) => e.action === 'status' && e.to_value === to;

  const completions = events.filter((e) => isStatus('Completed')(e) && inPeriod(eventDay.get(e.id)!));
  const hoursToComplete = (e: RawEvent) => Math.floor((e.ms - orderById.get(e.order_id)!.ms) / HOUR);
  const lastAssign = (c: RawEvent) =>
    (eventsOfOrder.get(c.order_id) ?? []).filter((e) => e.action === 'assign' && e.id < c.id).at(-1);

  const byDayHours = (d: string) => completions.filter((e) => eventDay.get(e.id) === d).map(hoursToComplete);
  const all = completions.map(hoursToComplete);

  const staffIdsSeen = new Set<number>();
  const periodEvents = events.filter((e) => inPeriod(eventDay.get(e.id)!));
  for (const e of periodEvents)
    if (e.action === 'status' || e.action === 'remark') staffIdsSeen.add(e.actor_id ?? 0);
  const handling = new Map<number, number[]>();
  for (const c of completions) {
    const a = lastAssign(c);
    if (!a || a.to_value === null) continue;
    const k = c.actor_id ?? 0;
    handling.set(k, [...(handling.get(k) ?? []), Math.floor((c.ms - a.ms) / HOUR)]);
    staffIdsSeen.add(k);
  }
  // Assignments in the period and the minutes to the assignee's first own action after each.
  const assignsInPeriod = periodEvents.filter(
    (e) => e.action === 'assign' && /^[0-9]{1,9}$/.test(e.to_value ?? ''),
  );
  for (const a of assignsInPeriod) staffIdsSeen.add(Number(a.to_value));
  const firstActionMinutes = (a: RawEvent) => {
    const first = (eventsOfOrder.get(a.order_id) ?? []).find(
      (e) =>
        e.actor_id === Number(a.to_value) && e.ms >= a.ms && e.action !== 'assign' && e.action !== 'takeover',
    );
    return first ? (first.ms - a.ms) / 60_000 : null;
  };
  const medianOf = (values: number[]) => {
    if (!values.length) return null;
    const v = [...values].sort((x, y) => x - y);
    const mid = Math.floor(v.length / 2);
    return Math.round(v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2);
  };
  const perStaff = [...staffIdsSeen].map((id) => {
    const mine = periodEvents.filter((e) => (e.actor_id ?? 0) === id);
    const h = handling.get(id) ?? [];
    return {
      staffId: id,
      name: staff.get(id) ?? 'System',
      completed: mine.filter(isStatus('Completed')).length,
      statusMoves: mine.filter((e) => e.action === 'status').length,
      remarks: mine.filter((e) => e.action === 'remark').length,
      handled: h.length,
      medianHandlingHours: pct(h, 1, 2),
      assigned: assignsInPeriod.filter((a) => Number(a.to_value) === id).length,
      medianFirstActionMinutes: medianOf(
        assignsInPeriod
          .filter((a) => Number(a.to_value) === id)
          .map(firstActionMinutes)
          .filter((m): m is number => m !== null),
      ),
      completedWithDue: 0,
      onTimeShare: null as number | null,
    };
  });

  const today = serviceToday(at);
  const folderOf = (o: (typeof ordersRows)[number]) => {
    if (o.process_status === 'New') {
      if (o.processing_date > today) return 'futureOrder';
      if (o.assigned_to !== null) return 'pendingOrder';
      return o.processing_mode === 'Priority' ? 'priorityOrder' : 'newOrder';
    }
    return (
      {
        Awaiting: 'awaitingOrder',
        AwaitingGovt: 'awaitingGovtOrder',
        'Customer Called': 'customerCalledOrder',
        'Contact Customer': 'contactCustomerOrder',
        Refunds: 'refundOrder',
        ChargeBack: 'chargeBack',
      } as Record<string, string>
    )[o.process_status];
  };
  const bucketOf = (o: (typeof ordersRows)[number]) => {
    const age = at.getTime() - o.ms;
    return age < DAY ? 'lt24h' : age < 3 * DAY ? 'd1to3' : age < 7 * DAY ? 'd3to7' : 'gt7d';
  };
  const open = ordersRows.filter((o) => !['Completed', 'Deleted', 'Refunded'].includes(o.process_status));
  const folders = BACKLOG_FOLDERS.map(({ key, label }) => {
    const mine = open.filter((o) => folderOf(o) === key);
    const n = (b: string) => mine.filter((o) => bucketOf(o) === b).length;
    return {
      folder: key,
      label,
      lt24h: n('lt24h'),
      d1to3: n('d1to3'),
      d3to7: n('d3to7'),
      gt7d: n('gt7d'),
      total: mine.length,
    };
  });
  const sum = (k: 'lt24h' | 'd1to3' | 'd3to7' | 'gt7d' | 'total') => folders.reduce((s, f) => s + f[k], 0);
  const ratio = (a: number, b: number) => (b > 0 ? a / b : null);
  // On time: completed at or before the due time the order had in the status the move left.
  const dueAtCompletion = (c: RawEvent) => {
    const o = orderById.get(c.order_id)!;
    return dueOf(policy, c.from_value ?? 'New', {
      mode: o.processing_mode,
      createdMs: o.ms,
      processingDate: o.processing_date,
      arrivalDate: o.arrival_date,
    });
  };
  const onTimeOf = (cs: RawEvent[]) => {
    const due = cs.map((c) => [c, dueAtCompletion(c)] as const).filter(([, d]) => d !== null);
    const withinTarget = due.filter(([c, d]) => c.ms <= d!).length;
    return {
      completed: due.length,
      withinTarget,
      withoutDue: cs.length - due.length,
      share: ratio(withinTarget, due.length),
    };
  };
  const completedOn = (d: string) => count(d, isStatus('Completed'));
  const totalChargebacks = days.reduce((s, d) => s + count(d, isStatus('ChargeBack')), 0);
  const totalCompleted = days.reduce((s, d) => s + completedOn(d), 0);

  const mailKeys = new Map<
    string,
    { day: string; provider: string; sent: number; failed: number; pending: number; bounced: number }
  >();
  for (const m of mails) {
    const d = dayOf(m.ms);
    if (!inPeriod(d)) continue;
    const k = `${d}|${m.provider}`;
    const row = mailKeys.get(k) ?? {
      day: d,
      provider: m.provider,
      sent: 0,
      failed: 0,
      pending: 0,
      bounced: 0,
    };
    if (m.status === 'sent' && m.bounced) {
      row.failed++;
      row.bounced++;
    } else if (m.status === 'sent') row.sent++;
    else if (m.status === 'failed') row.failed++;
    else row.pending++;
    mailKeys.set(k, row);
  }

  return {
    from,
    to,
    timeZone: SERVICE_TIME_ZONE,
    asOf: at.toISOString(),
    backlog: {
      total: {
        lt24h: sum('lt24h'),
        d1to3: sum('d1to3'),
        d3to7: sum('d3to7'),
        gt7d: sum('gt7d'),
        total: sum('total'),
      },
      folders,
    },
    throughput: days.map((day) => ({
      day,
      received: received.get(day) ?? 0,
      completed: completedOn(day),
      refunded: count(day, isStatus('Refunded')),
      deleted: count(day, isStatus('Deleted')),
    })),
    timeToComplete: {
      overall: { completed: all.length, medianHours: pct(all, 1, 2), p90Hours: pct(all, 9, 10) },
      days: days.map((day) => {
        const hs = byDayHours(day);
        return { day, completed: hs.length, medianHours: pct(hs, 1, 2), p90Hours: pct(hs, 9, 10) };
      }),
    },
    perStaff: perStaff.map((p) => {
      const mine = onTimeOf(completions.filter((c) => (c.actor_id ?? 0) === p.staffId));
      return { ...p, completedWithDue: mine.completed, onTimeShare: mine.share };
    }),
    onTime: {
      overall: onTimeOf(completions),
      days: days.map((day) => ({ day, ...onTimeOf(completions.filter((e) => eventDay.get(e.id) === day)) })),
    },
    chargebacks: {
      overall: {
        chargebacks: totalChargebacks,
        completed: totalCompleted,
        share: ratio(totalChargebacks, totalCompleted),
      },
      days: days.map((day) => {
        const cb = count(day, isStatus('ChargeBack'));
        return { day, chargebacks: cb, completed: completedOn(day), share: ratio(cb, completedOn(day)) };
      }),
    },
    mail: [...mailKeys.values()].sort((a, b) => (a.day + a.provider < b.day + b.provider ? -1 : 1)),
  };
}

const byStaff = (d: InsightsData) => ({
  ...d,
  perStaff: [...d.perStaff].sort((a, b) => a.staffId - b.staffId),
});

async function expectFiguresEqualOracle(from: string, to: string) {
  const got = await insights(t.database.sql, { from, to }, { now });
  const want = await oracle(from, to, now);
  expect(byStaff(got)).toEqual(byStaff(want));
  return got;
}

const today = serviceToday(now);
const daysAgo = (n: number) => dayjs(today).subtract(n, 'day').format('YYYY-MM-DD');

beforeAll(async () => {
  t = await createTestApp();
  staffIds = (await t.database.sql.query<{ id: number }>('select id from staff_users order by id')).rows.map(
    (r) => r.id,
  );
  await generateHistory(320);
}, 120_000);
afterAll(() => t?.close());

describe('insights figures equal a direct computation over the raw rows', () => {
  it('for the whole generated history, a week and a single day', { timeout: 120_000 }, async () => {
    const got = await expectFiguresEqualOracle(daysAgo(50), today);
    // The history is not trivial: every section has something to compare.
    expect(got.timeToComplete.overall.completed).toBeGreaterThan(20);
    expect(got.perStaff.length).toBeGreaterThan(2);
    expect(got.perStaff.some((s) => s.assigned > 0 && s.medianFirstActionMinutes !== null)).toBe(true);
    expect(got.mail.length).toBeGreaterThan(5);
    expect(got.backlog.total.total).toBeGreaterThan(20);
    expect(got.chargebacks.overall.chargebacks).toBeGreaterThan(0);
    // Completions late, on time, exactly at the due time, and without one.
    expect(got.onTime.overall.withinTarget).toBeGreaterThan(5);
    expect(got.onTime.overall.completed - got.onTime.overall.withinTarget).toBeGreaterThan(5);
    expect(got.onTime.overall.withoutDue).toBeGreaterThan(0);
    const edges = await t.database.sql.query<{ at: number; before: number; after: number }>(
      `select count(*) filter (where e.created_at = e.due_at)::int as at,
              count(*) filter (where e.created_at = e.due_at - interval '1 millisecond')::int as before,
              count(*) filter (where e.created_at = e.due_at + interval '1 millisecond')::int as after
       from order_events e where e.action = 'status' and e.to_value = 'Completed'`,
    );
    expect(edges.rows[0]!.at).toBeGreaterThan(0);
    expect(edges.rows[0]!.before + edges.rows[0]!.after).toBeGreaterThan(0);
    await expectFiguresEqualOracle(daysAgo(7), today);
    await expectFiguresEqualOracle(daysAgo(3), daysAgo(3));
  });

  it('still after deletes of events, mail state changes and more moves', { timeout: 180_000 }, async () => {
    const q = t.database.sql;
    await q.query(`delete from order_events where id in (
      select id from order_events where action in ('status', 'remark') order by id desc limit 25)`);
    await q.query(`update mail_log set status = 'sent' where status in ('queued', 'retrying')`);
    await q.query(`update mail_log set provider = 'Sendgrid' where id % 3 = 0`);
    await q.query(`update order_events set to_value = 'Completed' where id in (
      select id from order_events where action = 'status' and to_value = 'Awaiting' order by id limit 5)`);
    await generateHistory(40);
    await expectFiguresEqualOracle(daysAgo(50), today);
    await expectFiguresEqualOracle(daysAgo(29), today);
  });

  it('stays exact under concurrent completions of one day', { timeout: 120_000 }, async () => {
    const { rows } = await t.database.sql.query<{ id: number }>(
      "select order_id::int as id from orders where process_status <> 'Completed' order by order_id limit 16",
    );
    await Promise.all(
      rows.map(({ id }, i) =>
        t.database.db.transaction(async (tx) => {
          await tx.insert(orderEvents).values({
            orderId: id,
            actorId: staffIds[i % staffIds.length]!,
            action: 'status',
            fromValue: 'New',
            toValue: 'Completed',
          });
        }),
      ),
    );
    await expectFiguresEqualOracle(daysAgo(50), today);
  });

  it('keeps each completion against the due time it had when the policy changes later', async () => {
    const q = t.database.sql;
    const period = { from: daysAgo(50), to: today };
    const before = await insights(q, period, { now });
    const { rows } = await q.query<{ value: unknown }>(
      `select value from app_settings where key = 'dueTimePolicy'`,
    );
    await q.query(
      `update app_settings set value = jsonb_set(value, '{modes,Standard,fromPaymentHours}', '1') where key = 'dueTimePolicy'`,
    );
    try {
      expect((await insights(q, period, { now })).onTime).toEqual(before.onTime);
    } finally {
      await q.query(`update app_settings set value = $1::jsonb where key = 'dueTimePolicy'`, [
        JSON.stringify(rows[0]!.value),
      ]);
    }
    await expectFiguresEqualOracle(period.from, period.to);
  });

  it('the migration backfill of the on-time counters gives the same figures', {
    timeout: 120_000,
  }, async () => {
    const q = t.database.sql;
    const migration = readFileSync(
      new URL('../../../drizzle/0031_insights_on_time_trigger.sql', import.meta.url),
      'utf8',
    );
    const statements = migration.split('--> statement-breakpoint');
    const backfill = statements.slice(statements.findIndex((x) => x.includes('Existing completions')));
    expect(backfill.length).toBeGreaterThan(3);
    await q.query('update insights_daily set completed_due = 0, completed_on_time = 0');
    expect((await insights(q, { from: daysAgo(50), to: today }, { now })).onTime.overall.completed).toBe(0);
    for (const statement of backfill) await q.query(statement);
    await expectFiguresEqualOracle(daysAgo(50), today);
  });

  it('answers the same over HTTP, with every day of the period listed', { timeout: 120_000 }, async () => {
    const from = daysAgo(29);
    const res = await t.as('Manager', { method: 'GET', url: `/api/admin/insights?from=${from}&to=${today}` });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as InsightsData;
    expect(data.throughput).toHaveLength(30);
    const want = await oracle(from, today, new Date(data.asOf));
    // No payment provider here: its figures (src/server/payments/queries.ts) are all zero.
    const { payments, disputes, ...figures } = data;
    expect(disputes).toEqual(payments?.disputes);
    expect(payments).toEqual({
      disputes: { opened: 0, won: 0, lost: 0, amounts: [] },
      refunds: { throughProvider: 0, outside: 0, failed: 0, amounts: [] },
    });
    expect(byStaff(figures)).toEqual(byStaff(want));
  });
});

describe('insights access and input', () => {
  it('is for Admin and Manager only', async () => {
    const url = `/api/admin/insights?from=${today}&to=${today}`;
    expect((await t.as('Admin', { method: 'GET', url })).statusCode).toBe(200);
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const res = await t.as(role, { method: 'GET', url });
      expect(res.statusCode).toBe(403);
      expect(res.json().data).toBeUndefined();
    }
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('refuses hostile or wrong periods with a 400 and no stack trace', async () => {
    for (const qs of [
      `from=${today}%00&to=${today}`,
      `from=${today}&to=${daysAgo(1)}`,
      'from=2026-02-30&to=2026-03-01',
      `from=${'9'.repeat(5000)}&to=${today}`,
      `from=2024-01-01&to=2025-06-01`,
      `to=${today}`,
      `from=${today}&to=${today}&extra=1`,
      `from=${today}&from=${today}&to=${today}`,
    ]) {
      const res = await t.as('Admin', { method: 'GET', url: `/api/admin/insights?${qs}` });
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().status).toBe(0);
      expect(res.body).not.toMatch(/at .*\.ts:\d+|stack/i);
    }
  });

  it('gives every role its own "My day": completions today and open assigned orders', async () => {
    const res = await t.as('Team', { method: 'GET', url: '/api/admin/insights/my-day' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    const teamId = (
      await t.database.sql.query<{ id: number }>(
        "select id from staff_users where role = 'Team' and deleted_at is null order by id limit 1",
      )
    ).rows[0]!.id;
    const { rows } = await t.database.sql.query<{ completed: number; open: number }>(
      `select (select count(*)::int from order_events where actor_id = $1 and action = 'status' and to_value = 'Completed'
                and (created_at at time zone 'America/New_York')::date = $2::date) as completed,
              (select count(*)::int from orders where assigned_to = $1
                and process_status not in ('Completed', 'Deleted', 'Refunded')) as open`,
      [teamId, today],
    );
    expect(data).toEqual({ day: today, completedToday: rows[0]!.completed, openAssigned: rows[0]!.open });
    expect(data.openAssigned).toBeGreaterThan(0);
    for (const role of ['Telecaller', 'Night Staff', 'Manager'] as const) {
      expect((await t.as(role, { method: 'GET', url: '/api/admin/insights/my-day' })).statusCode).toBe(200);
    }
  });
});
