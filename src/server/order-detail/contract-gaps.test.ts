import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceToday } from '../../shared/dates.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/** The names the last round's contracts gave, answered as named (old names kept). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('contract gaps of the last round', () => {
  it('contract: the order detail carries checks and duplicates as the checks route does, and the dispute', async () => {
    const order = await createOrder(t.database, {
      email: 'someone@gmial.com',
      re_enter_email: 'someone@gmial.com',
      process_status: 'ChargeBack',
    });
    await t.database.sql.query(
      `insert into payment_disputes (provider, dispute_id, order_id, charge_id, amount, currency, reason, status, due_by)
       values ('stripe', $1, $2, 'ch_x', 5900, 'USD', 'fraudulent', 'needs_response', now() + interval '5 days')`,
      [`dp_contract${order.orderId}`, order.orderId],
    );
    const detail = await t.as('Telecaller', {
      method: 'GET',
      url: `/api/admin/get-orders-details/${order.orderId}`,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const checks = await t.as('Telecaller', {
      method: 'GET',
      url: `/api/admin/orders/${order.orderId}/checks`,
    });
    const data = detail.json().data;
    expect(Array.isArray(data.checks)).toBe(true);
    expect(data.checks).toEqual(checks.json().data.checks);
    expect(data.duplicates).toEqual(checks.json().data.duplicates);
    expect(data.dispute).toMatchObject({
      dispute_id: `dp_contract${order.orderId}`,
      status: 'needs_response',
      reason: 'fraudulent',
      amount: '59.00 USD',
      takes_evidence: true,
    });
    const plain = await createOrder(t.database);
    const none = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${plain.orderId}` });
    expect(none.json().data.dispute).toBeNull();
  });

  it('contract: get-orders-list accepts the folder customerReplied (Order History filtered), old names kept', async () => {
    const replied = await createOrder(t.database, { process_status: 'New', assigned_to: null });
    await t.database.sql.query('update orders set customer_replied_at = now() where order_id = $1', [
      replied.orderId,
    ]);
    const other = await createOrder(t.database, { process_status: 'New' });
    const res = await t.as('Team', { method: 'GET', url: '/api/admin/get-orders-list/customerReplied' });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().data.map((r: { order_id: number }) => r.order_id);
    expect(ids).toContain(replied.orderId);
    expect(ids).not.toContain(other.orderId);
    const old = await t.as('Team', {
      method: 'GET',
      url: '/api/admin/get-orders-list/allOrder?customerReplied=true',
    });
    expect(old.json().data.map((r: { order_id: number }) => r.order_id)).toEqual(ids);
    // A Telecaller may not read Order History: nor this list.
    expect(
      (await t.as('Telecaller', { method: 'GET', url: '/api/admin/get-orders-list/customerReplied' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.as('Team', { method: 'GET', url: '/api/admin/get-orders-list/customerreplied' })).statusCode,
    ).toBe(404);
  });

  it('contract: insights have a disputes section (payments.disputes kept)', async () => {
    const today = serviceToday();
    const res = await t.as('Manager', {
      method: 'GET',
      url: `/api/admin/insights?from=${today}&to=${today}`,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.disputes).toEqual(data.payments.disputes);
    expect(data.disputes).toMatchObject({ opened: expect.any(Number), won: expect.any(Number), lost: 0 });
  });
});
