import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrders } from '../test/factories.js';

/**
 * Two server instances on one PostgreSQL database, 10 machines claiming on each at the same time: every
 * order is claimed once. PGlite cannot have two instances, so this runs with TEST_DATABASE_URL.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('submission jobs on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ PASSPORT_MIN_VALIDITY_DAYS: '0' });
    b = await createTestApp({ PASSPORT_MIN_VALIDITY_DAYS: '0' }, { sameDatabaseAs: a });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('claims each of 30 open orders once under 20 concurrent claimers on two instances', async () => {
    await a.database.sql.query(
      `update orders set assigned_to = (select id from staff_users where role = 'Admin' order by id limit 1)
       where process_status = 'New' and assigned_to is null`,
    );
    const made = await createOrders(a.database, 30);
    const keys: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const res = await a.as('Admin', {
        method: 'POST',
        url: '/api/admin/api-keys',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: `Twin ${i}`, scopes: ['submission'], maxPerMinute: 600 }),
      });
      expect(res.statusCode).toBe(200);
      keys.push(res.json().data.key);
    }
    const answers = await Promise.all(
      keys.flatMap((key, i) =>
        [0, 1].map(() =>
          (i % 2 ? a : b).app.inject({
            method: 'POST',
            url: '/api/submission-jobs/claim',
            headers: { authorization: `Bearer ${key}` },
          }),
        ),
      ),
    );
    expect(answers.filter((r) => r.statusCode !== 200 && r.statusCode !== 204).map((r) => r.body)).toEqual(
      [],
    );
    const ids = answers.filter((r) => r.statusCode === 200).map((r) => r.json().data.orderId as number);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(30);
    expect([...ids].sort()).toEqual(made.map((o) => o.orderId).sort());
  });
});
