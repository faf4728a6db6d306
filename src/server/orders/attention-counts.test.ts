import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { needsAttentionCount } from './list-counts.js';

/**
 * The folder counters split by the Needs attention flag (drizzle/0115): every list filtered to Needs
 * attention takes its total from them, and the sidebar's count sums them. Both must equal what a count
 * of the orders says, through every kind of change.
 */
let t: TestApp;
let teamId: number;
beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.database.sql.query<{ id: number }>(
    `select id from staff_users where role = 'Team' and deleted_at is null order by id limit 1`,
  );
  teamId = rows[0]!.id;
});
afterAll(() => t.close());

const counters = `select process_status, processing_mode, assigned_to, due_date::text, n::int
  from order_attention_counts where n <> 0 order by 1, 2, 3, 4`;
const fromOrders = `select process_status, processing_mode, assigned_to,
    (case when process_status = 'New' then processing_date end)::text as due_date, count(*)::int as n
  from orders where needs_attention group by 1, 2, 3, 4 order by 1, 2, 3, 4`;

const total = async (folder: string, query: string) => {
  const res = await t.as('Admin', { method: 'GET', url: `/api/admin/get-orders-list/${folder}?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return { total: res.json().total as number, rows: (res.json().data ?? []).length as number };
};

/** An order as intake writes it, then flagged (a failing check: Needs attention is generated from the level and the status) when asked. */
const order = async (values: Record<string, unknown>, flagged: boolean) => {
  const row = await createOrder(t.database, values);
  if (flagged)
    await t.database.sql.query(`update orders set check_level = 1 where order_id = $1`, [row.orderId]);
  return row;
};

const count = async (where: string, params: unknown[] = []) =>
  Number(
    (
      await t.database.sql.query<{ n: string }>(
        `select count(*)::text as n from orders where ${where}`,
        params,
      )
    ).rows[0]!.n,
  );

describe('Needs attention counters', () => {
  it('match the flagged orders, and the filtered totals match the lists, through every change', async () => {
    const same = async () => {
      expect((await t.database.sql.query(counters)).rows).toEqual(
        (await t.database.sql.query(fromOrders)).rows,
      );
      expect(await needsAttentionCount(t.database.db)).toBe(await count('needs_attention'));
    };
    await same();
    const a = await order({ process_status: 'Awaiting' }, true);
    const b = await order(
      {
        process_status: 'New',
        processing_mode: 'Priority',
        processing_date: '2026-01-05',
        assigned_to: null,
      },
      true,
    );
    const c = await order({ process_status: 'Awaiting' }, false);
    await same();
    const awaiting = await total('awaitingOrder', 'needsAttention=true&limit=100');
    expect(awaiting.total).toBe(await count(`process_status = 'Awaiting' and needs_attention`));
    expect(awaiting.total).toBe(awaiting.rows);
    const priority = await total('priorityOrder', 'needsAttention=true&processingMode=Priority&limit=100');
    expect(priority.total).toBe(priority.rows);
    expect(priority.total).toBeGreaterThan(0);

    // A flag raised and cleared, an assignment, a move and a delete each move the counters at once.
    await t.database.sql.query(`update orders set check_level = 1 where order_id = $1`, [c.orderId]);
    await t.database.sql.query(`update orders set check_level = 0 where order_id = $1`, [a.orderId]);
    await t.database.sql.query(`update orders set assigned_to = $2 where order_id = $1`, [b.orderId, teamId]);
    await same();
    const held = await total('allOrder', `needsAttention=true&assignee=${teamId}&limit=100`);
    expect(held.total).toBe(
      await count(`process_status <> 'Deleted' and needs_attention and assigned_to = $1`, [teamId]),
    );
    expect(held.total).toBe(held.rows);
    await t.database.sql.query(`update orders set process_status = 'Completed' where order_id = $1`, [
      c.orderId,
    ]);
    await same();
    const pending = await total('pendingOrder', 'needsAttention=true&limit=100');
    expect(pending.total).toBe(pending.rows);
    expect(pending.total).toBe(
      await count(`process_status = 'New' and assigned_to is not null and needs_attention`),
    );
    const gone = [[a.orderId, b.orderId, c.orderId]];
    await t.database.sql.query(`delete from order_events where order_id = any($1)`, gone);
    await t.database.sql.query(`delete from orders where order_id = any($1)`, gone);
    await same();
  });

  it('still counts a flagged list of one nationality (no table splits by both)', async () => {
    await order({ nationality: 'Tuvalu', process_status: 'Awaiting' }, true);
    await order({ nationality: 'Tuvalu', process_status: 'Awaiting' }, false);
    const flagged = await total('awaitingOrder', 'needsAttention=true&nationality=TUV&limit=100');
    expect(flagged.total).toBe(1);
    expect(flagged.rows).toBe(1);
  });
});
