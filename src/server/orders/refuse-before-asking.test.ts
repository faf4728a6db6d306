import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/**
 * Decision 357: a move the actor may not make at all is refused (403, or the holder's 409) before
 * anyone is asked "… just moved this — continue?"; only a move that would go through asks.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const move = (role: DemoRole, orderId: number, updatingStatus: string, extra: Record<string, unknown> = {}) =>
  t.as(role, {
    method: 'PUT',
    url: '/api/admin/move-order-status',
    payload: { orderId, updatingStatus, ...extra },
  });
const statusOf = async (orderId: number) =>
  (
    await t.database.sql.query<{ process_status: string }>(
      'select process_status from orders where order_id = $1',
      [orderId],
    )
  ).rows[0]!.process_status;
const staffId = async (name: string) =>
  (await t.database.sql.query<{ id: number }>('select id from staff_users where name = $1', [name])).rows[0]!
    .id;

describe('refuse before asking', () => {
  for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
    it(`refuse before asking: ${role} moving an order out of Completed Refunds a Manager just moved there gets 403, not "continue?"`, async () => {
      const order = await createOrder(t.database, {
        process_status: 'Refunds',
        merchant_name: 'PayPal',
        assigned_to: null,
      });
      expect((await move('Manager', order.orderId, 'Refunded')).statusCode).toBe(200);
      const res = await move(role, order.orderId, 'Awaiting');
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).not.toMatch(/just moved this/);
      expect(res.json().data?.recentMove).toBeUndefined();
      // Even when the actor says "continue", the answer is the same refusal.
      expect((await move(role, order.orderId, 'Awaiting', { confirmRecent: true })).statusCode).toBe(403);
      expect(await statusOf(order.orderId)).toBe('Refunded');
    });

    it(`refuse before asking: ${role} moving an order an Admin holds and just moved gets the holder's refusal, not "continue?"`, async () => {
      const admin = await staffId('Demo Admin');
      const order = await createOrder(t.database, { process_status: 'New', assigned_to: admin });
      expect((await move('Admin', order.orderId, 'Customer Called')).statusCode).toBe(200);
      const res = await move(role, order.orderId, 'Contact Customer');
      expect(res.json().message).not.toMatch(/just moved this/);
      expect(res.json().data?.recentMove).toBeUndefined();
      expect([403, 409]).toContain(res.statusCode);
      expect(await statusOf(order.orderId)).toBe('Customer Called');
    });

    it(`refuse before asking: ${role} making an allowed move right after someone else is asked "continue?"`, async () => {
      const order = await createOrder(t.database, { process_status: 'New', assigned_to: null });
      expect((await move('Manager', order.orderId, 'Customer Called')).statusCode).toBe(200);
      const res = await move(role, order.orderId, 'Contact Customer');
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe('Demo Manager just moved this to Customer Called — continue?');
    });
  }
});
