import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder, createOrders } from '../test/factories.js';
import { heldOpenOrders, holderLoadJoin } from './holder-counts.js';

/**
 * order_holder_counts (drizzle/0114): the open orders each member holds, kept by statement triggers on
 * orders, read by routing and the capacity check. After every kind of write it equals the count in orders.
 */
let t: TestApp;
let staff: number[];
beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.database.sql.query<{ id: number }>(
    `select id from staff_users where deleted_at is null order by id limit 3`,
  );
  staff = rows.map((r) => r.id);
});
afterAll(() => t.close());

const q = (text: string, params: unknown[] = []) => t.database.sql.query(text, params);

async function expectExact() {
  const kept = await t.database.sql.query<{ a: number; n: number }>(
    `select assigned_to as a, n::int as n from order_holder_counts where n <> 0 order by 1`,
  );
  const counted = await t.database.sql.query<{ a: number; n: number }>(
    `select assigned_to as a, count(*)::int as n from orders
     where assigned_to is not null and process_status not in ('Completed', 'Refunded', 'Deleted')
     group by 1 order by 1`,
  );
  expect(kept.rows).toEqual(counted.rows);
  // What the readers ask, member by member.
  for (const { a, n } of counted.rows) {
    const { rows } = await t.database.db.execute<{ held: number }>(
      sql`select ${heldOpenOrders(sql`${a}::int`)} as held`,
    );
    expect(Number(rows[0]!.held)).toBe(n);
  }
}

describe('the open orders each member holds', () => {
  it('follow inserts, assignments, hand-overs, closing, reopening, bulk updates and deletes', async () => {
    const [a, b, c] = staff as [number, number, number];
    await expectExact();
    const held = await createOrder(t.database, { assigned_to: a });
    const open = await createOrders(t.database, 5);
    await createOrder(t.database, { assigned_to: b, process_status: 'Completed' });
    await expectExact();

    await q(`update orders set assigned_to = $1 where order_id = any($2::bigint[])`, [
      b,
      open.slice(0, 3).map((o) => o.orderId),
    ]);
    await expectExact();
    // A hand-over, an unassignment, two holders in one statement.
    await q(`update orders set assigned_to = $1 where order_id = $2`, [c, open[0]!.orderId]);
    await q(`update orders set assigned_to = null where order_id = $1`, [open[1]!.orderId]);
    await q(
      `update orders set assigned_to = case when order_id = $1 then $2::int else $3::int end
       where order_id = any($4::bigint[])`,
      [open[3]!.orderId, a, c, [open[3]!.orderId, open[4]!.orderId]],
    );
    await expectExact();
    // Closing and reopening change the count; a move between open statuses does not.
    await q(`update orders set process_status = 'Completed' where order_id = $1`, [held.orderId]);
    await expectExact();
    await q(`update orders set process_status = 'Awaiting' where order_id = $1`, [held.orderId]);
    await q(`update orders set process_status = 'New' where order_id = $1`, [held.orderId]);
    await expectExact();
    // An update that changes no holder and no open state leaves the counters alone.
    await q(`update orders set updated_at = now() where assigned_to is not null`);
    await expectExact();
    // One statement that both closes an order and hands another over.
    await q(
      `update orders set process_status = case when order_id = $1 then 'Refunded' else process_status end,
              assigned_to = case when order_id = $2 then $3::int else assigned_to end
       where order_id = any($4::bigint[])`,
      [open[2]!.orderId, open[4]!.orderId, b, [open[2]!.orderId, open[4]!.orderId]],
    );
    await expectExact();
    await q(`delete from order_events where order_id = $1`, [open[0]!.orderId]);
    await q(`delete from orders where order_id = $1`, [open[0]!.orderId]);
    await expectExact();
  });

  it("keep each member's last assignment: the latest assign event naming them", async () => {
    const [a, b] = staff as [number, number];
    const [first, second] = await createOrders(t.database, 2);
    const last = async (id: number) => {
      // Read as a routing pass reads it: the member's row joined once.
      const load = holderLoadJoin(sql`s.id`);
      const { rows } = await t.database.db.execute<{ at: string | null }>(
        sql`select ${load.lastAssignedAt} as at from (select ${id}::int as id) s ${load.join}`,
      );
      return rows[0]!.at ? new Date(rows[0]!.at).toISOString() : null;
    };
    const event = (order: number, to: string | null, at: string) =>
      q(
        `insert into order_events (order_id, action, from_value, to_value, created_at) values ($1, 'assign', null, $2, $3)`,
        [order, to, at],
      );
    await event(first!.orderId, String(a), '2030-01-02T10:00:00Z');
    expect(await last(a)).toBe('2030-01-02T10:00:00.000Z');
    // An earlier event written later does not move it back; an unassignment names nobody.
    await event(second!.orderId, String(a), '2030-01-01T10:00:00Z');
    await event(second!.orderId, null, '2030-01-03T10:00:00Z');
    expect(await last(a)).toBe('2030-01-02T10:00:00.000Z');
    // Several members in one statement.
    await q(
      `insert into order_events (order_id, action, to_value, created_at)
       values ($1, 'assign', $2, '2030-01-04T10:00:00Z'), ($3, 'assign', $4, '2030-01-05T10:00:00Z')`,
      [first!.orderId, String(b), second!.orderId, String(a)],
    );
    expect(await last(a)).toBe('2030-01-05T10:00:00.000Z');
    expect(await last(b)).toBe('2030-01-04T10:00:00.000Z');
    expect(await last(999_999)).toBeNull();
  });
});
