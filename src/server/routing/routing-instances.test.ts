import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WeekHours } from '../../shared/contracts/routing.js';
import { routeOrders } from '../flows/route-orders.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrders } from '../test/factories.js';

/**
 * Two server instances on one PostgreSQL database, each running its router passes at the same time over
 * 200 orders that arrived together: every order is assigned once, nobody above capacity. PGlite cannot
 * have two instances, so this runs with TEST_DATABASE_URL.
 */
const ALWAYS: WeekHours = {
  mon: [['00:00', '24:00']],
  tue: [['00:00', '24:00']],
  wed: [['00:00', '24:00']],
  thu: [['00:00', '24:00']],
  fri: [['00:00', '24:00']],
  sat: [['00:00', '24:00']],
  sun: [['00:00', '24:00']],
};
const MEMBERS = 20;
const CAPACITY = 8;
const ORDERS = 200;

describe.skipIf(!process.env.TEST_DATABASE_URL)('routing on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, { sameDatabaseAs: a });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('assigns each of 200 orders arriving together once, nobody above capacity', async () => {
    const sql = a.database.sql;
    await sql.query(
      `insert into staff_users (name, email, password_hash, role, capacity, languages, shift)
       select 'Router ' || i, 'router' || i || '@example.com', 'x', 'Team', $1, case when i % 4 = 0 then '{es,en}'::text[] else '{en}'::text[] end, $2::jsonb
       from generate_series(1, $3) i`,
      [CAPACITY, JSON.stringify(ALWAYS), MEMBERS],
    );
    const manager = await a.as('Manager', {
      method: 'PUT',
      url: '/api/admin/routing-policy',
      payload: {
        routing: { newOrder: 'auto', priorityOrder: 'auto', customerAnswers: 'off' },
        idleMinutesToRelease: null,
      },
    });
    expect(manager.statusCode).toBe(200);
    await Promise.all([
      createOrders(a.database, ORDERS / 2, { processing_mode: 'Standard' }),
      createOrders(b.database, ORDERS / 4, { processing_mode: 'Priority' }),
      createOrders(b.database, ORDERS / 4, { processing_mode: 'Standard', language: 'es' }),
    ]);
    const now = new Date();
    // Each instance runs passes as its timer would, several at once.
    let assigned = 0;
    for (let round = 0; round < 5; round++) {
      const counts = await Promise.all([
        routeOrders(a.database.db, now),
        routeOrders(b.database.db, now),
        routeOrders(a.database.db, now),
        routeOrders(b.database.db, now),
      ]);
      assigned += counts.reduce((x, y) => x + y, 0);
    }
    expect(assigned).toBeGreaterThan(0);
    expect(assigned).toBeLessThanOrEqual(MEMBERS * CAPACITY);
    const { rows: perOrder } = await sql.query<{ order_id: string; n: number }>(
      `select order_id, count(*)::int n from order_events where action = 'assign' and actor_id is null group by 1 having count(*) > 1`,
    );
    expect(perOrder).toEqual([]);
    const { rows: load } = await sql.query<{ id: number; held: number; es: boolean }>(
      `select s.id, 'es' = any(s.languages) es, count(o.order_id)::int held from staff_users s
       left join orders o on o.assigned_to = s.id and o.process_status not in ('Completed', 'Deleted', 'Refunded')
       where s.name like 'Router %' group by s.id`,
    );
    expect(load).toHaveLength(MEMBERS);
    for (const m of load) expect(m.held).toBeLessThanOrEqual(CAPACITY);
    expect(load.reduce((n, m) => n + m.held, 0)).toBe(assigned);
    const { rows: events } = await sql.query<{ n: number }>(
      `select count(*)::int n from order_events where action = 'assign' and actor_id is null`,
    );
    expect(events[0]!.n).toBe(assigned);
    // Whoever still has room speaks no Spanish, and only Spanish orders wait (for the Spanish speakers).
    const { rows: left } = await sql.query<{ language: string | null }>(
      `select language from orders where assigned_to is null and process_status = 'New'`,
    );
    expect(left.length).toBe(ORDERS - assigned);
    if (load.some((m) => m.held < CAPACITY)) {
      expect(left.every((o) => o.language === 'es')).toBe(true);
      expect(load.filter((m) => m.held < CAPACITY).every((m) => !m.es)).toBe(true);
    }
    // The Priority orders went first: none waits while a Standard one was handed out.
    const { rows: waiting } = await sql.query<{ mode: string; n: number }>(
      `select processing_mode mode, count(*)::int n from orders where assigned_to is null and process_status = 'New' group by 1`,
    );
    expect(waiting.find((w) => w.mode === 'Priority')).toBeUndefined();
    // Spanish orders went to Spanish speakers.
    const { rows: wrong } = await sql.query(
      `select 1 from orders o join staff_users s on s.id = o.assigned_to
       where o.language = 'es' and not ('es' = any(s.languages))`,
    );
    expect(wrong).toEqual([]);
  }, 120_000);
});
