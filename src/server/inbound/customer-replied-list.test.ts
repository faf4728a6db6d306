import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/** The "Customer replied" list: the same orders the sidebar count holds, with the row and detail mark. */
describe('the Customer replied filter, row and detail mark', () => {
  let t: TestApp;
  let teamId: number;
  let otherId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const { rows } = await t.database.sql.query<{ id: number; role: string }>(
      "select id, role from staff_users where role in ('Team', 'Admin') and deleted_at is null order by id",
    );
    teamId = rows.find((r) => r.role === 'Team')!.id;
    otherId = rows.find((r) => r.role === 'Admin')!.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const listIds = async (query: string) => {
    const res = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-list/allOrder?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const rows = (Array.isArray(data) ? data : (data.orders ?? data.rows)) as {
      order_id: number;
      customer_replied?: boolean;
    }[];
    return { rows, ids: rows.map((r) => r.order_id) };
  };
  const replied = (orderId: number) =>
    t.database.sql.query('update orders set customer_replied_at = now() where order_id = $1', [orderId]);

  it('lists the held and unassigned orders with an unread answer, as many as the count; reading clears it', async () => {
    const mine = await createOrder(t.database, { assigned_to: teamId });
    const open = await createOrder(t.database, {});
    const theirs = await createOrder(t.database, { assigned_to: otherId });
    const quiet = await createOrder(t.database, { assigned_to: teamId });
    for (const o of [mine, open, theirs]) await replied(o.orderId);

    const { rows, ids } = await listIds('limit=500&customerReplied=true');
    expect(ids).toContain(mine.orderId);
    expect(ids).toContain(open.orderId);
    expect(ids).not.toContain(theirs.orderId);
    expect(ids).not.toContain(quiet.orderId);
    expect(rows.every((r) => r.customer_replied === true)).toBe(true);
    const counts = (await t.as('Team', { method: 'GET', url: '/api/admin/get-folder-count' })).json().data;
    expect(counts.repliedCount).toBe(rows.length);

    // Unfiltered, the row carries the mark either way.
    const all = await listIds('limit=500');
    expect(all.rows.find((r) => r.order_id === theirs.orderId)?.customer_replied).toBe(true);
    expect(all.rows.find((r) => r.order_id === quiet.orderId)?.customer_replied).toBe(false);

    const detail = async (id: number) =>
      (await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${id}` })).json().data;
    expect((await detail(mine.orderId)).customer_replied).toBe(true);
    expect((await detail(quiet.orderId)).customer_replied).toBe(false);

    // Loading the conversation does not read the answer; it is read once on screen (or "Mark read"):
    // then the order leaves the list and the mark goes.
    const conv = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${mine.orderId}/conversation` });
    expect(conv.statusCode).toBe(200);
    expect((await detail(mine.orderId)).customer_replied).toBe(true);
    const read = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${mine.orderId}/conversation/read`,
      payload: {},
    });
    expect(read.statusCode).toBe(200);
    expect((await listIds('limit=500&customerReplied=true')).ids).not.toContain(mine.orderId);
    expect((await detail(mine.orderId)).customer_replied).toBe(false);
  });

  it('refuses a hostile filter value with a 400 and no list', async () => {
    for (const v of ['yes', 'true%00', 'true%0A', 'x'.repeat(5000)]) {
      const res = await t.as('Team', {
        method: 'GET',
        url: `/api/admin/get-orders-list/allOrder?customerReplied=${v}`,
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
  });
});
