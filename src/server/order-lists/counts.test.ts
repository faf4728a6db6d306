import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { FOLDER_COUNT_KEYS } from '../../shared/constants.js';
import { serviceToday } from '../../shared/dates.js';
import { setDueClockForTests } from '../due-time/policy.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { type CountsMemory, countsFromDatabase } from './counts.js';
import { dayCounts, readCounterRows } from './counter-rows.js';
import { folderCounts } from '../orders/list-counts.js';

/** Folder and due-time counts in memory (decision 220): always what the database says. */
let t: TestApp;
let memory: CountsMemory;
let adminId: number;
beforeAll(async () => {
  t = await createTestApp();
  memory = t.app.ctx.lists.counts;
  const { rows } = await t.database.sql.query<{ id: number }>(
    `select id from staff_users where role = 'Admin' order by id limit 1`,
  );
  adminId = rows[0]!.id;
});
afterAll(() => t.close());
afterEach(() => setDueClockForTests(null));

/** Memory equals the database; a change written elsewhere is heard within milliseconds on PostgreSQL. */
async function expectExact(staffId = adminId) {
  const started = Date.now();
  for (;;) {
    const [mem, db] = [await memory.countsFor(staffId), await countsFromDatabase(t.database.db, staffId)];
    if (JSON.stringify(mem) === JSON.stringify(db) || Date.now() - started > 1_000) {
      expect(mem).toEqual(db);
      return mem;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A counter moved behind the triggers' back (as a lost notification would leave it). */
const ADD_AWAITING = `insert into order_folder_counts as c (process_status, processing_mode, assigned_to, due_date, n)
  values ('Awaiting', 'Standard', null, null, $1)
  on conflict (process_status, processing_mode, assigned_to, due_date) do update set n = c.n + excluded.n`;

const day = (offset: number) => serviceToday(new Date(Date.now() + offset * 86_400_000));

describe('folder counts in memory', () => {
  it('runs for the app, answers without reading while nothing changes, and follows every change', async () => {
    expect(memory).toBeDefined();
    await expectExact();
    const reads = memory.reads;
    for (let i = 0; i < 5; i++) await memory.countsFor(adminId);
    expect(memory.reads).toBe(reads);

    const order = await createOrder(t.database, { processing_date: day(0) });
    const afterCreate = await expectExact();
    expect(memory.reads).toBeGreaterThan(reads);
    // Assigned to the Admin: New → Pending and My Orders, without an order event (the counters trigger).
    await t.database.db.execute(
      sql`update orders set assigned_to = ${adminId} where order_id = ${order.orderId}`,
    );
    const afterAssign = await expectExact();
    expect(afterAssign.myOrdersCount).toBe(afterCreate.myOrdersCount + 1);
    await t.database.db.execute(
      sql`update orders set process_status = 'Completed' where order_id = ${order.orderId}`,
    );
    const afterClose = await expectExact();
    expect(afterClose.myOrdersCount).toBe(afterCreate.myOrdersCount);
    expect(afterClose.completedOrdersCount).toBe(afterCreate.completedOrdersCount + 1);
    // Over the HTTP route too.
    const res = await t.as('Admin', { method: 'GET', url: '/api/admin/get-folder-count' });
    expect(res.json().data).toEqual({ ...afterClose, repliedCount: 0, callBackDueCount: 0 });
  });

  it('moves the date-dependent folders with the service day, exactly as the database query', async () => {
    for (const offset of [0, 1, 2, 40]) {
      await createOrder(t.database, { processing_date: day(offset) });
      await createOrder(t.database, { processing_date: day(offset), processing_mode: 'Priority' });
    }
    const rows = await readCounterRows(t.database.db);
    for (const offset of [-1, 0, 1, 2, 39, 40, 41]) {
      const today = day(offset);
      const fromDb = await folderCounts(t.database.db, { today, staffId: adminId });
      const mem = dayCounts(rows, today);
      expect(
        { ...mem.base, [FOLDER_COUNT_KEYS.myOrder]: mem.open.get(adminId) ?? 0 },
        `service day ${today}`,
      ).toEqual(fromDb);
    }
  });

  it('finds and corrects drift in the periodic check', async () => {
    await expectExact();
    await t.database.sql.query(
      'alter table order_folder_counts disable trigger order_folder_counts_cache_notify',
    );
    try {
      await t.database.sql.query(ADD_AWAITING, [7]);
      const drifts = memory.drifts;
      const stale = await memory.countsFor(adminId);
      expect(stale).not.toEqual(await countsFromDatabase(t.database.db, adminId));
      expect(await memory.check()).toBe(false);
      expect(memory.drifts).toBe(drifts + 1);
      expect(await memory.countsFor(adminId)).toEqual(await countsFromDatabase(t.database.db, adminId));
    } finally {
      await t.database.sql.query(ADD_AWAITING, [-7]);
      await t.database.sql.query(
        'alter table order_folder_counts enable trigger order_folder_counts_cache_notify',
      );
    }
    await memory.check(); // the counter moved back behind the triggers' back too
    await expectExact();
  });

  it('keeps the at-risk and breached counts exact as time passes, with no change to hear', async () => {
    const order = await createOrder(t.database, { processing_date: day(3), arrival_date: day(6) });
    const { rows } = await t.database.sql.query<{ due_at: Date }>(
      'select due_at from orders where order_id = $1',
      [order.orderId],
    );
    const due = new Date(rows[0]!.due_at).getTime();
    setDueClockForTests(() => new Date(due - 1));
    const before = await expectExact();
    const reads = memory.reads;
    setDueClockForTests(() => new Date(due));
    const at = await expectExact();
    expect(at.breachedCount).toBeGreaterThanOrEqual(before.breachedCount + 1);
    setDueClockForTests(() => new Date(due - 1));
    expect(await memory.countsFor(adminId)).toEqual(before);
    expect(memory.reads).toBe(reads); // the folders were not read again: only the due-time counts
  });

  it('answers page 1 of a list from memory until an order changes', async () => {
    const url = '/api/admin/get-orders-list/allOrder?page=1&limit=5';
    const created = await createOrder(t.database, { processing_date: day(0) });
    // The new order's own notification heard first (on PostgreSQL it arrives a moment later and would
    // drop the page cached below).
    await expectExact();
    const first = await t.as('Admin', { method: 'GET', url });
    expect(first.statusCode).toBe(200);
    expect(first.json().data[0].order_id).toBe(created.orderId);
    // Answered again from memory: the very same rows, even when the table changes behind the triggers
    // (through another connection, with the notification off).
    await t.database.sql.query(
      'alter table order_folder_counts disable trigger order_folder_counts_cache_notify',
    );
    try {
      await t.database.sql.query(`update orders set first_name = 'Unheard' where order_id = $1`, [
        created.orderId,
      ]);
      const again = await t.as('Admin', { method: 'GET', url });
      expect(again.json()).toEqual(first.json());
    } finally {
      await t.database.sql.query(
        'alter table order_folder_counts enable trigger order_folder_counts_cache_notify',
      );
    }
    // A change heard drops it: the next answer has the new name.
    await t.database.sql.query(`update orders set first_name = 'Cachebuster' where order_id = $1`, [
      created.orderId,
    ]);
    const started = Date.now();
    let rows: { order_id: number; first_name: string }[] = [];
    while (Date.now() - started < 1_000) {
      rows = (await t.as('Admin', { method: 'GET', url })).json().data;
      if (rows[0]?.first_name === 'Cachebuster') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(rows[0]).toMatchObject({ order_id: created.orderId, first_name: 'Cachebuster' });
  });

  it("drops page 1 when this instance's own change commits, before the change's answer is sent", async () => {
    const url = '/api/admin/get-orders-list/allOrder?page=1&limit=5';
    const before = (await t.as('Admin', { method: 'GET', url })).json().data as { order_id: number }[];
    const target = before[0]!.order_id;
    // No notification at all: only the commit hook can drop the page.
    await t.database.sql.query(
      'alter table order_folder_counts disable trigger order_folder_counts_cache_notify',
    );
    try {
      expect((await t.as('Admin', { method: 'GET', url })).json().data).toEqual(before);
      const res = await t.as('Admin', {
        method: 'PUT',
        url: '/api/admin/assign-order-status',
        payload: { orderId: [target], assignto: 'me' },
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = (await t.as('Admin', { method: 'GET', url })).json().data as {
        order_id: number;
        assign_to: string | null;
      }[];
      expect(after.find((r) => r.order_id === target)?.assign_to).toBeTruthy();
      expect(after).not.toEqual(before);
    } finally {
      await t.database.sql.query(
        'alter table order_folder_counts enable trigger order_folder_counts_cache_notify',
      );
    }
  });

  it('keeps page 1 of a filtered list too (read under its time limit)', async () => {
    const created = await createOrder(t.database, { processing_date: day(0), nationality: 'Tonga' });
    const url = '/api/admin/get-orders-list/allOrder?page=1&limit=5&nationality=TON&sort=arrival_date';
    const first = await t.as('Admin', { method: 'GET', url });
    expect(first.json().data.map((r: { order_id: number }) => r.order_id)).toContain(created.orderId);
    await t.database.sql.query(
      'alter table order_folder_counts disable trigger order_folder_counts_cache_notify',
    );
    try {
      await t.database.sql.query(`update orders set first_name = 'Unheard' where order_id = $1`, [
        created.orderId,
      ]);
      expect((await t.as('Admin', { method: 'GET', url })).json()).toEqual(first.json());
    } finally {
      await t.database.sql.query(
        'alter table order_folder_counts enable trigger order_folder_counts_cache_notify',
      );
    }
  });

  it('is off when turned off (EDCARD_FIRST_PAGE_CACHE=0 at start)', async () => {
    const { lists } = t.app.ctx;
    lists.firstPageCache = false;
    onTestFinished(() => {
      lists.firstPageCache = true;
    });
    const url = '/api/admin/get-orders-list/allOrder?page=1&limit=5';
    await t.as('Admin', { method: 'GET', url });
    await t.database.sql.query(
      'alter table order_folder_counts disable trigger order_folder_counts_cache_notify',
    );
    try {
      const created = await createOrder(t.database, { processing_date: day(0) });
      const rows = (await t.as('Admin', { method: 'GET', url })).json().data as { order_id: number }[];
      expect(rows[0]?.order_id).toBe(created.orderId);
    } finally {
      await t.database.sql.query(
        'alter table order_folder_counts enable trigger order_folder_counts_cache_notify',
      );
    }
  });
});
