import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TIME_ZONE } from '../../shared/constants.js';
import type { CountryReportRow, ProcessedByRow } from '../../shared/contracts/reports.js';
import { serviceToday } from '../../shared/dates.js';
import { orderEvents, orders, staffUsers } from '../db/schema.js';
import { seedDemo } from '../db/seed.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { countryReport, wholeMonths } from './queries.js';

dayjs.extend(utc);
dayjs.extend(timezone);

const COUNTRY = '/api/admin/get-country-order-count';
const PROCESSED = '/api/admin/get-processed-by-count';

let t: TestApp;
let seedDir: string;
beforeAll(async () => {
  t = await createTestApp();
  seedDir = mkdtempSync(path.join(os.tmpdir(), 'edcard-reports-seed-'));
  await seedDemo(t.database, { orders: 1500, seed: 7, documents: 0, dataDir: seedDir });
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(seedDir, { recursive: true, force: true });
});

const post = (url: string, body: unknown, role: DemoRole = 'Admin') =>
  t.as(role, { method: 'POST', url, payload: body as Record<string, unknown> });

async function country(fromDate: string, toDate: string): Promise<CountryReportRow[]> {
  const res = await post(COUNTRY, { fromDate, toDate });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().status).toBe(1);
  return res.json().data;
}

