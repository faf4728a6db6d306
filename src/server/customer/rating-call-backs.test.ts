import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { signCustomerToken } from './tokens.js';

/** A low rating's call-back reaches the Telecallers' call-backs due, count and list (decision 383). */
describe('the call-back a low rating asks for', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const q = async <T>(text: string, params: unknown[] = []) =>
    (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;
  const counts = async (role: DemoRole) =>
    (await t.as(role, { method: 'GET', url: '/api/admin/get-folder-count' })).json().data.callBackDueCount;
  const list = async (role: DemoRole) => {
    const res = await t.as(role, { method: 'GET', url: '/api/admin/call-backs-due' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { orderId: number; fromCustomer: boolean; note: string; status: string }[];
  };
  const rate = async (orderId: number, score: number, comment: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/customer/orders/${orderId}/rating`,
      headers: { authorization: `Bearer ${await signCustomerToken(t.config.JWT_SECRET, orderId)}` },
      payload: { score, comment },
    });
  const theHourPasses = (orderId: number) =>
    q("update order_contacts set call_back_at = now() - interval '1 minute' where order_id = $1", [orderId]);

  it('counts and lists it for every Telecaller once due, on the Completed order nobody holds, until one logs a contact', async () => {
    const before = { telecaller: await counts('Telecaller'), team: await counts('Team') };
    const order = await createOrder(t.database, { process_status: 'Completed' });
    const res = await rate(order.orderId, 2, 'Nobody answered my mail');
    expect(res.statusCode, res.body).toBe(200);
    // Due within the hour, not yet.
    expect(await counts('Telecaller')).toBe(before.telecaller);
    expect((await list('Telecaller')).some((c) => c.orderId === order.orderId)).toBe(false);

    await theHourPasses(order.orderId);
    expect(await counts('Telecaller')).toBe(before.telecaller + 1);
    expect((await list('Telecaller')).find((c) => c.orderId === order.orderId)).toMatchObject({
      fromCustomer: true,
      status: 'Completed',
      note: 'Rated 2 of 5: Nobody answered my mail',
    });
    // The other roles work their own call-backs only.
    expect(await counts('Team')).toBe(before.team);
    expect((await list('Team')).some((c) => c.orderId === order.orderId)).toBe(false);

    // A Telecaller calls and logs it: it leaves the queue of every Telecaller.
    const logged = await t.as('Telecaller', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/contacts`,
      payload: { channel: 'call', outcome: 'reached', note: 'Apologised, explained the delay' },
    });
    expect(logged.statusCode, logged.body).toBe(200);
    expect(await counts('Telecaller')).toBe(before.telecaller);
    expect((await list('Telecaller')).some((c) => c.orderId === order.orderId)).toBe(false);
  });

  it("lists a member's own due call-backs on open orders they hold, not a deleted order's", async () => {
    const [me] = await q<{ id: number }>(
      "select id from staff_users where role = 'Team' and deleted_at is null order by id limit 1",
    );
    const held = await createOrder(t.database, { process_status: 'Contact Customer' });
    await q('update orders set assigned_to = $1 where order_id = $2', [me!.id, held.orderId]);
    await q(
      "insert into order_contacts (order_id, staff_id, channel, outcome, call_back_at) values ($1, $2, 'call', 'call_back', now() - interval '5 minutes')",
      [held.orderId, me!.id],
    );
    const gone = await createOrder(t.database, { process_status: 'Completed' });
    expect((await rate(gone.orderId, 1, '')).statusCode).toBe(200);
    await theHourPasses(gone.orderId);
    await q("update orders set process_status = 'Deleted' where order_id = $1", [gone.orderId]);

    expect((await list('Team')).find((c) => c.orderId === held.orderId)).toMatchObject({
      fromCustomer: false,
    });
    expect((await list('Telecaller')).some((c) => c.orderId === held.orderId)).toBe(false);
    expect((await list('Telecaller')).some((c) => c.orderId === gone.orderId)).toBe(false);
  });

  it('answers 401 without a staff token and ignores a hostile query', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/call-backs-due' })).statusCode).toBe(401);
    const res = await t.as('Telecaller', {
      method: 'GET',
      url: '/api/admin/call-backs-due?staffId=1&x=%00%01',
    });
    expect(res.statusCode).toBeLessThan(500);
  });
});
