import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/constants.js';
import type { StaffIdentity } from '../context.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { claimNext } from './claim.js';

/**
 * A claim's own transaction commits without waiting for its WAL flush, and only it
 * (docs/decisions/340-claims-commit-asynchronously.md). A trigger of this test's database records the
 * setting each assignment was written under.
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
  await t.database.sql.query(`create table claim_commit_seen (order_id bigint, sync text)`);
  await t.database.sql.query(`create function claim_commit_record() returns trigger language plpgsql as $$
    begin
      insert into claim_commit_seen values (new.order_id, current_setting('synchronous_commit'));
      return new;
    end $$`);
  await t.database.sql.query(`create trigger claim_commit_record after update of assigned_to on orders
    for each row execute function claim_commit_record()`);
});
afterAll(() => t.close());

async function seenFor(orderId: number) {
  const { rows } = await t.database.sql.query<{ sync: string }>(
    `select sync from claim_commit_seen where order_id = $1`,
    [orderId],
  );
  return rows.map((r) => r.sync);
}

async function showSync() {
  const { rows } = await t.database.sql.query<{ synchronous_commit: string }>(`show synchronous_commit`);
  return rows[0]?.synchronous_commit;
}

describe('the commit of a claim', () => {
  it('does not wait for the flush in its own transaction, and leaves the connection’s setting alone', async () => {
    const before = await showSync();
    const { orderId } = await createOrder(t.database, {
      process_status: 'AwaitingGovt',
      arrival_date: '2031-01-01',
    });
    expect(await claimNext(t.database.db, admin, 'awaitingGovtOrder')).toBe(orderId);
    expect(await seenFor(orderId)).toEqual(['off']);
    // SET LOCAL: the pooled connections go back to the server's setting after the claim.
    for (let i = 0; i < 5; i++) expect(await showSync()).toBe(before);
  });

  it('stays as durable as the caller’s transaction when chained in one', async () => {
    const { orderId } = await createOrder(t.database, {
      process_status: 'AwaitingGovt',
      arrival_date: '2030-01-01',
    });
    await t.database.db.transaction(async (tx) => {
      expect(await claimNext(tx, admin, 'awaitingGovtOrder')).toBe(orderId);
      const { rows } = await tx.execute<{ s: string }>(
        sql`select current_setting('synchronous_commit') as s`,
      );
      expect(rows[0]?.s).toBe('on');
    });
    expect(await seenFor(orderId)).toEqual(['on']);
  });
});
