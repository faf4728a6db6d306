import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope } from '../../shared/contracts/common.js';
import { insightsData } from '../../shared/contracts/insights.js';
import { orderDetailsResponse } from '../../shared/contracts/order-detail.js';
import { orderListRow } from '../../shared/contracts/orders.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { COMPILED_RESPONSE_ROUTES, compiledRoutes, compileResponseWriter } from './compiled-serializer.js';

/**
 * The compiled writers of the big answers (decision 224) write exactly what the zod serializer writes
 * (zod encode, then JSON.stringify): on real rows read back through the app, and on hostile strings
 * the database cannot even hold (NUL, lone surrogates).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const listResponse = envelope(z.array(orderListRow)).extend({ total: z.number().int() });
const searchResponse = envelope(z.array(orderListRow)).extend({
  total: z.number().int(),
  totalCapped: z.boolean(),
});

/** What the zod serializer of fastify-type-provider-zod writes for the same data. */
const zodJson = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data as never));

/**
 * The same answer: equal values, key for key (the compiled writer puts required keys before optional
 * ones, so `total` may come before `data`; nothing else may differ).
 */
function expectSameJson(compiled: string, zod: string) {
  const same = JSON.stringify(JSON.parse(compiled)) === JSON.stringify(JSON.parse(zod));
  expect(same || JSON.parse(compiled)).toEqual(same || JSON.parse(zod));
  expect(compiled.length).toBe(zod.length);
}

const HOSTILE = [
  'Zoë "Quote" \\ back\\slash',
  'tab\there\u0001\u0008\u000b\u001f\u007f',
  '</script><script>alert(1)</script>',
  'line\u2028sep\u2029para',
  '😀 emoji 𝄞 and ümlauts ßøå',
  'عربى עברית 中文',
];

describe('compiled response serializers', () => {
  it('are used for the list, search, detail and Insights routes', () => {
    const routes = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    for (const r of COMPILED_RESPONSE_ROUTES) expect(routes.has(r), r).toBe(true);
  });

  it('compile for every one of those routes once answered', async () => {
    const order = await createOrder(t.database);
    await t.as('Admin', { method: 'GET', url: '/api/admin/get-orders-list/allOrder?page=1&limit=5' });
    await t.as('Admin', { method: 'GET', url: `/api/admin/get-orders-details/${order.orderId}` });
    await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { folderName: 'allOrder', searchVal: 'abc' },
    });
    await t.as('Admin', { method: 'GET', url: '/api/admin/insights?from=2026-01-01&to=2026-01-31' });
    expect([...compiledRoutes].sort()).toEqual([...COMPILED_RESPONSE_ROUTES].sort());
  });

  it('write what the zod serializer writes, for real rows with hostile strings', async () => {
    const made = [];
    for (const [i, text] of HOSTILE.entries()) {
      made.push(
        await createOrder(t.database, {
          first_name: text,
          last_name: `Serializer${i} ${text}`,
          email: `ser${i}@example.com`,
          telephone_number: `555${i}`,
        }),
      );
    }
    const list = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/get-orders-list/allOrder?page=1&limit=50',
    });
    expect(list.statusCode, list.body).toBe(200);
    const listData = list.json();
    expect(listData.data.some((r: { first_name: string }) => r.first_name === HOSTILE[1])).toBe(true);
    // The answer is exactly what zod would have written for the same rows.
    expectSameJson(list.body, zodJson(listResponse, listData));
    expect(compileResponseWriter(listResponse)(listData)).toBe(list.body);

    const search = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { folderName: 'allOrder', searchVal: 'serializer', start: 0, end: 20 },
    });
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().total).toBe(HOSTILE.length);
    expectSameJson(search.body, zodJson(searchResponse, search.json()));

    const detail = await t.as('Admin', {
      method: 'GET',
      url: `/api/admin/get-orders-details/${made[1]!.orderId}`,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data.first_name ?? JSON.stringify(detail.json().data)).toContain('tab');
    expectSameJson(detail.body, zodJson(orderDetailsResponse, detail.json()));

    // Insights: a year of series, nullable figures and the staff's names.
    const year = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/insights?from=2026-01-01&to=2026-12-31',
    });
    expect(year.statusCode, year.body).toBe(200);
    expect(year.json().data.throughput).toHaveLength(365);
    expectSameJson(year.body, zodJson(envelope(insightsData), year.json()));
  });

  it('escape NUL, control characters and lone surrogates exactly as JSON.stringify', () => {
    const write = compileResponseWriter(listResponse);
    const row = (text: string, id: number) => ({
      order_id: id,
      process_status: 'New',
      first_name: text,
      last_name: text,
      arrival_date: '2031-01-01',
      email: `${id}@example.com`,
      telephone_number: text,
      phone_code: null,
      created_at: '2030-12-01T10:00:00.000Z',
      refund_date: null,
      processing_date: '2030-12-20',
      process_month: 'Dec',
      assign_to: '',
      nationality: text,
      processing_mode: 'Standard',
      due_at: null,
      due_state: null,
      check_level: 0,
      check_codes: [text],
    });
    const strings = [
      ...HOSTILE,
      'nul\u0000byte',
      'lone \ud800 high',
      'lone \udfff low',
      '',
      'x'.repeat(5000),
    ];
    const data = { status: 1, message: 'Orders\u0000', data: strings.map(row), total: strings.length };
    const valid = listResponse.safeParse(data);
    expect(valid.success, JSON.stringify(valid.error?.issues?.slice(0, 2))).toBe(true);
    expectSameJson(write(data), zodJson(listResponse, data));
    expect(JSON.parse(write(data))).toEqual(data);
    // Each string written byte for byte as JSON.stringify writes it.
    const one = compileResponseWriter(z.object({ s: z.string() }));
    for (const text of strings) expect(one({ s: text })).toBe(JSON.stringify({ s: text }));
  });
});
