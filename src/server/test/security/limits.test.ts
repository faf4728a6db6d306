import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.js';

/** Limits (docs/security.md): page size, body size, report range and a statement timeout. */
describe('limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a request for a million rows instead of attempting it', async () => {
    const res = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/get-orders-list/allOrder?page=1&limit=1000000',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/limit/);
  });

  it('refuses nonsense pages', async () => {
    for (const page of ['0', '-5', '1.5', 'abc']) {
      const res = await t.as('Admin', {
        method: 'GET',
        url: `/api/admin/get-orders-list/newOrder?page=${page}&limit=10`,
      });
      expect(res.statusCode, page).toBe(400);
    }
  });

  it('refuses report ranges over three years and reversed ranges', async () => {
    const long = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/get-country-order-count',
      payload: { fromDate: '2020-01-01', toDate: '2025-01-01' },
    });
    expect(long.statusCode).toBe(400);
    const reversed = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/get-processed-by-count',
      payload: { fromDate: '2025-02-01', toDate: '2025-01-01' },
    });
    expect(reversed.statusCode).toBe(400);
  });

  it('refuses JSON bodies over 1 MB with 413', async () => {
    const res = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        searchVal: 'x'.repeat(1_100_000),
        folderName: 'allOrder',
        start: 0,
        end: 10,
      }),
    });
    expect(res.statusCode).toBe(413);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('runs every PostgreSQL statement under a timeout', async () => {
    const { rows } = await t.database.sql.query<{ statement_timeout: string }>('show statement_timeout');
    expect(rows[0]!.statement_timeout).toBe('15s');
  });
});
