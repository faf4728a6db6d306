import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/** Searching an order id shows that order first, before orders whose phone or e-mail hold the digits. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const search = (searchVal: string, start: number, end: number, extra: Record<string, unknown> = {}) =>
  t.as('Admin', {
    method: 'POST',
    url: '/api/admin/search-order',
    payload: { searchVal, folderName: 'allOrder', start, end, ...extra },
  });
const idsOf = (res: { json(): { data: { order_id: number }[] } }) => res.json().data.map((r) => r.order_id);

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

describe('search-order: exact e-mail, list filters and sort', () => {
  it('answers the orders with a whole e-mail address first, any case, then those holding it', async () => {
    const a = await createOrder(t.database, { email: 'dup.person@example.com' });
    const b = await createOrder(t.database, { email: 'Dup.Person@Example.com' });
    const c = await createOrder(t.database, { email: 'xdup.person@example.com' });
    const res = await search('DUP.person@example.com', 0, 10);
    expect(res.statusCode, res.body).toBe(200);
    expect(idsOf(res)).toEqual([b.orderId, a.orderId, c.orderId]);
    expect(res.json().total).toBe(3);
    expect(idsOf(await search('DUP.person@example.com', 2, 3))).toEqual([c.orderId]);
    expect((await search('dup.person@exa', 0, 10)).json().total).toBe(3);
  });

  it('applies the sort and the filters, the exact id still first', async () => {
    const made = [];
    for (const [arrival, mode] of [
      ['2031-03-05', 'Standard'],
      ['2031-03-01', 'Priority'],
      ['2031-03-09', 'Priority'],
    ] as const) {
      made.push(
        await createOrder(t.database, {
          last_name: 'Sortsearch',
          arrival_date: arrival,
          processing_mode: mode,
          telephone_number: '7000123',
        }),
      );
    }
    const [mar5, mar1, mar9] = made.map((o) => o.orderId);
    expect(idsOf(await search('sortsearch', 0, 10, { sort: 'arrival_date' }))).toEqual([mar1, mar5, mar9]);
    expect(idsOf(await search('sortsearch', 0, 10, { sort: 'arrival_date', dir: 'desc' }))).toEqual([
      mar9,
      mar5,
      mar1,
    ]);
    const priority = await search('sortsearch', 0, 10, { sort: 'arrival_date', processingMode: 'Priority' });
    expect(idsOf(priority)).toEqual([mar1, mar9]);
    expect(priority.json().total).toBe(2);
    // The typed id first, then the others holding the digits, in the asked order.
    const lookalike = await createOrder(t.database, {
      last_name: 'Sortsearch',
      arrival_date: '2031-02-01',
      telephone_number: `55${mar9}`,
    });
    const byId = await search(String(mar9), 0, 10, { sort: 'arrival_date' });
    expect(idsOf(byId)).toEqual([mar9, lookalike.orderId]);
    // A hostile sort value is refused and nothing is searched.
    expect((await search('sortsearch', 0, 10, { sort: 'order_id; drop table orders' })).statusCode).toBe(400);
  });
});
