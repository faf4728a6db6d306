import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/** Searching an order id shows that order first, before orders whose phone or e-mail hold the digits. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const search = (searchVal: string, start: number, end: number) =>
  t.as('Admin', {
    method: 'POST',
    url: '/api/admin/search-order',
    payload: { searchVal, folderName: 'allOrder', start, end },
  });

describe('search-order by order id', () => {
  it('answers the order with that id first, the other matches after it, newest first, without repeats', async () => {
    const target = await createOrder(t.database);
    const id = String(target.orderId);
    // Newer orders whose phone number and e-mail contain the id's digits.
    const lookalikes = [];
    for (let i = 0; i < 4; i++) {
      lookalikes.push(
        await createOrder(t.database, {
          telephone_number: `9${id}${i}`,
          email: i === 0 ? `x${id}@example.com` : `other${i}@example.com`,
        }),
      );
    }
    const first = await search(id, 0, 2);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body.total).toBe(5);
    const newestFirst = lookalikes.map((o) => o.orderId).reverse();
    expect(body.data.map((r: { order_id: number }) => r.order_id)).toEqual([target.orderId, newestFirst[0]]);
    const second = (await search(id, 2, 4)).json().data.map((r: { order_id: number }) => r.order_id);
    expect(second).toEqual(newestFirst.slice(1, 3));
    const third = (await search(id, 4, 6)).json().data.map((r: { order_id: number }) => r.order_id);
    expect(third).toEqual(newestFirst.slice(3));
  });

  it('an id outside the folder leaves the folder order alone', async () => {
    const deleted = await createOrder(t.database, { process_status: 'Deleted' });
    const lookalike = await createOrder(t.database, { telephone_number: `8${deleted.orderId}` });
    const res = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { searchVal: String(deleted.orderId), folderName: 'newOrder', start: 0, end: 10 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json().data.map((r: { order_id: number }) => r.order_id);
    expect(ids).not.toContain(deleted.orderId);
    expect(ids).toContain(lookalike.orderId);
  });
});
