import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { scanWaiting } from './waiting.js';

const DAY = 24 * 60 * 60_000;

/**
 * The waiting policy reads only the orders whose next step is due (orders.waiting_next_at,
 * drizzle/0100): entering Awaiting asks for a look at the next pass, each look writes the next step's
 * time, leaving Awaiting clears it, and a pass before that time does not read the order at all.
 */
describe('the waiting policy reads only the orders with a step due', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function nextLook(orderId: number): Promise<string | null> {
    const { rows } = await t.database.sql.query<{ at: string | null }>(
      `select case when waiting_next_at is null then null
                   when waiting_next_at = '-infinity' then '-infinity'
                   else to_char(waiting_next_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') end as at
       from orders where order_id = $1`,
      [orderId],
    );
    return rows[0]!.at;
  }
  const iso = (d: Date) => d.toISOString().slice(0, 19);

  it('a look at the next pass on entering Awaiting, then each step’s time, then nothing once it leaves', async () => {
    const now = new Date();
    const since = new Date(now.getTime() - 1 * DAY);
    const order = await createOrder(t.database, { process_status: 'Awaiting' });
    await t.database.sql.query(
      `insert into order_events (order_id, action, from_value, to_value, created_at) values ($1, 'status', 'New', 'Awaiting', $2)`,
      [order.orderId, since],
    );
    expect(await nextLook(order.orderId)).toBe('-infinity');

    // Nothing due yet (one day of two): the first reminder's time.
    expect(await scanWaiting(t.database.db, now)).toBe(0);
    expect(await nextLook(order.orderId)).toBe(iso(new Date(since.getTime() + 2 * DAY)));

    // A pass before that time does not read the order: a step made due by another clock is not taken.
    await t.database.sql.query(`update orders set waiting_next_at = $2 where order_id = $1`, [
      order.orderId,
      new Date(now.getTime() + 365 * DAY),
    ]);
    expect(await scanWaiting(t.database.db, new Date(since.getTime() + 3 * DAY))).toBe(0);
    await t.database.sql.query(`update orders set waiting_next_at = $2 where order_id = $1`, [
      order.orderId,
      new Date(since.getTime() + 2 * DAY),
    ]);

    // Two days on: the reminder, and the second reminder's time.
    expect(await scanWaiting(t.database.db, new Date(since.getTime() + 2 * DAY + 60_000))).toBe(1);
    expect(await nextLook(order.orderId)).toBe(iso(new Date(since.getTime() + 4 * DAY)));

    // Six days on: Contact Customer; out of Awaiting, no time is left.
    expect(await scanWaiting(t.database.db, new Date(since.getTime() + 6 * DAY + 60_000))).toBe(1);
    expect(await nextLook(order.orderId)).toBeNull();
  });

  it('a change of the policy has every waiting order looked at again', async () => {
    const order = await createOrder(t.database, { process_status: 'Awaiting' });
    await scanWaiting(t.database.db, new Date());
    expect(await nextLook(order.orderId)).not.toBe('-infinity');
    const put = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/waiting-policy',
      payload: { remindAfterMinutes: 60, secondReminderAfterMinutes: 120, escalateAfterMinutes: 180 },
    });
    expect(put.statusCode).toBe(200);
    expect(await nextLook(order.orderId)).toBe('-infinity');
  });
});
