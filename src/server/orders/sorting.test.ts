import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_SORT_KEYS, type OrderListRow } from '../../shared/contracts/orders.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/**
 * Sorting and filters of the order lists against an in-memory oracle. The test orders are Tuvalu
 * travellers; `nationality=TUV` isolates them (the oracle is built from the same rows either way).
 */
let t: TestApp;
let ids: Record<string, number>;
let names: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.database.sql.query<{ id: number; role: string; name: string }>(
    `select id, role, name from staff_users where deleted_at is null order by id`,
  );
  ids = {};
  names = {};
  for (const r of rows) {
    ids[r.role] ??= r.id;
    names[r.role] ??= r.name;
  }
  const people = [
    ['Anna', 'Zeller'],
    ['bob', 'adams'],
    ['Carl', 'Adams'],
    ['Dora', 'Mills'],
    ['Anna', 'Zeller'],
    ['Eve', 'Ng'],
  ];
  const arrivals = ['2031-02-03', null, '2031-02-01', '2031-02-03', '2031-01-20', null, '2031-03-01'];
  const statuses = ['New', 'Awaiting', 'Completed', 'New', 'Refunds', 'ChargeBack', 'AwaitingGovt'];
  const assignees = [null, ids.Team, ids.Manager, null];
  for (let i = 0; i < 14; i++) {
    const [first, last] = people[i % people.length]!;
    await createOrder(t.database, {
      nationality: 'Tuvalu',
      first_name: first,
      last_name: last,
      arrival_date: arrivals[i % arrivals.length],
      process_status: statuses[i % statuses.length],
      processing_mode: i % 3 === 0 ? 'Priority' : 'Standard',
      processing_date: i % 2 ? '2031-01-05' : '2026-01-05',
      assigned_to: assignees[i % assignees.length],
    });
  }
});
afterAll(() => t.close());

