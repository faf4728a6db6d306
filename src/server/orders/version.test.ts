import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/constants.js';
import type { StaffIdentity } from '../context.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { assign } from './assignment.js';
import { claimNext } from './claim.js';

/**
 * One pass of the order triggers per change (drizzle/0099): a writer that raises the version in its own
 * update leaves the publish trigger nothing to write; a change with no update of the order (an event
 * alone) is raised by the publish trigger in an update the counters', reports' and insights' triggers
 * skip. A statement trigger of this test's database records every UPDATE statement on orders.
 */
let t: TestApp;
let admin: StaffIdentity;
beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.database.sql.query<{ id: number; name: string; role: Role; email: string }>(
    `select id, name, role, email from staff_users where role = 'Admin' order by id limit 1`,
  );
  const r = rows[0]!;
  admin = { id: r.id, name: r.name, type: r.role, email: r.email };
  await t.database.sql.query(`create table order_update_statements (version_only text)`);
  await t.database.sql.query(`create function order_update_record() returns trigger language plpgsql as $$
    begin
      insert into order_update_statements values (coalesce(current_setting('edcard.bookkeeping', true), ''));
      return null;
    end $$`);
  await t.database.sql.query(`create trigger order_update_record after update on orders
    for each statement execute function order_update_record()`);
});
afterAll(() => t.close());

async function statements(work: () => Promise<unknown>) {
  await t.database.sql.query('delete from order_update_statements');
  await work();
  const { rows } = await t.database.sql.query<{ version_only: string }>(
    'select version_only from order_update_statements',
  );
  return rows.map((r) => r.version_only);
}

async function versionOf(orderId: number) {
  const { rows } = await t.database.sql.query<{ version: number }>(
    'select version from orders where order_id = $1',
    [orderId],
  );
  return rows[0]!.version;
}

describe('the order version and the publish trigger', () => {
  it('a claim raises the version in its own update: one UPDATE of orders, none by the publish trigger', async () => {
    await createOrder(t.database, { process_status: 'Awaiting' });
    const { rows } = await t.database.sql.query<{ order_id: string; version: number }>(
      'select order_id::text, version from orders',
    );
    const before = new Map(rows.map((r) => [Number(r.order_id), r.version]));
    let claimed: number | null = null;
    const seen = await statements(async () => {
      claimed = await claimNext(t.database.db, admin, 'awaitingOrder');
    });
    expect(claimed).not.toBeNull();
    expect(seen).toEqual(['']);
    expect(await versionOf(claimed!)).toBe(before.get(claimed!)! + 1);
  });

  it('an event with no update of the order is raised by the publish trigger, one per event, as a version-only update', async () => {
    const order = await createOrder(t.database, { process_status: 'New' });
    const before = await versionOf(order.orderId);
    const seen = await statements(() =>
      t.database.sql.query(
        `insert into order_events (order_id, action, to_value) values ($1, 'remark', 'a'), ($1, 'remark', 'b')`,
        [order.orderId],
      ),
    );
    expect(seen).toEqual(['on']);
    expect(await versionOf(order.orderId)).toBe(before + 2);
  });

  it('a status move raises the version in its own update, its flag clean-up in the same update: one UPDATE', async () => {
    const order = await createOrder(t.database, { process_status: 'New', assigned_to: null });
    const before = await versionOf(order.orderId);
    let status = 0;
    const seen = await statements(async () => {
      const res = await t.as('Admin', {
        method: 'PUT',
        url: '/api/admin/move-order-status',
        payload: { orderId: order.orderId, updatingStatus: 'Awaiting' },
      });
      status = res.statusCode;
    });
    expect(status).toBe(200);
    // The move's own update (the holder rule may hand the order over first, in its own bumped update).
    expect(seen.filter((s) => s === 'on')).toEqual([]);
    expect(await versionOf(order.orderId)).toBeGreaterThan(before);
  });

  it('a manual assignment raises the version in its own update: none by the publish trigger', async () => {
    const order = await createOrder(t.database, { process_status: 'Awaiting', assigned_to: null });
    const before = await versionOf(order.orderId);
    const seen = await statements(() =>
      assign(t.database.db, admin, { orderIds: [order.orderId], assign: true }),
    );
    expect(seen).toEqual(['']);
    expect(await versionOf(order.orderId)).toBe(before + 1);
  });

  it('an update that does not raise the version is still raised by its events (writers not yet moved)', async () => {
    const order = await createOrder(t.database, { process_status: 'New' });
    const before = await versionOf(order.orderId);
    const seen = await statements(() =>
      t.database.db.transaction(async (tx) => {
        await tx.execute(
          sql`update orders set process_status = 'Awaiting' where order_id = ${order.orderId}`,
        );
        await tx.execute(
          sql`insert into order_events (order_id, action, from_value, to_value) values (${order.orderId}, 'status', 'New', 'Awaiting')`,
        );
      }),
    );
    expect(seen).toEqual(['', 'on']);
    expect(await versionOf(order.orderId)).toBe(before + 1);
  });
});
