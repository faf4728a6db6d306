import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/constants.js';
import type { StaffIdentity } from '../context.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder, createOrders } from '../test/factories.js';
import { claimNext } from './claim.js';

/** Claims written together (decision 283): distinct orders, most urgent to the first asker, exact counters. */
let t: TestApp;
const staff: StaffIdentity[] = [];
beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.database.sql.query<{ id: number; name: string; role: Role; email: string }>(
    `select id, name, role, email from staff_users order by id`,
  );
  for (const r of rows) staff.push({ id: r.id, name: r.name, type: r.role, email: r.email });
});
afterAll(() => t.close());

const COUNTERS = `select process_status, processing_mode, assigned_to, due_date::text, n::int
  from order_folder_counts where n <> 0 order by 1, 2, 3, 4`;
const FROM_ORDERS = `select process_status, processing_mode, assigned_to,
    (case when process_status = 'New' then processing_date end)::text as due_date, count(*)::int as n
  from orders group by 1, 2, 3, 4 order by 1, 2, 3, 4`;
const NATIONALITY_COUNTERS = `select nationality, process_status, processing_mode, assigned_to, due_date::text, n::int
  from order_nationality_counts where n <> 0 order by 1, 2, 3, 4, 5`;
const NATIONALITY_FROM_ORDERS = `select nationality, process_status, processing_mode, assigned_to,
    (case when process_status = 'New' then processing_date end)::text as due_date, count(*)::int as n
  from orders group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`;

async function expectCountersExact() {
  const q = async (text: string) => (await t.database.sql.query(text)).rows;
  expect(await q(COUNTERS)).toEqual(await q(FROM_ORDERS));
  expect(await q(NATIONALITY_COUNTERS)).toEqual(await q(NATIONALITY_FROM_ORDERS));
}

/** Orders of a folder of their own (Awaiting Govt), arriving on distinct days: the most urgent first. */
async function queue(n: number, year: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const arrival = new Date(Date.UTC(year, 0, 1 + i)).toISOString().slice(0, 10);
    ids.push(
      (await createOrder(t.database, { process_status: 'AwaitingGovt', arrival_date: arrival })).orderId,
    );
  }
  return ids;
}

async function assigneesOf(ids: number[]) {
  const { rows } = await t.database.sql.query<{ order_id: number; assigned_to: number | null }>(
    `select order_id::int as order_id, assigned_to from orders where order_id = any($1::bigint[]) order by order_id`,
    [ids],
  );
  return new Map(rows.map((r) => [r.order_id, r.assigned_to]));
}