const list = async (folder: string, query: string, role: 'Admin' | 'Team' = 'Admin') => {
  const res = await t.as(role, { method: 'GET', url: `/api/admin/get-orders-list/${folder}?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return { rows: (res.json().data ?? []) as OrderListRow[], total: res.json().total as number };
};

type Key = string | number | null;
/** What the server sorts by, per key, read back from a row. */
const keysOf: Record<(typeof LIST_SORT_KEYS)[number], (r: OrderListRow) => Key[]> = {
  order_id: () => [],
  created_at: (r) => [r.created_at],
  arrival_date: (r) => [r.arrival_date],
  due_at: (r) => [r.due_at],
  name: (r) => [r.last_name.toLowerCase(), r.first_name.toLowerCase()],
  status: (r) => [r.process_status],
  assign_to: (r) => [r.assign_to || null],
};

/** PostgreSQL's default: nulls are greater than every value (last going up, first going down). */
function compare(a: Key, b: Key): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function oracle(rows: OrderListRow[], key: (typeof LIST_SORT_KEYS)[number], dir: 'asc' | 'desc') {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows]
    .sort((x, y) => {
      const kx = [...keysOf[key](x), x.order_id];
      const ky = [...keysOf[key](y), y.order_id];
      for (let i = 0; i < kx.length; i++) {
        const c = compare(kx[i]!, ky[i]!);
        if (c) return sign * c;
      }
      return 0;
    })
    .map((r) => r.order_id);
}

describe('get-orders-list sorting', () => {
  it('sorts by every key in both directions, pages included, as the oracle does', async () => {
    const all = (await list('allOrder', 'nationality=TUV&limit=100')).rows;
    expect(all.length).toBeGreaterThanOrEqual(14);
    // Unsorted is newest first.
    expect(all.map((r) => r.order_id)).toEqual(oracle(all, 'created_at', 'desc'));
    for (const sort of LIST_SORT_KEYS) {
      for (const dir of ['asc', 'desc'] as const) {
        const expected = oracle(all, sort, dir);
        const whole = await list('allOrder', `nationality=TUV&limit=100&sort=${sort}&dir=${dir}`);
        expect(
          whole.rows.map((r) => r.order_id),
          `${sort} ${dir}`,
        ).toEqual(expected);
        const paged: number[] = [];
        for (let page = 1; page <= Math.ceil(expected.length / 5); page++) {
          const p = await list('allOrder', `nationality=TUV&limit=5&page=${page}&sort=${sort}&dir=${dir}`);
          paged.push(...p.rows.map((r) => r.order_id));
          expect(p.total).toBe(expected.length);
        }
        expect(paged, `${sort} ${dir} paged`).toEqual(expected);
      }
    }
  });

  it('sorts a status folder too, with no direction meaning ascending', async () => {
    const awaiting = (await list('awaitingOrder', 'nationality=TUV&limit=100')).rows;
    expect(awaiting.length).toBeGreaterThan(0);
    const sorted = await list('awaitingOrder', 'nationality=TUV&limit=100&sort=arrival_date');
    expect(sorted.rows.map((r) => r.order_id)).toEqual(oracle(awaiting, 'arrival_date', 'asc'));
  });
});

describe('default sort per folder', () => {
  it('lists the working queues with the work first (decision 391), then by due time (undated last, ties by id); other folders newest first; an asked sort wins', async () => {
    const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    // Due 24 h before arrival when that is sooner than the mode's time after payment, as it is for
    // arrivals up to tomorrow: arrival sets the order here; one a month ahead is due 72 h after payment.
    const make = (arrival: string, over: Record<string, unknown> = {}) =>
      createOrder(t.database, {
        nationality: 'Nauru',
        arrival_date: arrival,
        process_status: 'New',
        processing_mode: 'Standard',
        processing_date: '2026-01-05',
        assigned_to: null,
        ...over,
      }).then((o) => o.orderId);
    const a = await make(inDays(-3));
    const b = await make(inDays(-5));
    const c = await make(inDays(-3)); // due with a: after it by order id
    const d = await make(inDays(30));
    const held = { assigned_to: ids.Team };
    const pa = await make(inDays(1), held);
    const pb = await make(inDays(-4), held);
    const pc = await make(inDays(-2), { ...held, processing_mode: 'Priority' });
    const order = async (folder: string, query = '', role: 'Admin' | 'Team' = 'Admin') =>
      (
        await list(folder, `nationality=NRU${query.includes('limit=') ? '' : '&limit=100'}${query}`, role)
      ).rows.map((r) => r.order_id);

    // The trip of d (and pa) is still ahead: it comes before the orders whose trip has passed.
    expect(await order('newOrder')).toEqual([d, b, a, c]);
    expect(await order('pendingOrder')).toEqual([pa, pb, pc]);
    expect(await order('myOrder', '', 'Team')).toEqual(await order('pendingOrder'));
    // Other folders: newest first.
    expect(await order('allOrder')).toEqual([pc, pb, pa, d, c, b, a]);
    // An asked sort is still honoured in a working queue.
    expect(await order('newOrder', '&sort=created_at&dir=desc')).toEqual([d, c, b, a]);
    expect(await order('newOrder', '&sort=due_at&dir=desc')).toEqual([d, c, a, b]);
    // Paged, the default gives the same order.
    const paged: number[] = [];
    for (let page = 1; page <= 2; page++) paged.push(...(await order('newOrder', `&limit=2&page=${page}`)));
    expect(paged).toEqual([d, b, a, c]);
    // Search and export take the folder's default too.
    const found = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { folderName: 'newOrder', searchVal: 'lastname', nationality: 'NRU', start: 0, end: 100 },
    });
    expect(found.statusCode, found.body).toBe(200);
    const searched = (found.json().data as OrderListRow[]).map((r) => r.order_id);
    expect(searched).toEqual([d, b, a, c].filter((id) => searched.includes(id)));
    const csv = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/export-orders/newOrder?nationality=NRU',
    });
    expect(csv.statusCode, csv.body).toBe(200);
    const exported = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => Number(l.split(',')[0]));
    expect(exported).toEqual([d, b, a, c]);

    // An unread customer answer heads the queue, even with its trip passed; an asked sort ignores it.
    await t.database.sql.query('update orders set customer_replied_at = now() where order_id = $1', [c]);
    try {
      expect(await order('newOrder')).toEqual([c, d, b, a]);
      expect(await order('newOrder', '&sort=due_at&dir=asc')).toEqual([b, a, c, d]);
      // Two answers: the one whose trip is ahead first; every page size cuts the same order.
      await t.database.sql.query('update orders set customer_replied_at = now() where order_id = $1', [d]);
      for (const size of [1, 2, 3]) {
        const pages: number[] = [];
        for (let page = 1; page <= Math.ceil(4 / size); page++)
          pages.push(...(await order('newOrder', `&limit=${size}&page=${page}`)));
        expect(pages, `pages of ${size}`).toEqual([d, c, b, a]);
      }
    } finally {
      await t.database.sql.query('update orders set customer_replied_at = null where order_id = $1', [d]);
      await t.database.sql.query('update orders set customer_replied_at = null where order_id = $1', [c]);
    }

    // Orders without a due time (a mode the policy does not time) come last, by order id.
    const policyRead = `select value from app_settings where key = 'dueTimePolicy'`;
    const before = (await t.database.sql.query<{ value: unknown }>(policyRead)).rows[0]!.value;
    await t.database.sql.query(
      `update app_settings set value = jsonb_set(value, '{modes}', (value->'modes') - 'Standard') where key = 'dueTimePolicy'`,
    );
    try {
      expect(await order('pendingOrder')).toEqual([pa, pc, pb]);
    } finally {
      await t.database.sql.query(`update app_settings set value = $1 where key = 'dueTimePolicy'`, [before]);
    }
  });
});

describe('get-orders-list filters', () => {
  it('lists the Chargeback folder by Respond by, soonest first, whatever the trip or an unread answer; an asked sort wins', async () => {
    const inDays = (n: number) => new Date(Date.now() + n * 86_400_000);
    const disputed = async (arrivalInDays: number, respondInDays: number) => {
      const { orderId } = await createOrder(t.database, {
        nationality: 'Palau',
        arrival_date: inDays(arrivalInDays).toISOString().slice(0, 10),
        process_status: 'ChargeBack',
        processing_date: '2026-01-05',
      });
      await t.database.sql.query(
        `insert into payment_disputes (provider, dispute_id, order_id, amount, currency, reason, status, created_at, due_by)
         values ('stripe', $1, $2, 4900, 'USD', 'fraudulent', 'needs_response', now(), $3)`,
        [`dp_sort_${orderId}`, orderId, inDays(respondInDays).toISOString()],
      );
      return orderId;
    };
    const late = await disputed(-20, 9);
    const soon = await disputed(20, 2); // trip still ahead: no reason to come first but its deadline
    const middle = await disputed(-30, 5);
    const ids = async (query = '') =>
      (await list('chargeBack', `nationality=PLW&limit=100${query}`)).rows.map((r) => r.order_id);
    expect(await ids()).toEqual([soon, middle, late]);
    expect(await ids('&sort=created_at&dir=desc')).toEqual([middle, soon, late]);
  });

  it('each filter keeps exactly the matching rows, and the total follows', async () => {
    const all = (await list('allOrder', 'nationality=TUV&limit=100')).rows;
    expect(all.every((r) => r.nationality === 'Tuvalu')).toBe(true);
    const cases: [string, (r: OrderListRow) => boolean][] = [
      ['processingMode=Priority', (r) => r.processing_mode === 'Priority'],
      ['processingMode=Standard', (r) => r.processing_mode === 'Standard'],
      ['assignee=none', (r) => r.assign_to === ''],
      [`assignee=${ids.Manager}`, (r) => r.assign_to === names.Manager],
      ['arrivalFrom=2031-02-01', (r) => r.arrival_date !== null && r.arrival_date >= '2031-02-01'],
      ['arrivalTo=2031-02-01', (r) => r.arrival_date !== null && r.arrival_date <= '2031-02-01'],
      [
        'arrivalFrom=2031-02-01&arrivalTo=2031-02-03&processingMode=Standard',
        (r) =>
          r.arrival_date !== null &&
          r.arrival_date >= '2031-02-01' &&
          r.arrival_date <= '2031-02-03' &&
          r.processing_mode === 'Standard',
      ],
    ];
    const mine = await list('allOrder', 'nationality=TUV&limit=100&assignee=me', 'Admin');
    expect(mine.total).toBe(0); // the Admin holds none of them
    const teamMine = await t.as('Team', {
      method: 'GET',
      url: '/api/admin/get-orders-list/myOrder?nationality=TUV&limit=100&assignee=me',
    });
    expect(teamMine.statusCode, teamMine.body).toBe(200);
    const teamRows = teamMine.json().data as OrderListRow[];
    expect(teamRows.length).toBeGreaterThan(0);
    expect(teamRows.every((r) => r.assign_to === names.Team)).toBe(true);
    expect(teamMine.json().total).toBe(teamRows.length);
    for (const [query, keep] of cases) {
      const expected = all.filter(keep).map((r) => r.order_id);
      expect(expected.length, query).toBeGreaterThan(0);
      const got = await list('allOrder', `nationality=TUV&limit=100&${query}`);
      expect(
        got.rows.map((r) => r.order_id),
        query,
      ).toEqual(expected);
      expect(got.total, query).toBe(expected.length);
    }
  });

  it('counts follow filters in a folder whose meaning excludes them', async () => {
    // New Orders hold no Priority orders, so the filter leaves nothing.
    const none = await list('newOrder', 'nationality=TUV&processingMode=Priority');
    expect(none).toEqual({ rows: [], total: 0 });
    const priority = await list('priorityOrder', 'nationality=TUV&processingMode=Priority&limit=100');
    expect(priority.total).toBe(priority.rows.length);
    expect(priority.rows.every((r) => r.processing_mode === 'Priority' && r.process_status === 'New')).toBe(
      true,
    );
  });

  it('totals filtered by mode or assignee alone (read from the counters) match the orders', async () => {
    const count = async (where: string, params: unknown[] = []) =>
      Number(
        (
          await t.database.sql.query<{ n: string }>(
            `select count(*)::text as n from orders where ${where}`,
            params,
          )
        ).rows[0]!.n,
      );
    const priority = await list('allOrder', 'processingMode=Priority&limit=1');
    expect(priority.total).toBe(await count(`process_status <> 'Deleted' and processing_mode = 'Priority'`));
    expect(priority.total).toBeGreaterThan(0);
    const unassigned = await list('awaitingOrder', 'assignee=none&processingMode=Standard&limit=1');
    expect(unassigned.total).toBe(
      await count(`process_status = 'Awaiting' and assigned_to is null and processing_mode = 'Standard'`),
    );
    const held = await list('allOrder', `assignee=${ids.Manager}&limit=1`);
    expect(held.total).toBe(await count(`process_status <> 'Deleted' and assigned_to = $1`, [ids.Manager]));
    expect(held.total).toBeGreaterThan(0);
  });

  it('totals filtered by nationality (read from their counters) match the orders through every change', async () => {
    const counters = `select nationality, process_status, processing_mode, assigned_to, due_date::text, n::int
      from order_nationality_counts where n <> 0 order by 1, 2, 3, 4, 5`;
    const fromOrders = `select nationality, process_status, processing_mode, assigned_to,
        (case when process_status = 'New' then processing_date end)::text as due_date, count(*)::int as n
      from orders group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`;
    const same = async () =>
      expect((await t.database.sql.query(counters)).rows).toEqual(
        (await t.database.sql.query(fromOrders)).rows,
      );
    await same();
    // An older import stores the code itself: both spellings count for the filter.
    const coded = await createOrder(t.database, { nationality: 'TUV', process_status: 'Awaiting' });
    const other = await createOrder(t.database, { nationality: 'Fiji', process_status: 'Awaiting' });
    await same();
    const totals = async () => {
      const awaiting = await list('awaitingOrder', 'nationality=TUV&limit=1');
      const all = await list('allOrder', 'nationality=TUV&limit=100');
      return { awaiting: awaiting.total, all: all.total, allRows: all.rows.length };
    };
    const before = await totals();
    expect(before.all).toBe(before.allRows);
    // A move, a change of nationality and a delete each move the counters in the same statement.
    await t.database.sql.query(`update orders set process_status = 'Completed' where order_id = $1`, [
      coded.orderId,
    ]);
    await t.database.sql.query(`update orders set nationality = 'Tuvalu' where order_id = $1`, [
      other.orderId,
    ]);
    await same();
    const after = await totals();
    expect(after.awaiting).toBe(before.awaiting); // one left Awaiting, one arrived as a Tuvalu traveller
    expect(after.all).toBe(before.all + 1);
    expect(after.all).toBe(after.allRows);
    const gone = [[coded.orderId, other.orderId]];
    await t.database.sql.query(`delete from order_events where order_id = any($1)`, gone);
    await t.database.sql.query(`delete from orders where order_id = any($1)`, gone);
    await same();
    expect((await totals()).all).toBe(before.all - 1);
  });

  it('refuses unknown or hostile values with 400', async () => {
    for (const query of [
      'sort=price',
      'sort=due_at&dir=up',
      'nationality=XXX',
      'nationality=US',
      'nationality=U%00S',
      `nationality=${'A'.repeat(5000)}`,
      'processingMode=Express',
      'assignee=someone',
      'assignee=-1',
      'assignee=99999999999',
      'dueState=late',
      'arrivalFrom=2031-13-01',
      'arrivalFrom=2031-02-02&arrivalTo=2031-02-01',
      'colour=red',
    ]) {
      const res = await t.as('Admin', { method: 'GET', url: `/api/admin/get-orders-list/allOrder?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.body, query).not.toMatch(/at .*\.ts:\d+/);
    }
  });
});

