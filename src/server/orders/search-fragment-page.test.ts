import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { buildOrder } from '../test/factories.js';
import { type OrderInsert, orderValuesFromSnake } from './columns.js';
import { SEARCH_TOTAL_CAP } from './list-search.js';

/**
 * A fragment's newest-first page and its capped total (decision 281) are exactly what sorting all
 * matches newest first (ties by id) gives, for a fragment with more matches than the cap, one with
 * fewer, and pages beyond the cap.
 */
let t: TestApp;
const MINUTE = 60_000;
const base = Date.now() - 2 * 24 * 3_600_000;
let common: { orderId: number; createdAt: Date }[] = [];
let rare: { orderId: number; createdAt: Date }[] = [];

async function insertMany(rows: { lastName: string; createdAt: Date }[]) {
  const made: { orderId: number; createdAt: Date }[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    const values: OrderInsert[] = rows.slice(i, i + 200).map((r) => ({
      ...orderValuesFromSnake(buildOrder({ last_name: r.lastName })),
      createdAt: r.createdAt,
    }));
    made.push(
      ...(await t.database.db
        .insert(orders)
        .values(values)
        .returning({ orderId: orders.orderId, createdAt: orders.createdAt })),
    );
  }
  return made;
}

const newestFirst = (rows: { orderId: number; createdAt: Date }[]) =>
  [...rows]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.orderId - a.orderId)
    .map((r) => r.orderId);
/** Every order of the common fragment, newest first. */
const all = () => newestFirst(common);

beforeAll(async () => {
  t = await createTestApp();
  // More matches than the cap, two by two on one moment (ties go by id), older than 60 others.
  common = await insertMany(
    Array.from({ length: SEARCH_TOTAL_CAP + 50 }, (_, i) => ({
      lastName: i % 3 ? 'Winfragcommon' : 'Xwinfragcommon',
      createdAt: new Date(base - Math.floor(i / 2) * MINUTE),
    })),
  );
  await insertMany(
    Array.from({ length: 60 }, (_, i) => ({
      lastName: 'Othername',
      createdAt: new Date(base + (i + 1) * MINUTE),
    })),
  );
  rare = await insertMany(
    Array.from({ length: 7 }, (_, i) => ({
      lastName: 'Rarewinfrag',
      createdAt: new Date(base - (i * 150 + 3) * MINUTE),
    })),
  );
}, 120_000);
afterAll(() => t.close());

const search = async (searchVal: string, start: number, end: number) => {
  const res = await t.as('Admin', {
    method: 'POST',
    url: '/api/admin/search-order',
    payload: { searchVal, folderName: 'allOrder', start, end },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { data: { order_id: number }[]; total: number; totalCapped: boolean };
  return { ids: body.data.map((r) => r.order_id), total: body.total, totalCapped: body.totalCapped };
};

describe('search-order: a fragment page newest first', () => {
  it('pages a common fragment newest first, ties by id, the total capped', async () => {
    expect(await search('winfragc', 0, 10)).toEqual({
      ids: all().slice(0, 10),
      total: 1000,
      totalCapped: true,
    });
    expect(await search('winfragc', 20, 30)).toEqual({
      ids: all().slice(20, 30),
      total: 1000,
      totalCapped: true,
    });
  });

  it('answers in any case, and pages beyond the cap', async () => {
    expect(await search('WINFRAGC', 0, 10)).toEqual({
      ids: all().slice(0, 10),
      total: 1000,
      totalCapped: true,
    });
    expect(await search('winfragc', 0, 10)).toEqual({
      ids: all().slice(0, 10),
      total: 1000,
      totalCapped: true,
    });
    expect(await search('winfragc', 0, 10)).toEqual({
      ids: all().slice(0, 10),
      total: 1000,
      totalCapped: true,
    });
    // Beyond the cap a page is still exact; the total covers what was asked for.
    expect(await search('winfragc', 1040, 1060)).toEqual({
      ids: all().slice(1040, 1060),
      total: 1050,
      totalCapped: true,
    });
  });

  it('answers a rare fragment from its counted matches, and a subset of the common one', async () => {
    expect(await search('rarewinf', 0, 10)).toEqual({ ids: newestFirst(rare), total: 7, totalCapped: false });
    expect(await search('rarewinf', 2, 4)).toEqual({
      ids: newestFirst(rare).slice(2, 4),
      total: 7,
      totalCapped: false,
    });
    expect(await search('rarewinf', 10, 20)).toEqual({ ids: [], total: 7, totalCapped: false });
    const x = newestFirst(common.filter((_, i) => i % 3 === 0));
    expect(x.length).toBe(350);
    expect(await search('xwinfragc', 0, 10)).toEqual({ ids: x.slice(0, 10), total: 350, totalCapped: false });
    expect(await search('xwinfragc', 340, 360)).toEqual({
      ids: x.slice(340),
      total: 350,
      totalCapped: false,
    });
    expect(await search('nosuchwinfrag', 0, 10)).toEqual({ ids: [], total: 0, totalCapped: false });
  });
});

describe('the search text statistics', () => {
  it('keep a 1,000-entry histogram of the search text, so a common fragment is estimated as common', async () => {
    // The planner walks the newest orders for a common fragment only when it knows it is common
    // (decision 454); the histogram's size is the index column's statistics target.
    const { rows } = await t.database.sql.query<{ target: number }>(
      `select attstattarget::int as target from pg_attribute
       where attrelid = 'orders_search_trgm_idx'::regclass and attnum = 1`,
    );
    expect(rows[0]?.target).toBe(1000);
    await t.database.sql.query('analyze orders');
    const { rows: stats } = await t.database.sql.query<{ bounds: number }>(
      `select coalesce(array_length(histogram_bounds, 1), 0)::int as bounds from pg_stats
       where tablename = 'orders_search_trgm_idx'`,
    );
    // Every distinct search text of this small table fits: more entries than the default 101.
    expect(stats[0]?.bounds).toBeGreaterThan(101);
    expect(await search('winfragc', 0, 10)).toEqual({
      ids: all().slice(0, 10),
      total: 1000,
      totalCapped: true,
    });
  });
});
