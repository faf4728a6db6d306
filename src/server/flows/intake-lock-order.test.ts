import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceToday } from '../../shared/dates.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { buildOrder } from '../test/factories.js';

/**
 * Intake locks its possible duplicates before it writes the order (decision 446), as every other writer
 * locks orders before the counters. A second connection plays a routing pass: it holds a duplicate
 * locked while the intake runs, then assigns it (which updates the same folder counter row the intake's
 * insert takes). Were the intake to insert first, each would wait for the other: a deadlock. PGlite
 * has one connection, so this runs with TEST_DATABASE_URL.
 */
const KEY = 'intake-key-for-lock-order-tests-0123456789';
const day = (n: number) =>
  new Date(Date.parse(`${serviceToday()}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe.skipIf(!process.env.TEST_DATABASE_URL)('intake beside a routing pass', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ INTAKE_API_KEY: KEY });
    b = await createTestApp({ INTAKE_API_KEY: KEY }, { sameDatabaseAs: a });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const intake = (overrides: Record<string, unknown>) =>
    a.app.inject({
      method: 'POST',
      url: '/api/intake/orders',
      headers: { 'content-type': 'application/json', 'x-intake-key': KEY },
      payload: JSON.stringify(
        buildOrder({
          first_name: 'Ann',
          last_name: 'Smith',
          processing_date: serviceToday(),
          processing_mode: 'Standard',
          arrival_date: day(10),
          departure_date: day(17),
          ...overrides,
        }),
      ),
    });

  it('waits for a pass that holds its duplicate, and neither fails', async () => {
    const passport = `L${Date.now().toString().slice(-8)}`;
    const first = await intake({
      passport_number: passport,
      email: 'first@example.com',
      re_enter_email: null,
    });
    expect(first.statusCode, first.body).toBe(200);
    const duplicate = first.json().data.order_id as number;
    const { rows } = await a.database.sql.query<{ id: number }>(
      `select id from staff_users where deleted_at is null order by id limit 1`,
    );
    const member = rows[0]!.id;

    let second: ReturnType<typeof intake> | null = null;
    await b.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from orders where order_id = ${duplicate} for update`);
      second = intake({ passport_number: passport, email: 'second@example.com', re_enter_email: null });
      // The intake runs until it waits for the duplicate.
      await new Promise((r) => setTimeout(r, 500));
      // The pass assigns it: the unassigned New orders' counter row of that day, the intake's insert's.
      await tx.execute(sql`update orders set assigned_to = ${member} where order_id = ${duplicate}`);
    });
    const res = await second!;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.checks.map((c: { code: string }) => c.code)).toContain('possible_duplicate');
    const after = await a.database.sql.query<{ assigned_to: number }>(
      `select assigned_to from orders where order_id = $1`,
      [duplicate],
    );
    expect(after.rows[0]!.assigned_to).toBe(member);
  });
});