describe('search-order with filters', () => {
  it('applies the filters; an exact e-mail is answered by its own orders', async () => {
    const exact = await createOrder(t.database, { email: 'ann.search@example.com', nationality: 'Tuvalu' });
    const newer = await createOrder(t.database, { email: 'joann.search@example.com', nationality: 'Tuvalu' });
    const priority = await createOrder(t.database, {
      email: 'ann.search@example.org',
      nationality: 'Tuvalu',
      processing_mode: 'Priority',
    });
    const search = async (payload: Record<string, unknown>) => {
      const res = await t.as('Admin', {
        method: 'POST',
        url: '/api/admin/search-order',
        payload: { folderName: 'allOrder', start: 0, end: 10, ...payload },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // A whole address the folder has is answered by its exact matches (decision 222) ...
    const byEmail = await search({ searchVal: 'ANN.search@example.com' });
    expect(byEmail.data.map((r: OrderListRow) => r.order_id)).toEqual([exact.orderId]);
    // ... while a fragment of it finds the others holding it, newest first.
    const fragment = await search({ searchVal: 'ann.search@example.c' });
    expect(fragment.data.map((r: OrderListRow) => r.order_id)).toEqual([newer.orderId, exact.orderId]);
    const filtered = await search({ searchVal: 'ann.search', processingMode: 'Priority' });
    expect(filtered.data.map((r: OrderListRow) => r.order_id)).toEqual([priority.orderId]);
    expect(filtered.total).toBe(1);
    const bad = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { folderName: 'allOrder', searchVal: 'ann', nationality: 'ZZZ' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
