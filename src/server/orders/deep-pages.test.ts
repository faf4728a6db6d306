import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../db/seed.js';
import { createTestApp, type TestApp } from '../test/app.js';

/**
 * Deep pages are read from the oldest end (list-pages.ts listFolder): they must be exactly the pages the
 * newest-first order gives, down to the partial last page.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.database, { orders: 12_000, documents: 0, dataDir: t.config.DATA_DIR });
}, 180_000);
afterAll(() => t.close());

async function expected(where: string, offset: number, limit: number): Promise<number[]> {
  const { rows } = await t.database.sql.query<{ order_id: string }>(
    `select order_id::text from orders where ${where}
     order by created_at desc nulls last, order_id desc nulls last limit ${limit} offset ${offset}`,
  );
  return rows.map((r) => Number(r.order_id));
}

async function page(folder: string, p: number, limit: number): Promise<number[]> {
  const res = await t.as('Admin', {
    method: 'GET',
    url: `/api/admin/get-orders-list/${folder}?page=${p}&limit=${limit}`,
  });
  expect(res.statusCode).toBe(200);
  return (res.json().data as { order_id: number }[]).map((r) => r.order_id);
}

describe('deep pages', () => {
  it('answers every deep page of Order History exactly as the newest-first order', async () => {
    const { rows } = await t.database.sql.query<{ n: string }>(
      "select count(*)::text n from orders where process_status <> 'Deleted'",
    );
    const total = Number(rows[0]!.n);
    const limit = 100;
    const last = Math.ceil(total / limit);
    expect(last).toBeGreaterThan(60);
    // Twice: the second pass seeks from the keys the first one left (both ends of the list).
    const pages = [51, 52, Math.floor(last / 2), Math.floor(last / 2) + 1, last - 1, last, last + 1];
    for (const p of [...pages, ...pages, last - 2]) {
      expect(await page('allOrder', p, limit), `page ${p}`).toEqual(
        await expected("process_status <> 'Deleted'", (p - 1) * limit, limit),
      );
    }
  });

  it('works for a folder whose rows interleave with others (Completed), limit 25', async () => {
    const { rows } = await t.database.sql.query<{ n: string }>(
      "select count(*)::text n from orders where process_status = 'Completed'",
    );
    const total = Number(rows[0]!.n);
    const last = Math.ceil(total / 25);
    expect(total).toBeGreaterThan(5000);
    for (const p of [201, last - 2, last]) {
      expect(await page('completedOrder', p, 25), `page ${p}`).toEqual(
        await expected("process_status = 'Completed'", (p - 1) * 25, 25),
      );
    }
  });

  it('seeks from the keys of pages already read (keyset under the page numbers), exact after changes', async () => {
    const where = "process_status <> 'Deleted'";
    const limit = 7;
    const check = async (pages: number[]) => {
      for (const p of pages) {
        expect(await page('allOrder', p, limit), `page ${p}`).toEqual(
          await expected(where, (p - 1) * limit, limit),
        );
      }
    };
    // In order (each page seeks from the previous one's last key), a far page twice, around it.
    await check([1, 2, 3, 4, 5, 40, 40, 39, 41, 44, 3]);
    // A new order (newest) shifts every page by one row: the keys are dropped when the change is heard.
    const { createOrder } = await import('../test/factories.js');
    await createOrder(t.database);
    const started = Date.now();
    for (;;) {
      const got = await page('allOrder', 2, limit);
      const want = await expected(where, limit, limit);
      if (JSON.stringify(got) === JSON.stringify(want) || Date.now() - started > 1_000) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await check([2, 3, 40, 41, 1]);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'a list read past its statement timeout answers 503 and holds no connection',
    async () => {
      const { lists } = t.app.ctx;
      lists.timeoutMs = 1;
      try {
        const res = await t.as('Admin', {
          method: 'GET',
          url: '/api/admin/get-orders-list/allOrder?page=90&limit=100&sort=name',
        });
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json().message).toMatch(/took too long/);
      } finally {
        lists.timeoutMs = 3_000;
      }
      const again = await t.as('Admin', {
        method: 'GET',
        url: '/api/admin/get-orders-list/allOrder?page=90&limit=100&sort=name',
      });
      expect(again.statusCode).toBe(200);
      expect(t.database.poolStats?.().waiting).toBe(0);
    },
  );
});
