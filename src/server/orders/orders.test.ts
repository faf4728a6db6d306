import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FOLDER_COUNT_KEYS,
  FOLDERS,
  type Folder,
  type FolderCounts,
  MONTHS,
} from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

let t: TestApp;
const staff = new Map<DemoRole, { id: number; name: string }>();
const today = serviceToday();
const day = (offset: number) => dayjs(today).add(offset, 'day').format('YYYY-MM-DD');

beforeAll(async () => {
  t = await createTestApp();
  const { rows } = await t.database.sql.query<{ id: number; name: string; role: DemoRole }>(
    'select id, name, role from staff_users order by id',
  );
  for (const r of rows) if (!staff.has(r.role)) staff.set(r.role, { id: r.id, name: r.name });
});
afterAll(() => t.close());

const get = (role: DemoRole, url: string) => t.as(role, { method: 'GET', url });
const put = (role: DemoRole, url: string, payload: object) => t.as(role, { method: 'PUT', url, payload });
const search = (role: DemoRole, payload: Record<string, unknown>) =>
  t.as(role, { method: 'POST', url: '/api/admin/search-order', payload });

async function counts(role: DemoRole = 'Admin'): Promise<FolderCounts> {
  const res = await get(role, '/api/admin/get-folder-count?userName=someone-else');
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

async function list(role: DemoRole, folder: Folder, query = 'page=1&limit=100000') {
  const res = await get(role, `/api/admin/get-orders-list/${folder}?${query}&delay=1`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { order_id: number; process_status: string; assign_to: string }[];
}

const ids = (rows: { order_id: number }[]) => rows.map((r) => r.order_id);

let seq = 0;
/** An order with a distinct creation time (newest first is checked) and explicit service dates. */
async function order(overrides: Record<string, unknown> = {}) {
  seq += 1;
  const row = await createOrder(t.database, {
    processing_date: today,
    created_at: new Date(Date.UTC(2025, 0, 1) + seq * 60_000),
    ...overrides,
  });
  return row.orderId;
}

/** The folder meanings (docs/product.md) computed in JavaScript from the raw rows: the oracle the SQL folders must agree with. */
async function oracle(staffId: number): Promise<Record<Folder, Set<number>>> {
  const { rows } = await t.database.sql.query<{
    order_id: string;
    process_status: string;
    processing_mode: string;
    assigned_to: number | null;
    processing_date: string;
  }>(
    `select order_id::text, process_status, processing_mode, assigned_to, processing_date::text as processing_date from orders`,
  );
  const result = Object.fromEntries(FOLDERS.map((f) => [f, new Set<number>()])) as Record<
    Folder,
    Set<number>
  >;
  const byStatus: Record<string, Folder> = {
    Awaiting: 'awaitingOrder',
    AwaitingGovt: 'awaitingGovtOrder',
    'Customer Called': 'customerCalledOrder',
    'Contact Customer': 'contactCustomerOrder',
    Completed: 'completedOrder',
    Deleted: 'deletedOrder',
    Refunds: 'refundOrder',
    Refunded: 'refundedOrder',
    ChargeBack: 'chargeBack',
  };
  for (const r of rows) {
    const id = Number(r.order_id);
    const s = r.process_status;
    if (byStatus[s]) result[byStatus[s]].add(id);
    if (s !== 'Deleted') result.allOrder.add(id);
    if (r.assigned_to === staffId && !['Completed', 'Deleted', 'Refunded'].includes(s))
      result.myOrder.add(id);
    if (s === 'New') {
      if (r.assigned_to !== null) result.pendingOrder.add(id);
      if (r.processing_date > today) result.futureOrder.add(id);
      else if (r.assigned_to === null) {
        result[r.processing_mode === 'Priority' ? 'priorityOrder' : 'newOrder'].add(id);
      }
    }
  }
  return result;
}

/** Every folder: count = list length = the oracle, for the given role's point of view. */
async function expectFoldersAgree(role: DemoRole) {
  const c = await counts(role);
  const expected = await oracle(staff.get(role)!.id);
  for (const folder of FOLDERS) {
    if (folder === 'allOrder' && role === 'Telecaller') continue;
    const rows = await list(role, folder);
    expect(c[FOLDER_COUNT_KEYS[folder]], `${folder} count`).toBe(rows.length);
    expect(new Set(ids(rows)), `${folder} rows`).toEqual(expected[folder]);
  }
}

describe('folders and counts', () => {
  it('puts each order in its folders and counts them exactly', async () => {
    const admin = staff.get('Admin')!.id;
    const fresh = await order();
    const priority = await order({ processing_mode: 'Priority' });
    const future = await order({ processing_date: day(40) });
    const futurePriority = await order({ processing_date: day(3), processing_mode: 'Priority' });
    const awaiting = await order({ process_status: 'Awaiting' });
    const refunds = await order({ process_status: 'Refunds' });
    const deleted = await order({ process_status: 'Deleted' });
    const refunded = await order({ process_status: 'Refunded' });
    await t.database.sql.query('update orders set assigned_to = $1 where order_id = $2', [admin, awaiting]);

    expect(ids(await list('Admin', 'newOrder'))).toContain(fresh);
    expect(ids(await list('Admin', 'newOrder'))).not.toContain(priority);
    expect(ids(await list('Admin', 'priorityOrder'))).toEqual([priority]);
    expect(ids(await list('Admin', 'futureOrder'))).toEqual([futurePriority, future]);
    expect(ids(await list('Admin', 'myOrder'))).toEqual([awaiting]);
    expect(ids(await list('Team', 'myOrder'))).toEqual([]);
    expect(ids(await list('Admin', 'refundOrder'))).toEqual([refunds]);
    expect(ids(await list('Admin', 'deletedOrder'))).toEqual([deleted]);
    const all = ids(await list('Admin', 'allOrder'));
    expect(all).toContain(refunded);
    expect(all).not.toContain(deleted);
    await expectFoldersAgree('Admin');
    await expectFoldersAgree('Team');
  });

  it('lists newest first with the list row fields and the assignee name', async () => {
    const a = await order({ first_name: 'Ada', last_name: 'Lovelace', phone_code: '44' });
    await t.database.sql.query('update orders set assigned_to = $1 where order_id = $2', [
      staff.get('Team')!.id,
      a,
    ]);
    const rows = await list('Admin', 'allOrder');
    const createdAt = rows.map((r) => (r as unknown as { created_at: string }).created_at);
    expect([...createdAt].sort().reverse()).toEqual(createdAt);
    const row = rows.find((r) => r.order_id === a)!;
    expect(Object.keys(row).sort()).toEqual(
      [
        'order_id',
        'process_status',
        'first_name',
        'last_name',
        'arrival_date',
        'email',
        'telephone_number',
        'phone_code',
        'created_at',
        'refund_date',
        'processing_date',
        'process_month',
        'assign_to',
        'nationality',
        'processing_mode',
        'due_at',
        'due_state',
        'amount',
        'currency',
        'dispute_reason',
        'check_level',
        'check_codes',
        'customer_replied',
        'customer_edited',
        'refund_reason',
        'refund_reason_text',
        'government_reference',
        'submission_opens_at',
      ].sort(),
    );
    expect(row).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone_code: '44',
      assign_to: staff.get('Team')!.name,
      processing_date: today,
      process_month: MONTHS[dayjs(today).month()],
      refund_date: null,
    });
    expect(row.assign_to).not.toBe('');
    expect((row as unknown as { created_at: string }).created_at).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/,
    );
    const unassigned = (await list('Admin', 'newOrder'))[0]!;
    expect(unassigned.assign_to).toBe('');
  });

  it('pages: exact pages, the last page, beyond the last page, and All', async () => {
    for (let i = 0; i < 23; i++) await order({ process_status: 'AwaitingGovt' });
    const total = (await counts()).awaitingGovtCount;
    expect(total).toBe(23);
    const all = ids(await list('Admin', 'awaitingGovtOrder', `page=1&limit=${total}`));
    expect(all).toHaveLength(23);
    const p1 = ids(await list('Admin', 'awaitingGovtOrder', 'page=1&limit=10'));
    const p2 = ids(await list('Admin', 'awaitingGovtOrder', 'page=2&limit=10'));
    const p3 = ids(await list('Admin', 'awaitingGovtOrder', 'page=3&limit=10'));
    expect([...p1, ...p2, ...p3]).toEqual(all);
    expect(p3).toHaveLength(3);
    expect(await list('Admin', 'awaitingGovtOrder', 'page=4&limit=10')).toEqual([]);
    const empty = await get('Admin', '/api/admin/get-orders-list/awaitingGovtOrder?page=99&limit=10');
    expect(empty.json()).toEqual({ status: 1, message: 'No records found', data: [], total: 23 });
    expect(ids(await list('Admin', 'awaitingGovtOrder', 'page=1&limit=25'))).toEqual(all);
  });

  it('refuses bad list requests with a clear 4xx', async () => {
    const unknown = await get('Admin', '/api/admin/get-orders-list/secretOrders?page=1&limit=10');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Unknown folder: secretOrders');
    for (const q of [
      'page=0&limit=10',
      'page=1&limit=0',
      'page=1&limit=100001',
      'page=x&limit=10',
      'month=Foo',
    ]) {
      const res = await get('Admin', `/api/admin/get-orders-list/newOrder?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().status).toBe(0);
    }
    const noToken = await t.app.inject({ method: 'GET', url: '/api/admin/get-orders-list/newOrder' });
    expect(noToken.statusCode).toBe(401);
  });

  it('refuses Order History to a Telecaller, list and search', async () => {
    expect((await get('Telecaller', '/api/admin/get-orders-list/allOrder?page=1&limit=10')).statusCode).toBe(
      403,
    );
    expect((await search('Telecaller', { folderName: 'allOrder', searchVal: 'abc' })).statusCode).toBe(403);
    expect((await get('Telecaller', '/api/admin/get-orders-list/newOrder?page=1&limit=10')).statusCode).toBe(
      200,
    );
    expect((await get('Night Staff', '/api/admin/get-orders-list/allOrder?page=1&limit=10')).statusCode).toBe(
      200,
    );
  });

  it('counts future orders per process month and lists one month', async () => {
    const inTwoMonths = day(61);
    const m = MONTHS[dayjs(inTwoMonths).month()]!;
    const before = (await get('Admin', '/api/admin/get-future-month-count')).json().data;
    const id = await order({ processing_date: inTwoMonths });
    const after = (await get('Admin', '/api/admin/get-future-month-count')).json().data;
    expect(after[m]).toBe(before[m] + 1);
    expect(Object.keys(after)).toEqual([...MONTHS]);
    const monthRows = await list('Admin', 'futureOrder', `page=1&limit=1000&month=${m}`);
    expect(ids(monthRows)).toContain(id);
    expect(monthRows).toHaveLength(after[m]);
    expect(monthRows.every((r) => (r as unknown as { process_month: string }).process_month === m)).toBe(
      true,
    );
  });
});

describe('search', () => {
  let target: number;
  beforeAll(async () => {
    target = await order({
      first_name: 'Marguerite',
      last_name: "O'Hara-Zimmer",
      email: 'Marguerite.Special@Example.org',
      phone_code: '297',
      telephone_number: '5874411',
      process_status: 'Contact Customer',
    });
    await order({ first_name: 'Li', last_name: 'Wu', process_status: 'Contact Customer' });
    await order({ first_name: 'Marguerite', last_name: 'Elsewhere', process_status: 'Completed' });
  });
  const find = async (searchVal: string, folderName = 'contactCustomerOrder', extra = {}) => {
    const res = await search('Team', { start: 0, end: 10, searchVal, folderName, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: { order_id: number; first_name: string }[]; total: number };
  };

  it('finds by exact order id, e-mail, first name, last name and phone, case-insensitively', async () => {
    expect(ids((await find(String(target))).data)).toEqual([target]);
    for (const q of [
      'special@exam',
      'MARGUERITE',
      'rgueri',
      "o'hara",
      'zimmer',
      '5874411',
      '874',
      '+297 5874411',
    ]) {
      expect(ids((await find(q)).data), q).toEqual([target]);
    }
  });

  it('stays within the folder and reports the total', async () => {
    const res = await find('marguerite');
    expect(res.total).toBe(1);
    const all = await find('marguerite', 'allOrder');
    expect(all.total).toBe(2);
  });

  it('matches short text against whole fields only', async () => {
    expect((await find('li')).data.map((r) => r.first_name)).toEqual(['Li']);
    expect((await find('ma')).total).toBe(0);
  });

  it('treats wildcards and injection strings as plain text', async () => {
    for (const q of ['%', '___', "' or 1=1 --", "'; drop table orders; --", '\\']) {
      const res = await find(q);
      expect(res.total, q).toBe(0);
    }
    expect((await counts()).contactCustomerOrdersCount).toBeGreaterThan(0);
  });

  it('pages search results with start and end', async () => {
    for (let i = 0; i < 5; i++) await order({ last_name: `Pagewalker${i}`, process_status: 'Awaiting' });
    const first = await find('pagewalker', 'awaitingOrder', { start: 0, end: 3 });
    const rest = await find('pagewalker', 'awaitingOrder', { start: 3, end: 6 });
    expect(first.total).toBe(5);
    expect(first.data).toHaveLength(3);
    expect(rest.data).toHaveLength(2);
    expect(new Set([...ids(first.data), ...ids(rest.data)]).size).toBe(5);
  });

  it('counts matches exactly up to 1000 and says when there are more', async () => {
    await t.database.sql.query(
      `insert into orders (email, last_name, processing_date, process_status)
       select 'cap' || g || '@example.com', 'Capsearch', $1::date, 'Awaiting' from generate_series(1, 1005) g`,
      [today],
    );
    const first = await find('capsearch', 'awaitingOrder', { start: 0, end: 10 });
    expect(first).toMatchObject({ total: 1000, totalCapped: true });
    const last = await find('capsearch', 'awaitingOrder', { start: 1000, end: 1010 });
    expect(last.data).toHaveLength(5);
    expect(last.total).toBe(1005);
    const exact = await find('pagewalker', 'awaitingOrder');
    expect(exact).toMatchObject({ total: 5, totalCapped: false });
  });

  it('refuses bad search bodies', async () => {
    for (const body of [
      { searchVal: '', folderName: 'newOrder' },
      { searchVal: 'abc', folderName: 'nope' },
      { searchVal: 'abc', folderName: 'newOrder', start: 5, end: 5 },
      { searchVal: 'x'.repeat(101), folderName: 'newOrder' },
    ]) {
      const res = await search('Admin', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

const statusOf = async (id: number) =>
  (await t.database.sql.query<{ s: string }>('select process_status s from orders where order_id = $1', [id]))
    .rows[0]!.s;

describe('bulk delete', () => {
  const del = (role: DemoRole, orderId: number[], folderName?: string, extra = {}) =>
    put(role, '/api/admin/change-order-status', {
      orderId,
      permanentDeletedFlag: false,
      updatingStatus: 'Deleted',
      ...(folderName ? { folderName } : {}),
      ...extra,
    });
  it('lets Admin and Manager delete in the new, priority, refund queues and chargeback list, not others', async () => {
    for (const folder of ['newOrder', 'priorityOrder', 'refundOrder', 'chargeBack', 'completedOrder']) {
      const id = await order();
      for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
        expect((await del(role, [id], folder)).statusCode, `${role} ${folder}`).toBe(403);
      }
      expect(await statusOf(id)).toBe('New');
      const res = await del('Manager', [id], folder);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 1,
        message: 'Order has been deleted successfully',
        data: { orderId: [id] },
      });
      expect(await statusOf(id)).toBe('Deleted');
    }
  });

  it('lets only Admin delete an order someone holds, whatever folder the request names', async () => {
    const held = await order();
    await put('Team', '/api/admin/assign-order-status', { orderId: [held], assignto: 'me' });
    for (const claimed of ['myOrder', 'newOrder', 'futureOrder', undefined]) {
      const res = await del('Manager', [held], claimed);
      expect(res.statusCode, String(claimed)).toBe(403);
      expect(res.json().message).toBe('Only an Admin can delete an order someone is working on.');
      expect(res.json().data.orders).toEqual([
        { orderId: held, processStatus: 'New', message: expect.any(String) },
      ]);
    }
    expect(await statusOf(held)).toBe('New');
    expect((await del('Admin', [held], 'newOrder')).statusCode).toBe(200);
    expect(await statusOf(held)).toBe('Deleted');
    // An unheld order claimed to be in My Orders is decided by its real folder: Manager may delete it.
    const free = await order({ process_status: 'Awaiting' });
    expect((await del('Manager', [free], 'myOrder')).statusCode).toBe(200);
  });

  it('lets every role delete future orders, and refuses a mixed batch as a whole, per id', async () => {
    const future = await order({ processing_date: day(10) });
    const due = await order();
    const refused = await del('Night Staff', [future, due], 'futureOrder');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain(`${due} (Only an Admin or Manager can delete this order.)`);
    expect(refused.json().data.orders.map((o: { orderId: number }) => o.orderId)).toEqual([due]);
    expect(await statusOf(future)).toBe('New');
    expect(await statusOf(due)).toBe('New');
    // The folder name is not trusted: the future order may be deleted whatever folder is claimed.
    expect((await del('Night Staff', [future], 'newOrder')).statusCode).toBe(200);
    expect(await statusOf(future)).toBe('Deleted');
  });

  it('writes one event per changed order, reports orders already deleted, and refuses unknown ids atomically', async () => {
    const a = await order({ process_status: 'Awaiting' });
    const b = await order({ process_status: 'Deleted' });
    const both = await del('Admin', [a, b]);
    expect(both.statusCode).toBe(409);
    expect(both.json().data.orders).toEqual([
      { orderId: b, processStatus: 'Deleted', message: 'The order is already deleted.' },
    ]);
    expect(await statusOf(a)).toBe('Awaiting');
    const res = await del('Admin', [a, a]);
    expect(res.json().data.orderId).toEqual([a]);
    const { rows } = await t.database.sql.query<{ actor_id: number; from_value: string; to_value: string }>(
      `select actor_id, from_value, to_value from order_events where order_id = $1 and action = 'status'`,
      [a],
    );
    expect(rows).toEqual([{ actor_id: staff.get('Admin')!.id, from_value: 'Awaiting', to_value: 'Deleted' }]);

    const c = await order();
    const missing = await del('Admin', [c, 999_999_999]);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Order not found: 999999999');
    expect(await statusOf(c)).toBe('New');

    // Unknown and already deleted orders in one batch: every one is named by its id, nothing changes.
    const d = await order({ process_status: 'Deleted' });
    const mixed = await del('Admin', [c, b, 999_999_998, d, 999_999_999]);
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().message).toBe(
      `Order not found: 999999998, 999999999; already deleted: ${[b, d].sort((x, y) => x - y).join(', ')}`,
    );
    expect(mixed.json().data.notFound).toEqual([999_999_998, 999_999_999]);
    expect(mixed.json().data.orders.map((o: { orderId: number }) => o.orderId)).toEqual(
      [b, d].sort((x, y) => x - y),
    );
    const deletedOnly = await del('Admin', [c, b, d]);
    expect(deletedOnly.statusCode).toBe(409);
    expect(deletedOnly.json().message).toContain(
      `Already deleted: ${[b, d].sort((x, y) => x - y).join(', ')}`,
    );
    expect(await statusOf(c)).toBe('New');
  });

  it('refuses permanent delete and other statuses', async () => {
    const id = await order();
    expect((await del('Admin', [id], undefined, { permanentDeletedFlag: true })).statusCode).toBe(400);
    expect((await del('Admin', [id], undefined, { updatingStatus: 'Completed' })).statusCode).toBe(400);
    expect((await del('Admin', [])).statusCode).toBe(400);
    expect((await del('Admin', ['abc' as unknown as number])).statusCode).toBe(400);
    expect(await statusOf(id)).toBe('New');
  });
});

describe('assign and move back', () => {
  const assign = (role: DemoRole, orderId: number[] | number, assignto: string | null) =>
    put(role, '/api/admin/assign-order-status', { orderId, assignto });

  it('assigns to the signed-in user whatever name is sent, then moves back to New Orders', async () => {
    const id = await order();
    const res = await assign('Team', [id], 'Demo Admin');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Order has been assigned successfully');
    expect(ids(await list('Team', 'myOrder'))).toContain(id);
    expect(ids(await list('Admin', 'myOrder'))).not.toContain(id);
    expect(ids(await list('Admin', 'pendingOrder'))).toContain(id);
    expect(ids(await list('Admin', 'newOrder'))).not.toContain(id);

    const back = await assign('Team', id, '');
    expect(back.json().data.orderId).toEqual([id]);
    expect(ids(await list('Team', 'myOrder'))).not.toContain(id);
    expect(ids(await list('Admin', 'newOrder'))).toContain(id);
    const { rows } = await t.database.sql.query<{ from_value: string | null; to_value: string | null }>(
      `select from_value, to_value from order_events where order_id = $1 and action = 'assign' order by id`,
      [id],
    );
    const team = String(staff.get('Team')!.id);
    expect(rows).toEqual([
      { from_value: null, to_value: team },
      { from_value: team, to_value: null },
    ]);
  });

  it('never steals: assigning an order someone else holds is refused, naming the holder', async () => {
    const mine = await order();
    const theirs = await order();
    await assign('Manager', [theirs], 'x');
    const res = await assign('Team', [mine, theirs], 'x');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`Order ${theirs} is already assigned to ${staff.get('Manager')!.name}.`);
    expect(ids(await list('Team', 'myOrder'))).not.toContain(mine);
  });

  it('lets only the holder or a supervisor move an order back', async () => {
    const id = await order();
    await assign('Team', [id], 'x');
    const refused = await assign('Night Staff', [id], null);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(staff.get('Team')!.name);
    expect((await assign('Manager', [id], null)).json().data.orderId).toEqual([id]);
  });

  it('refuses to assign a deleted order', async () => {
    const id = await order({ process_status: 'Deleted' });
    expect((await assign('Team', [id], 'x')).statusCode).toBe(409);
  });
});

describe('refunds', () => {
  it("completes refunds: status Refunded, refund date, queued mail, event; 'Refunded' only in Order History", async () => {
    const a = await order({ process_status: 'Refunds', email: 'refund.me@example.com' });
    const b = await order({ process_status: 'Refunds' });
    const before = await counts('Telecaller');
    const res = await put('Telecaller', '/api/admin/move-to-complete-refund', { orderId: [a, b] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.orderId).toEqual([a, b].sort((x, y) => x - y));
    const after = await counts('Telecaller');
    expect(after.refundOrdersCount).toBe(before.refundOrdersCount - 2);
    expect(after.allOrdersCount).toBe(before.allOrdersCount);
    const row = (
      await t.database.sql.query<{ process_status: string; refund_date: Date | null }>(
        'select process_status, refund_date from orders where order_id = $1',
        [a],
      )
    ).rows[0]!;
    expect(row.process_status).toBe('Refunded');
    expect(row.refund_date).not.toBeNull();
    const mail = await t.database.sql.query(
      `select kind, to_email, provider, status, requested_by from mail_log where order_id = $1`,
      [a],
    );
    expect(mail.rows).toEqual([
      {
        kind: 'refund',
        to_email: 'refund.me@example.com',
        provider: 'AWS',
        status: 'queued',
        requested_by: staff.get('Telecaller')!.id,
      },
    ]);
    const listed = (await list('Admin', 'allOrder')).find((r) => r.order_id === a) as unknown as {
      refund_date: string;
    };
    expect(listed.refund_date).toMatch(/^\d{4}-/);
    // A second click changes nothing and mails nobody twice: the order is not in Refunds any more.
    const again = await put('Admin', '/api/admin/move-to-complete-refund', { orderId: a });
    expect(again.statusCode).toBe(409);
    expect(again.json().data.orders).toEqual([
      { orderId: a, processStatus: 'Refunded', message: expect.stringContaining('Completed Refunds') },
    ]);
    const mails = await t.database.sql.query('select 1 from mail_log where order_id = $1', [a]);
    expect(mails.rows).toHaveLength(1);
    // Refunded orders stay findable in their own list.
    expect(ids(await list('Night Staff', 'refundedOrder'))).toEqual(expect.arrayContaining([a, b]));
    expect(after.refundedOrdersCount).toBe(before.refundedOrdersCount + 2);
  });

  it("'Refunded it' acts only on orders in Refunds: others answer 409 with their status, nobody is mailed", async () => {
    const inRefunds = await order({ process_status: 'Refunds' });
    for (const status of ['New', 'Awaiting', 'Completed', 'ChargeBack', 'Deleted']) {
      const other = await order({ process_status: status });
      const res = await put('Admin', '/api/admin/move-to-complete-refund', { orderId: [inRefunds, other] });
      expect(res.statusCode, status).toBe(409);
      expect(res.json().data.orders).toEqual([
        { orderId: other, processStatus: status, message: expect.stringContaining('Only orders in Refunds') },
      ]);
      expect(await statusOf(other)).toBe(status);
    }
    expect(await statusOf(inRefunds)).toBe('Refunds');
    const mails = await t.database.sql.query(
      "select 1 from mail_log where kind = 'refund' and order_id = any($1::bigint[])",
      [[inRefunds]],
    );
    expect(mails.rows).toHaveLength(0);
  });
});

describe('restore', () => {
  const restore = (role: DemoRole, orderId: unknown) => put(role, '/api/admin/restore-order', { orderId });
  const del = (role: DemoRole, orderId: number[]) =>
    put(role, '/api/admin/change-order-status', {
      orderId,
      permanentDeletedFlag: false,
      updatingStatus: 'Deleted',
    });

  it('brings deleted orders back to the status each had before, Admin and Manager only', async () => {
    const awaiting = await order({ process_status: 'Awaiting' });
    const chargeback = await order({ process_status: 'ChargeBack' });
    const neverMoved = await order({ process_status: 'Deleted' });
    expect((await del('Manager', [awaiting, chargeback])).statusCode).toBe(200);
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const res = await restore(role, [awaiting]);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().message).toBe('Only an Admin or Manager can take an order out of Deleted.');
    }
    expect(await statusOf(awaiting)).toBe('Deleted');
    const res = await restore('Manager', [awaiting, chargeback, neverMoved]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.restored).toEqual([
      { orderId: awaiting, processStatus: 'Awaiting' },
      { orderId: chargeback, processStatus: 'ChargeBack' },
      { orderId: neverMoved, processStatus: 'New' },
    ]);
    expect(await statusOf(awaiting)).toBe('Awaiting');
    expect(await statusOf(chargeback)).toBe('ChargeBack');
    const { rows } = await t.database.sql.query<{ from_value: string; to_value: string }>(
      `select from_value, to_value from order_events where order_id = $1 and action = 'status' order by id`,
      [awaiting],
    );
    expect(rows).toEqual([
      { from_value: 'Awaiting', to_value: 'Deleted' },
      { from_value: 'Deleted', to_value: 'Awaiting' },
    ]);
  });

  it('restoring a refunded order does not refund or mail it again', async () => {
    const id = await order({ process_status: 'Refunds' });
    await put('Admin', '/api/admin/move-to-complete-refund', { orderId: [id] });
    await del('Admin', [id]);
    const res = await restore('Admin', [id]);
    expect(res.json().data.restored).toEqual([{ orderId: id, processStatus: 'Refunded' }]);
    const mails = await t.database.sql.query(
      "select 1 from mail_log where kind = 'refund' and order_id = $1",
      [id],
    );
    expect(mails.rows).toHaveLength(1);
  });

  it('refuses orders that are not deleted, unknown ids and hostile bodies, changing nothing', async () => {
    const open = await order({ process_status: 'Awaiting' });
    const gone = await order({ process_status: 'Deleted' });
    const res = await restore('Admin', [gone, open]);
    expect(res.statusCode).toBe(409);
    expect(res.json().data.orders).toEqual([
      {
        orderId: open,
        processStatus: 'Awaiting',
        message: 'The order is not deleted (it is in Awaiting Customer).',
      },
    ]);
    expect(await statusOf(gone)).toBe('Deleted');
    expect((await restore('Admin', [gone, 999_999_998])).statusCode).toBe(404);
    for (const hostile of [
      [`${gone}\u0000`],
      [gone, 'x'],
      [Number.MAX_SAFE_INTEGER + 2],
      'DROP TABLE orders',
      [],
    ]) {
      const r = await restore('Admin', hostile);
      expect(r.statusCode, JSON.stringify(hostile)).toBe(400);
      expect(r.body).not.toMatch(/at .*\.ts:\d+/);
    }
    const extra = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/restore-order',
      payload: { orderId: [gone], processStatus: 'Completed' },
    });
    expect(extra.statusCode).toBe(400);
    expect(await statusOf(gone)).toBe('Deleted');
  });
});

describe('property: counts always equal list lengths', () => {
  it('holds after a random mix of moves, assignments, deletes and refunds', async () => {
    let state = 12345;
    const rand = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
    const roles: DemoRole[] = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'];
    const statuses = [
      'New',
      'New',
      'New',
      'Awaiting',
      'Completed',
      'Refunds',
      'ChargeBack',
      'Contact Customer',
    ];
    const created: number[] = [];
    for (let i = 0; i < 40; i++) {
      created.push(
        await order({
          process_status: pick(statuses),
          processing_mode: rand() < 0.3 ? 'Priority' : 'Standard',
          processing_date: day(Math.floor(rand() * 60) - 30),
        }),
      );
    }
    let changes = 0;
    const track = (res: { statusCode: number; json(): { data?: { orderId: number[] } } }) => {
      if (res.statusCode === 200) changes += res.json().data!.orderId.length;
    };
    for (let step = 0; step < 80; step++) {
      const role = pick(roles);
      const some = created.filter(() => rand() < 0.08);
      if (!some.length) continue;
      const action = rand();
      if (action < 0.3)
        track(await put(role, '/api/admin/assign-order-status', { orderId: some, assignto: 'me' }));
      else if (action < 0.5)
        track(await put(role, '/api/admin/assign-order-status', { orderId: some, assignto: '' }));
      else if (action < 0.65) {
        track(
          await put(role, '/api/admin/change-order-status', {
            orderId: some,
            permanentDeletedFlag: false,
            updatingStatus: 'Deleted',
            folderName: pick(FOLDERS),
          }),
        );
      } else if (action < 0.75)
        track(await put(role, '/api/admin/move-to-complete-refund', { orderId: some }));
      else {
        // A status move as the detail screen makes it (another area's endpoint), straight in SQL.
        await t.database.sql.query(
          `update orders set process_status = $1, processing_date = $2 where order_id = any($3::bigint[])`,
          [pick(statuses), day(Math.floor(rand() * 60) - 30), some],
        );
      }
    }
    expect(changes).toBeGreaterThan(20);
    for (const role of roles) await expectFoldersAgree(role);
  });
});