async function processed(fromDate: string, toDate: string): Promise<ProcessedByRow[]> {
  const res = await post(PROCESSED, { fromDate, toDate });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** The service-time-zone calendar day of an instant, computed here independently of the SQL. */
const serviceDay = (at: Date | string) => dayjs(at).tz(SERVICE_TIME_ZONE).format('YYYY-MM-DD');

/** A direct tally of the stored orders, in JS, for a range of service days. */
async function tallyCountry(fromDate: string, toDate: string) {
  const rows = await t.database.db
    .select({
      nationality: orders.nationality,
      mode: orders.processingMode,
      status: orders.processStatus,
      processingDate: orders.processingDate,
      createdAt: orders.createdAt,
    })
    .from(orders);
  const today = serviceToday();
  const byNat = new Map<string, CountryReportRow>();
  for (const r of rows) {
    const day = serviceDay(r.createdAt);
    if (day < fromDate || day > toDate || r.status === 'Deleted') continue;
    const key = r.nationality ?? 'Unknown';
    const row = byNat.get(key) ?? {
      nationality: key,
      count: 0,
      standard_count: 0,
      priority_count: 0,
      future_count: 0,
    };
    row.count += 1;
    if (r.mode === 'Priority') row.priority_count += 1;
    else row.standard_count += 1;
    if (r.status === 'New' && r.processingDate > today) row.future_count += 1;
    byNat.set(key, row);
  }
  return byNat;
}

async function tallyProcessed(fromDate: string, toDate: string) {
  const events = await t.database.db
    .select({
      orderId: orderEvents.orderId,
      actorId: orderEvents.actorId,
      action: orderEvents.action,
      toValue: orderEvents.toValue,
      createdAt: orderEvents.createdAt,
    })
    .from(orderEvents);
  const staff = await t.database.db.select({ id: staffUsers.id, name: staffUsers.name }).from(staffUsers);
  const names = new Map(staff.map((s) => [s.id, s.name]));
  const perActor = new Map<string, number>();
  for (const e of events) {
    if (e.action !== 'status' || e.toValue !== 'Completed') continue;
    const day = serviceDay(e.createdAt);
    if (day < fromDate || day > toDate) continue;
    const name = (e.actorId !== null && names.get(e.actorId)) || 'System';
    perActor.set(name, (perActor.get(name) ?? 0) + 1);
  }
  return perActor;
}

const monthStart = (n: number) =>
  dayjs().tz(SERVICE_TIME_ZONE).subtract(n, 'month').startOf('month').format('YYYY-MM-DD');
const daysAgo = (n: number) => dayjs().tz(SERVICE_TIME_ZONE).subtract(n, 'day').format('YYYY-MM-DD');

describe('country order report', () => {
  const ranges: [string, string][] = [
    [daysAgo(500), daysAgo(0)],
    [daysAgo(365), daysAgo(0)],
    [daysAgo(90), daysAgo(30)],
    [daysAgo(7), daysAgo(7)],
    [daysAgo(200), daysAgo(199)],
    // Whole months only, and whole months with a partial month at one end.
    [monthStart(6), dayjs(monthStart(0)).subtract(1, 'day').format('YYYY-MM-DD')],
    [monthStart(2), daysAgo(0)],
  ];

  it.each(ranges)('equals a direct tally of the seeded orders for %s .. %s', async (from, to) => {
    const rows = await country(from, to);
    const expected = await tallyCountry(from, to);
    expect(new Map(rows.map((r) => [r.nationality, r]))).toEqual(expected);
    // The whole history must actually hold orders, or the comparison proves nothing.
    if (from === daysAgo(500)) expect(rows.reduce((s, r) => s + r.count, 0)).toBeGreaterThan(1000);
  });

  it('splits every row by mode so that standard + priority = count, sorted by count', async () => {
    const rows = await country(daysAgo(500), daysAgo(0));
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      expect(r.standard_count + r.priority_count).toBe(r.count);
      expect(r.future_count).toBeLessThanOrEqual(r.count);
    }
    expect(rows.some((r) => r.priority_count > 0 && r.standard_count > 0)).toBe(true);
    const counts = rows.map((r) => r.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('counts future orders as the Future Orders folder does (status New, processing date after today)', async () => {
    const rows = await country(daysAgo(500), daysAgo(0));
    const { rows: folder } = await t.database.sql.query<{ n: number }>(
      `select count(*)::int n from orders where process_status = 'New' and processing_date > $1::date`,
      [serviceToday()],
    );
    expect(folder[0]!.n).toBeGreaterThan(0);
    expect(rows.reduce((s, r) => s + r.future_count, 0)).toBe(folder[0]!.n);
  });

  it('reads days in the service time zone (America/New_York), both ends included', async () => {
    const nat = 'Boundaryland';
    // 2024-03-10 03:30 UTC is still 2024-03-09 in New York; 2024-03-11 03:59 UTC is 2024-03-10 23:59 EDT.
    await createOrder(t.database, { nationality: nat, created_at: new Date('2024-03-09T05:00:00Z') });
    await createOrder(t.database, { nationality: nat, created_at: new Date('2024-03-10T03:30:00Z') });
    await createOrder(t.database, { nationality: nat, created_at: new Date('2024-03-11T03:59:59Z') });
    await createOrder(t.database, {
      nationality: nat,
      processing_mode: 'Priority',
      created_at: new Date('2024-03-11T04:00:00Z'),
    });
    const pick = async (from: string, to: string) =>
      (await country(from, to)).find((r) => r.nationality === nat);
    expect((await pick('2024-03-09', '2024-03-09'))?.count).toBe(2);
    expect((await pick('2024-03-10', '2024-03-10'))?.count).toBe(1);
    expect(await pick('2024-03-11', '2024-03-11')).toMatchObject({
      count: 1,
      priority_count: 1,
      standard_count: 0,
    });
    expect((await pick('2024-03-09', '2024-03-11'))?.count).toBe(4);
    expect(await pick('2024-03-12', '2024-03-20')).toBeUndefined();
  });

  it('drops an order from the report once it is deleted, and counts a new future order', async () => {
    const nat = 'Deletia';
    const today = serviceToday();
    const tomorrow = dayjs(today).add(1, 'day').format('YYYY-MM-DD');
    const a = await createOrder(t.database, { nationality: nat });
    await createOrder(t.database, { nationality: nat, processing_date: tomorrow });
    await createOrder(t.database, { nationality: nat, processing_date: today });
    const row = async () => (await country(today, today)).find((r) => r.nationality === nat);
    expect(await row()).toEqual({
      nationality: nat,
      count: 3,
      standard_count: 3,
      priority_count: 0,
      future_count: 1,
    });
    const res = await t.as('Manager', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: a.orderId, updatingStatus: 'Deleted' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await row())?.count).toBe(2);
  });

  it('lets every staff role read it, and nobody without a token', async () => {
    for (const role of ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'] as const) {
      const res = await post(COUNTRY, { fromDate: daysAgo(10), toDate: daysAgo(0) }, role);
      expect(res.statusCode, role).toBe(200);
    }
    const anon = await t.app.inject({
      method: 'POST',
      url: COUNTRY,
      payload: { fromDate: daysAgo(10), toDate: daysAgo(0) },
    });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().status).toBe(401);
  });
});

describe('processed-by report', () => {
  const ranges: [string, string][] = [
    [daysAgo(500), daysAgo(0)],
    [daysAgo(120), daysAgo(60)],
    [daysAgo(3), daysAgo(3)],
  ];

  it.each(ranges)('equals a direct tally of the Completed events for %s .. %s', async (from, to) => {
    const rows = await processed(from, to);
    const expected = await tallyProcessed(from, to);
    expect(new Map(rows.map((r) => [r.processed_by, r.count]))).toEqual(expected);
    if (from === daysAgo(500)) expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('shows a move to Completed (through the detail screen call) for the person who made it', async () => {
    const move = (role: DemoRole, orderId: number, updatingStatus: string) =>
      t.as(role, {
        method: 'PUT',
        url: '/api/admin/move-order-status',
        // Two people on one order within seconds: each has been asked and continues (decision 298).
        payload: { orderId, updatingStatus, confirmRecent: true },
      });
    const today = serviceToday();
    const countOf = async (name: string) =>
      (await processed(today, today)).find((r) => r.processed_by === name)?.count ?? 0;
    const [manager] = await t.database.db
      .select({ name: staffUsers.name })
      .from(staffUsers)
      .where(eq(staffUsers.role, 'Manager'));
    const [team] = await t.database.db
      .select({ name: staffUsers.name })
      .from(staffUsers)
      .where(eq(staffUsers.role, 'Team'));
    const before = { manager: await countOf(manager!.name), team: await countOf(team!.name) };
    const order = await createOrder(t.database);
    // Completed needs the approved card (decision 296).
    await t.database.sql.query(
      `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256)
       values ($1, 'none', 'card.pdf', 'application/pdf', 1, 'x')`,
      [order.orderId],
    );
    expect((await move('Manager', order.orderId, 'Completed')).statusCode).toBe(200);
    expect(await countOf(manager!.name)).toBe(before.manager + 1);
    // Team reopens it: no credit for Team; Manager completes it again, which is work done again.
    expect((await move('Team', order.orderId, 'Awaiting')).statusCode).toBe(200);
    expect(await countOf(team!.name)).toBe(before.team);
    expect((await move('Manager', order.orderId, 'Completed')).statusCode).toBe(200);
    expect(await countOf(manager!.name)).toBe(before.manager + 2);
    expect(await countOf(team!.name)).toBe(before.team);
    const yesterday = dayjs(today).subtract(1, 'day').format('YYYY-MM-DD');
    const past = (await processed(yesterday, yesterday)).find((r) => r.processed_by === manager!.name);
    expect(past?.count).toBe((await tallyProcessed(yesterday, yesterday)).get(manager!.name));
  });

  it('is for Admin and Manager only', async () => {
    const body = { fromDate: daysAgo(10), toDate: daysAgo(0) };
    expect((await post(PROCESSED, body, 'Admin')).statusCode).toBe(200);
    expect((await post(PROCESSED, body, 'Manager')).statusCode).toBe(200);
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const res = await post(PROCESSED, body, role);
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toMatchObject({ status: 0 });
    }
  });
});

describe('range validation', () => {
  const cases: [string, unknown, RegExp][] = [
    ['To before From', { fromDate: '2025-02-02', toDate: '2025-02-01' }, /toDate.*on or after the From date/],
    ['more than 3 years', { fromDate: '2021-01-01', toDate: '2024-01-01' }, /toDate.*at most 3 years/],
    ['a bad date', { fromDate: '2025-02-30', toDate: '2025-03-01' }, /fromDate/],
    ['another format', { fromDate: '02/01/2025', toDate: '2025-03-01' }, /fromDate/],
    ['a missing To', { fromDate: '2025-02-01' }, /toDate.*Please select the To date/],
    ['an empty From', { fromDate: '', toDate: '2025-03-01' }, /fromDate.*Please select the From date/],
    ['an unknown field', { fromDate: '2025-02-01', toDate: '2025-03-01', userName: 'x' }, /userName|key/i],
    ['no body', undefined, /body|fromDate/],
  ];

  for (const url of [COUNTRY, PROCESSED]) {
    it.each(cases)(`${url} refuses %s with a clear 400`, async (_name, body, message) => {
      const res = await t.as('Admin', {
        method: 'POST',
        url,
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().status).toBe(0);
      expect(res.json().message).toMatch(message);
    });
  }

  it('accepts exactly three years, and a single day', async () => {
    expect((await post(COUNTRY, { fromDate: '2021-01-01', toDate: '2023-12-31' })).statusCode).toBe(200);
    expect((await post(PROCESSED, { fromDate: '2021-01-01', toDate: '2023-12-31' })).statusCode).toBe(200);
    expect((await post(COUNTRY, { fromDate: '2024-02-29', toDate: '2024-02-29' })).statusCode).toBe(200);
  });
});

describe('rollups stay exact', () => {
  it('after a mix of edits, moves, deletes and event removals', async () => {
    const today = serviceToday();
    const ids = (
      await t.database.sql.query<{ order_id: number }>(
        'select order_id from orders order by order_id desc limit 60',
      )
    ).rows.map((r) => r.order_id);
    const slice = (i: number) => ids.slice(i * 10, i * 10 + 10);
    await t.database.db
      .update(orders)
      .set({ nationality: 'Renamedia' })
      .where(inArray(orders.orderId, slice(0)));
    await t.database.db
      .update(orders)
      .set({ processingMode: 'Priority', createdAt: sql`${orders.createdAt} - interval '20 days'` })
      .where(inArray(orders.orderId, slice(1)));
    await t.database.db
      .update(orders)
      .set({ processStatus: 'Deleted' })
      .where(inArray(orders.orderId, slice(2)));
    await t.database.db
      .update(orders)
      .set({ processStatus: 'New' })
      .where(inArray(orders.orderId, slice(2).slice(0, 4)));
    await t.database.db
      .update(orders)
      .set({ processStatus: 'New', processingDate: dayjs(today).add(30, 'day').format('YYYY-MM-DD') })
      .where(inArray(orders.orderId, slice(3)));
    await t.database.db
      .update(orders)
      .set({ processStatus: 'Completed' })
      .where(inArray(orders.orderId, slice(3).slice(0, 3)));
    await t.database.db
      .update(orders)
      .set({ updatedAt: new Date() })
      .where(inArray(orders.orderId, slice(4)));
    const completedEvents = await t.database.sql.query<{ id: number }>(
      `select id from order_events where action = 'status' and to_value = 'Completed' order by id limit 25`,
    );
    await t.database.db.delete(orderEvents).where(
      inArray(
        orderEvents.id,
        completedEvents.rows.map((r) => r.id),
      ),
    );
    await t.database.db
      .update(orderEvents)
      .set({ toValue: 'Completed' })
      .where(
        sql`${orderEvents.id} in (select id from order_events where action = 'status' and to_value = 'Refunds' order by id limit 15)`,
      );

    for (const [from, to] of [
      [daysAgo(500), daysAgo(0)],
      [daysAgo(40), daysAgo(0)],
    ] as const) {
      expect(new Map((await country(from, to)).map((r) => [r.nationality, r]))).toEqual(
        await tallyCountry(from, to),
      );
      expect(new Map((await processed(from, to)).map((r) => [r.processed_by, r.count]))).toEqual(
        await tallyProcessed(from, to),
      );
    }
  });

  it('moves the future counts on when the service day turns', async () => {
    const nat = 'Tomorrowland';
    const today = serviceToday();
    const tomorrow = dayjs(today).add(1, 'day').format('YYYY-MM-DD');
    await createOrder(t.database, { nationality: nat, processing_date: tomorrow });
    await createOrder(t.database, {
      nationality: nat,
      processing_date: dayjs(today).add(2, 'day').format('YYYY-MM-DD'),
    });
    const range = { fromDate: today, toDate: today };
    const mine = (rows: CountryReportRow[]) => rows.find((r) => r.nationality === nat);
    expect(mine(await countryReport(t.database.sql, range))?.future_count).toBe(2);
    // Tomorrow (service time zone noon) the first order is due, so only one is still a future order.
    const noonTomorrow = dayjs.tz(`${tomorrow} 12:00`, SERVICE_TIME_ZONE).toDate();
    expect(mine(await countryReport(t.database.sql, range, noonTomorrow))?.future_count).toBe(1);
    // The rollup is now a day ahead of this clock: the report still answers for today, from the orders.
    expect(mine(await country(today, today))?.future_count).toBe(2);
    expect(new Map((await country(daysAgo(500), today)).map((r) => [r.nationality, r]))).toEqual(
      await tallyCountry(daysAgo(500), today),
    );
    await t.database.sql.query(`update report_future_state set as_of = '2000-01-01'`);
    expect(mine(await country(today, today))?.future_count).toBe(2);
  });
});

describe('wholeMonths', () => {
  it('finds the calendar months that lie entirely inside a range', () => {
    expect(wholeMonths({ fromDate: '2025-01-01', toDate: '2025-12-31' })).toEqual([
      '2025-01-01',
      '2026-01-01',
    ]);
    expect(wholeMonths({ fromDate: '2025-01-15', toDate: '2025-04-10' })).toEqual([
      '2025-02-01',
      '2025-04-01',
    ]);
    expect(wholeMonths({ fromDate: '2024-02-01', toDate: '2024-02-29' })).toEqual([
      '2024-02-01',
      '2024-03-01',
    ]);
    // None inside: the interval is empty (start on or after end), so every day comes from the day rows.
    const [a, b] = wholeMonths({ fromDate: '2025-03-15', toDate: '2025-03-20' });
    expect(a >= b).toBe(true);
  });
});
