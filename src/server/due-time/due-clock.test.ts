import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderListRow } from '../../shared/contracts/orders.js';
import { serviceToday } from '../../shared/dates.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { addCurrentCard, createOrder } from '../test/factories.js';

// The Late count means late (docs/decisions/316): the due clock stands still while an order waits on
// someone else and resumes when it comes back; an order whose trip has passed is "Trip passed", not late.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const day = (offset: number) => serviceToday(new Date(Date.now() + offset * DAY));

async function row(orderId: number) {
  const { rows } = await t.database.sql.query<{
    due_at: Date | null;
    due_paused_at: Date | null;
    due_paused_seconds: number;
    trip_ends_at: Date | null;
  }>('select due_at, due_paused_at, due_paused_seconds, trip_ends_at from orders where order_id = $1', [
    orderId,
  ]);
  return rows[0]!;
}

const move = (orderId: number, updatingStatus: string) =>
  t.as('Team', { method: 'PUT', url: '/api/admin/move-order-status', payload: { orderId, updatingStatus } });

async function counts() {
  const res = await t.as('Admin', { method: 'GET', url: '/api/admin/get-folder-count' });
  expect(res.statusCode).toBe(200);
  const d = res.json().data;
  return { late: d.breachedCount as number, tripPassed: d.tripPassedCount as number };
}

/** The counts once the in-memory counts have heard of the last change (a notification away). */
async function countsSettled(expected: (c: { late: number; tripPassed: number }) => boolean) {
  const started = Date.now();
  for (;;) {
    const c = await counts();
    if (expected(c) || Date.now() - started > 2_000) return c;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function list(dueState: string) {
  const res = await t.as('Admin', {
    method: 'GET',
    url: `/api/admin/get-orders-list/allOrder?dueState=${dueState}&limit=100`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data ?? []) as OrderListRow[];
}

async function detailState(orderId: number) {
  const res = await t.as('Admin', { method: 'GET', url: `/api/admin/get-orders-details/${orderId}` });
  expect(res.statusCode).toBe(200);
  return res.json().data.due_state as string | null;
}

describe('the due clock', () => {
  it('pauses in Awaiting Customer and resumes where it stopped when the order comes back', async () => {
    // Paid 5 days ago, arriving in 20 days: due 72 h after payment, so already late.
    const order = await createOrder(t.database, {
      arrival_date: day(20),
      processing_date: day(-5),
    });
    await t.database.sql.query(
      `update orders set created_at = now() - interval '5 days' where order_id = $1`,
      [order.orderId],
    );
    const before = await row(order.orderId);
    expect(before.due_at).not.toBeNull();
    expect(await detailState(order.orderId)).toBe('breached');
    const lateBefore = (await counts()).late;

    expect((await move(order.orderId, 'Awaiting')).statusCode).toBe(200);
    const paused = await row(order.orderId);
    expect(paused.due_at).toBeNull();
    expect(paused.due_paused_at).not.toBeNull();
    expect(await detailState(order.orderId)).toBe('paused');
    expect((await countsSettled((c) => c.late === lateBefore - 1)).late).toBe(lateBefore - 1);
    expect((await list('paused')).map((r) => r.order_id)).toContain(order.orderId);
    expect((await list('breached')).map((r) => r.order_id)).not.toContain(order.orderId);

    // Two days waiting on the customer (the wait began two days earlier than now).
    await t.database.sql.query(
      `update orders set due_paused_at = due_paused_at - interval '2 days' where order_id = $1`,
      [order.orderId],
    );
    expect((await move(order.orderId, 'Customer Called')).statusCode).toBe(200);
    const resumed = await row(order.orderId);
    expect(resumed.due_paused_at).toBeNull();
    expect(resumed.due_paused_seconds).toBeGreaterThanOrEqual(2 * 86_400);
    expect(resumed.due_paused_seconds).toBeLessThan(2 * 86_400 + 120);
    const shift = resumed.due_at!.getTime() - before.due_at!.getTime();
    expect(shift).toBe(resumed.due_paused_seconds * 1000);

    // Awaiting Govt pauses too, and a second wait adds to the first.
    expect((await move(order.orderId, 'AwaitingGovt')).statusCode).toBe(200);
    expect((await row(order.orderId)).due_at).toBeNull();
    expect((await move(order.orderId, 'Contact Customer')).statusCode).toBe(200);
    expect((await row(order.orderId)).due_paused_seconds).toBeGreaterThanOrEqual(resumed.due_paused_seconds);
  });

  it('a completion after a wait is on time against the due time with the wait added (Insights)', async () => {
    const order = await createOrder(t.database, { arrival_date: day(20), processing_date: day(-4) });
    await t.database.sql.query(
      `update orders set created_at = now() - interval '4 days' where order_id = $1`,
      [order.orderId],
    );
    expect((await move(order.orderId, 'Awaiting')).statusCode).toBe(200);
    // Waited three days: 72 h after payment plus 3 days is still ahead, so the completion is on time.
    await t.database.sql.query(
      `update orders set due_paused_at = now() - interval '3 days' where order_id = $1`,
      [order.orderId],
    );
    await addCurrentCard(t.database, t.config.DATA_DIR, order.orderId);
    expect((await move(order.orderId, 'Completed')).statusCode).toBe(200);
    const { rows } = await t.database.sql.query<{ on_time: boolean }>(
      `select created_at <= due_at as on_time from order_events
       where order_id = $1 and action = 'status' and to_value = 'Completed'`,
      [order.orderId],
    );
    expect(rows[0]!.on_time).toBe(true);
  });
});

describe('trip passed', () => {
  it('an open order whose arrival day is over is its own state and count, never late', async () => {
    const before = await counts();
    const passed = await createOrder(t.database, { arrival_date: day(-3), processing_date: day(-6) });
    const after = await countsSettled((c) => c.tripPassed === before.tripPassed + 1);
    expect(after.tripPassed).toBe(before.tripPassed + 1);
    expect(after.late).toBe(before.late);
    expect(await detailState(passed.orderId)).toBe('trip_passed');
    const rows = await list('trip_passed');
    expect(rows.find((r) => r.order_id === passed.orderId)?.due_state).toBe('trip_passed');
    expect((await list('breached')).map((r) => r.order_id)).not.toContain(passed.orderId);
    // Waiting on the customer does not hide it: the trip is over either way.
    expect((await move(passed.orderId, 'Awaiting')).statusCode).toBe(200);
    expect(await detailState(passed.orderId)).toBe('trip_passed');
    // Refunding or closing it takes it out of the count.
    await addCurrentCard(t.database, t.config.DATA_DIR, passed.orderId);
    expect((await move(passed.orderId, 'Completed')).statusCode).toBe(200);
    expect((await row(passed.orderId)).trip_ends_at).toBeNull();
    expect((await countsSettled((c) => c.tripPassed === before.tripPassed)).tripPassed).toBe(
      before.tripPassed,
    );
  });

  it('a trip ending today is not passed yet; a hostile state filter is a clear 400', async () => {
    const today = await createOrder(t.database, { arrival_date: day(0) });
    expect(await detailState(today.orderId)).not.toBe('trip_passed');
    const bad = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/get-orders-list/allOrder?dueState=trip_passed%00',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('dueState');
  });
});
