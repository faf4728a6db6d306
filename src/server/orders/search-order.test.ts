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
  it('answers the order with that id alone (not a fragment); other digits are fragments', async () => {
    const target = await createOrder(t.database);
    const id = String(target.orderId);
    // Orders whose phone number and e-mail contain the id's digits.
    const lookalikes = [];
    for (let i = 0; i < 4; i++) {
      lookalikes.push(
        await createOrder(t.database, {
          telephone_number: `9${id}${i}`,
          email: i === 0 ? `x${id}@example.com` : `other${i}@example.com`,
        }),
      );
    }
    const byId = await search(id, 0, 10);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json()).toMatchObject({ total: 1, totalCapped: false });
    expect(idsOf(byId)).toEqual([target.orderId]);
    // Typed as a phone (spaces, +), the same digits are a fragment: every holder, newest first.
    const asPhone = await search(`+9 ${id}`, 0, 10);
    expect(idsOf(asPhone)).toEqual(lookalikes.map((o) => o.orderId).reverse());
    expect((await search(`+9 ${id}`, 2, 4)).json().total).toBe(4);
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
  it('answers a whole e-mail address by its exact matches alone, any case; a fragment finds all', async () => {
    const a = await createOrder(t.database, { email: 'dup.person@example.com' });
    const b = await createOrder(t.database, { email: 'Dup.Person@Example.com' });
    await createOrder(t.database, { email: 'xdup.person@example.com' });
    const res = await search('DUP.person@example.com', 0, 10);
    expect(res.statusCode, res.body).toBe(200);
    expect(idsOf(res)).toEqual([b.orderId, a.orderId]);
    expect(res.json().total).toBe(2);
    expect(idsOf(await search('DUP.person@example.com', 1, 2))).toEqual([a.orderId]);
    expect((await search('dup.person@exa', 0, 10)).json().total).toBe(3);
    // An address no order of the folder has is a fragment like any other text.
    expect((await search('up.person@example.com', 0, 10)).json().total).toBe(3);
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
    // The typed id under a filter it does not meet: a fragment search (no order holds the digits).
    const outside = await search(String(mar5), 0, 10, { processingMode: 'Priority' });
    expect(outside.json().total).toBe(0);
    // A hostile sort value is refused and nothing is searched.
    expect((await search('sortsearch', 0, 10, { sort: 'order_id; drop table orders' })).statusCode).toBe(400);
  });
});