describe('claimNext under contention', () => {
  it('gives claims made at once distinct orders, the most urgent to the first asker, with events and exact counters', async () => {
    const ids = await queue(12, 2040);
    const admin = staff.find((s) => s.type === 'Admin')!;
    const manager = staff.find((s) => s.type === 'Manager')!;
    // The first claim is written alone; the ten made while it is written are written together.
    const askers = Array.from({ length: 14 }, (_, i) => (i % 2 ? manager : admin));
    const got = await Promise.all(askers.map((a) => claimNext(t.database.db, a, 'awaitingGovtOrder')));
    expect(got.slice(0, 12)).toEqual(ids);
    expect(got.slice(12)).toEqual([null, null]);
    const held = await assigneesOf(ids);
    ids.forEach((id, i) => {
      expect(held.get(id), String(id)).toBe(askers[i]!.id);
    });
    const { rows: events } = await t.database.sql.query<{
      order_id: number;
      actor_id: number;
      to_value: string;
    }>(
      `select order_id::int as order_id, actor_id, to_value from order_events
       where action = 'assign' and order_id = any($1::bigint[]) order by id`,
      [ids],
    );
    expect(events).toHaveLength(12);
    for (const e of events) expect(e.to_value).toBe(String(held.get(e.order_id)));
    await expectCountersExact();
  });

  it('runs in the caller’s transaction when given one (rolled back with it)', async () => {
    const [id] = await queue(1, 2041);
    const admin = staff.find((s) => s.type === 'Admin')!;
    await expect(
      t.database.db.transaction(async (tx) => {
        expect(await claimNext(tx, admin, 'awaitingGovtOrder')).toBe(id);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await assigneesOf([id!])).get(id!)).toBeNull();
    expect(await claimNext(t.database.db, admin, 'awaitingGovtOrder')).toBe(id);
    await expectCountersExact();
  });

  it('fails every claim of a batch whose transaction fails, and the next claims are written again', async () => {
    const [id] = await queue(1, 2042);
    const admin = staff.find((s) => s.type === 'Admin')!;
    const broken = { today: 'not a date', staffId: admin.id };
    const failing = await Promise.allSettled([
      claimNext(t.database.db, admin, 'newOrder', broken),
      claimNext(t.database.db, admin, 'newOrder', broken),
      claimNext(t.database.db, admin, 'newOrder', broken),
    ]);
    expect(failing.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await claimNext(t.database.db, admin, 'awaitingGovtOrder')).toBe(id);
  });

  it('refuses a folder the actor may not read, before anything is written', async () => {
    const telecaller = staff.find((s) => s.type === 'Telecaller');
    if (!telecaller) return;
    await expect(claimNext(t.database.db, telecaller, 'allOrder')).rejects.toMatchObject({
      kind: 'forbidden',
    });
  });
});

describe('claimNext starts with the work (decision 360)', () => {
  it('a customer answer first, then an open trip, a trip that has passed last', async () => {
    // Earlier tests' waiting orders of the folder are held by someone: only these three wait.
    const admin = staff.find((s) => s.type === 'Admin')!;
    await t.database.sql.query(
      `update orders set assigned_to = $1 where process_status = 'AwaitingGovt' and assigned_to is null`,
      [admin.id],
    );
    const passed = (
      await createOrder(t.database, { process_status: 'AwaitingGovt', arrival_date: '2020-01-02' })
    ).orderId;
    const open = (
      await createOrder(t.database, { process_status: 'AwaitingGovt', arrival_date: '2041-01-01' })
    ).orderId;
    const replied = (
      await createOrder(t.database, { process_status: 'AwaitingGovt', arrival_date: '2041-03-01' })
    ).orderId;
    await t.database.sql.query('update orders set customer_replied_at = now() where order_id = $1', [
      replied,
    ]);
    const { rows } = await t.database.sql.query<{ passed: boolean }>(
      'select trip_ends_at <= now() as passed from orders where order_id = $1',
      [passed],
    );
    expect(rows[0]!.passed).toBe(true);
    const got: (number | null)[] = [];
    for (let i = 0; i < 4; i++) got.push(await claimNext(t.database.db, admin, 'awaitingGovtOrder'));
    expect(got).toEqual([replied, open, passed, null]);
  });
});

describe('claimNext walks a folder in its working order, group by group (decision 428)', () => {
  /** The working order as one sort of the whole folder: what the claims must hand out, in this order. */
  const SORTED = `select order_id::int as id from orders
    where assigned_to is null and process_status not in ('Completed', 'Deleted', 'Refunded') and %s
    order by (customer_replied_at is null) asc, (trip_ends_at is not null and trip_ends_at <= now()) asc,
      arrival_date asc nulls last, created_at asc, order_id asc`;
  const sorted = async (where: string) =>
    (await t.database.sql.query<{ id: number }>(SORTED.replace('%s', where))).rows.map((r) => r.id);

  /** Days around today in the service time zone, as the trip's end (trigger orders_due_at) counts them. */
  async function serviceDays() {
    const { rows } = await t.database.sql.query<{ yesterday: string; today: string; tomorrow: string }>(
      `select to_char(d - 1, 'YYYY-MM-DD') as yesterday, to_char(d, 'YYYY-MM-DD') as today,
              to_char(d + 1, 'YYYY-MM-DD') as tomorrow
       from (select (now() at time zone 'America/New_York')::date as d) s`,
    );
    return rows[0]!;
  }

  /** An order of the folder, its arrival, answer and creation moment set as the case needs. */
  async function waiting(
    status: 'New' | 'Refunds',
    arrival: string | null,
    opts: { replied?: boolean; createdMinutesAgo?: number } = {},
  ): Promise<number> {
    const { orderId } = await createOrder(t.database, { process_status: status });
    await t.database.sql.query(
      `update orders set processing_date = '2020-01-01', arrival_date = $2::date,
         customer_replied_at = case when $3 then now() end,
         created_at = now() - make_interval(mins => $4::int)
       where order_id = $1`,
      [orderId, arrival, opts.replied ?? false, opts.createdMinutesAgo ?? 0],
    );
    return orderId;
  }

  /**
   * New Orders in one batch of claims, against a sort of the folder. `priorityDue` Priority orders due
   * as well (not in the folder): over a hundred due, the pick walks the folder's indexes; fewer, it reads
   * the due orders by id.
   */
  async function newOrdersCase(priorityDue: number) {
    const admin = staff.find((s) => s.type === 'Admin')!;
    await t.database.sql.query(
      `update orders set assigned_to = $1 where process_status = 'New' and assigned_to is null`,
      [admin.id],
    );
    if (priorityDue) await createOrders(t.database, priorityDue, { processing_mode: 'Priority' });
    const d = await serviceDays();
    const made = [
      await waiting('New', d.yesterday, { createdMinutesAgo: 5 }),
      await waiting('New', d.yesterday, { createdMinutesAgo: 50 }),
      await waiting('New', d.today),
      await waiting('New', d.tomorrow, { createdMinutesAgo: 1 }),
      await waiting('New', d.tomorrow, { createdMinutesAgo: 9 }),
      await waiting('New', '2020-01-02'),
      await waiting('New', null, { createdMinutesAgo: 3 }),
      await waiting('New', null, { createdMinutesAgo: 30 }),
      await waiting('New', d.yesterday, { replied: true }),
      await waiting('New', d.tomorrow, { replied: true }),
    ];
    const { rows: trips } = await t.database.sql.query<{ passed: boolean | null }>(
      'select trip_ends_at <= now() as passed from orders where order_id = any($1::bigint[]) order by order_id',
      [made],
    );
    // The trip's end as the trigger keeps it: passed before today, ahead from today, none without a date.
    expect(trips.map((r) => r.passed)).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
      null,
      null,
      true,
      false,
    ]);
    const expected = await sorted(`process_status = 'New' and processing_mode <> 'Priority'`);
    expect([...expected].sort((a, b) => a - b)).toEqual(made);
    // Answers first, then today, tomorrow (older first), undated (older first), then the passed trips.
    expect(expected).toEqual([
      made[9],
      made[8],
      made[2],
      made[4],
      made[3],
      made[7],
      made[6],
      made[5],
      made[1],
      made[0],
    ]);
    const got = await Promise.all(
      Array.from({ length: made.length + 1 }, () => claimNext(t.database.db, admin, 'newOrder')),
    );
    expect(got).toEqual([...expected, null]);
    await expectCountersExact();
  }

  it('New Orders: answers, trips ahead from today on, undated, trips passed; as a sort of the folder (few due)', async () => {
    await newOrdersCase(0);
  });

  it('New Orders: the same with over a hundred orders due (the pick reads the folder, not the due orders by id)', async () => {
    await newOrdersCase(101);
  });

  it('Refunds (no trip end): arrival order from the earliest, undated last; as a sort of the folder, one at a time', async () => {
    const admin = staff.find((s) => s.type === 'Admin')!;
    await t.database.sql.query(
      `update orders set assigned_to = $1 where process_status = 'Refunds' and assigned_to is null`,
      [admin.id],
    );
    const d = await serviceDays();
    const made = [
      await waiting('Refunds', d.tomorrow),
      await waiting('Refunds', '2020-01-02'),
      await waiting('Refunds', null),
      await waiting('Refunds', d.yesterday),
    ];
    const expected = await sorted(`process_status = 'Refunds'`);
    expect(expected).toEqual([made[1], made[3], made[0], made[2]]);
    const got: (number | null)[] = [];
    for (let i = 0; i <= made.length; i++) got.push(await claimNext(t.database.db, admin, 'refundOrder'));
    expect(got).toEqual([...expected, null]);
  });
});
