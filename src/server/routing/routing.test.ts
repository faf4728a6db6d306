import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WeekHours } from '../../shared/contracts/routing.js';
import { releaseIdleOrders } from '../flows/idle-release.js';
import { routeOrders } from '../flows/route-orders.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { addCurrentCard, createOrder, createOrders } from '../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** On shift at any hour of any day: the tests pass whenever they run. */
const ALWAYS: WeekHours = {
  mon: [['00:00', '24:00']],
  tue: [['00:00', '24:00']],
  wed: [['00:00', '24:00']],
  thu: [['00:00', '24:00']],
  fri: [['00:00', '24:00']],
  sat: [['00:00', '24:00']],
  sun: [['00:00', '24:00']],
};

const put = (role: DemoRole, url: string, payload: object) => t.as(role, { method: 'PUT', url, payload });
const get = (role: DemoRole, url: string) => t.as(role, { method: 'GET', url });
const q = async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<R>(text, params)).rows;

async function member(role: DemoRole) {
  const res = await get('Admin', '/api/admin/get-team-member-list');
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().data.find((m: { type: string }) => m.type === role) as {
    id: number;
    name: string;
    email: string;
    type: string;
  };
}
const updateMember = async (role: DemoRole, fields: object, as: DemoRole = 'Manager') => {
  const m = await member(role);
  return t.as(as, {
    method: 'POST',
    url: '/api/admin/update-team-member',
    payload: { tmId: m.id, name: m.name, email: m.email, type: m.type, password: '', ...fields },
  });
};
const setPolicy = (body: object) => put('Manager', '/api/admin/routing-policy', body);
const POLICY_ON = {
  routing: { newOrder: 'auto', priorityOrder: 'auto', customerAnswers: 'off' },
  idleMinutesToRelease: 60,
};
const holderOf = async (orderId: number) =>
  (await q<{ a: number | null }>('select assigned_to a from orders where order_id = $1', [orderId]))[0]!.a;

/** Nothing open held, nothing unassigned left waiting from an earlier test. */
beforeEach(async () => {
  await t.database.sql.query(
    `update orders set process_status = 'Deleted' where process_status not in ('Completed', 'Deleted', 'Refunded')`,
  );
  await t.database.sql.query(
    `update staff_users set shift = null, capacity = 25, away = false, away_until = null, languages = '{}'`,
  );
});

describe('routing policy', () => {
  it('answers the defaults: every folder off, release after 480 minutes', async () => {
    const res = await get('Admin', '/api/admin/routing-policy');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      routing: { newOrder: 'off', priorityOrder: 'off', customerAnswers: 'off' },
      idleMinutesToRelease: 480,
    });
  });

  it('saves a whole valid policy, audited; refuses hostile fields and other roles, changing nothing', async () => {
    const ok = await setPolicy({ ...POLICY_ON, idleMinutesToRelease: null });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ idleMinutesToRelease: null, updatedBy: expect.any(String) });
    const audit = await q<{ to_value: unknown }>(
      `select to_value from audit_log where action = 'routing-policy.update' order by id desc limit 1`,
    );
    expect(audit[0]!.to_value).toMatchObject({ idleMinutesToRelease: null });
    for (const bad of [
      { ...POLICY_ON, idleMinutesToRelease: 10_081 },
      { ...POLICY_ON, idleMinutesToRelease: 0 },
      { ...POLICY_ON, idleMinutesToRelease: 1e308 },
      { ...POLICY_ON, routing: { ...POLICY_ON.routing, newOrder: 'auto\u0000' } },
      { ...POLICY_ON, routing: { ...POLICY_ON.routing, pendingOrder: 'auto' } },
      { ...POLICY_ON, extra: 1 },
    ]) {
      expect((await setPolicy(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await put(role, '/api/admin/routing-policy', POLICY_ON)).statusCode).toBe(403);
      expect((await get(role, '/api/admin/routing-policy')).statusCode).toBe(403);
    }
    expect((await get('Admin', '/api/admin/routing-policy')).json().data.idleMinutesToRelease).toBeNull();
  });
});

describe('routing fields of a team member', () => {
  it('are set on the Team routes by a Manager, audited, and shown in the list', async () => {
    const res = await updateMember('Team', {
      capacity: 2,
      languages: ['es', 'en', 'es'],
      shift: ALWAYS,
      away: false,
      awayUntil: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      capacity: 2,
      languages: ['es', 'en'],
      shift: ALWAYS,
      away: false,
    });
    const listed = await member('Team');
    expect(listed).toMatchObject({ capacity: 2, languages: ['es', 'en'] });
    const [audit] = await q<{ from_value: { capacity: number }; to_value: { capacity: number } }>(
      `select from_value, to_value from audit_log where action = 'team.update' and target = $1 order by id desc limit 1`,
      [`staff:${listed.id}`],
    );
    expect(audit!.from_value.capacity).toBe(25);
    expect(audit!.to_value.capacity).toBe(2);
    // Left out: kept.
    expect((await updateMember('Team', { name: 'Demo Team' })).json().data.capacity).toBe(2);
  });

  it('refuses hostile routing fields, and a Team member editing them, changing nothing', async () => {
    await updateMember('Team', { capacity: 3 });
    for (const bad of [
      { capacity: 201 },
      { capacity: -1 },
      { capacity: 2.5 },
      { languages: ['xx'] },
      { languages: ['es\u0000'] },
      { shift: { ...ALWAYS, mon: [['17:00', '09:00']] } },
      { shift: { ...ALWAYS, mon: [['09:00', '25:00']] } },
      { shift: { ...ALWAYS, fun: [] } },
      {
        shift: {
          ...ALWAYS,
          mon: [
            ['09:00', '12:00'],
            ['11:00', '13:00'],
          ],
        },
      },
      { awayUntil: 'tomorrow' },
      { away: 'yes' },
    ]) {
      expect((await updateMember('Team', bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await updateMember('Telecaller', { capacity: 1 }, 'Team')).statusCode).toBe(403);
    expect((await member('Team')) as unknown).toMatchObject({ capacity: 3 });
  });

  it('lets each member switch themselves Away and back, audited; a past until is refused', async () => {
    const off = await put('Team', '/api/staff/availability', { away: true });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ away: true, awayUntil: null });
    expect((await member('Team')) as unknown).toMatchObject({ away: true });
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      (await put('Team', '/api/staff/availability', { away: true, awayUntil: until })).json().data.awayUntil,
    ).toBe(new Date(until).toISOString());
    const past = await put('Team', '/api/staff/availability', {
      away: true,
      awayUntil: '2020-01-01T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    expect((await put('Team', '/api/staff/availability', { away: false, id: 1 })).statusCode).toBe(400);
    expect((await put('Team', '/api/staff/availability', { away: 'no' })).statusCode).toBe(400);
    const back = await put('Team', '/api/staff/availability', { away: false });
    expect(back.json().data).toMatchObject({ away: false });
    const audits = await q(`select 1 from audit_log where action = 'team.availability'`);
    expect(audits.length).toBeGreaterThanOrEqual(3);
    expect((await get('Night Staff', '/api/staff/availability')).json().data).toMatchObject({
      routed: false,
    });
  });
});

describe('automatic assignment', () => {
  it('hands new orders to the member on shift up to capacity; the rest wait and go out as capacity frees', async () => {
    await setPolicy(POLICY_ON);
    const team = await member('Team');
    await updateMember('Team', { capacity: 2, shift: ALWAYS });
    const a = await createOrder(t.database);
    const b = await createOrder(t.database);
    const c = await createOrder(t.database);
    expect(await routeOrders(t.database.db, new Date())).toBe(2);
    expect([await holderOf(a.orderId), await holderOf(b.orderId), await holderOf(c.orderId)]).toEqual([
      team.id,
      team.id,
      null,
    ]);
    // By "Routing": no actor; the history names it.
    const [event] = await q<{ actor_id: number | null; to_value: string }>(
      `select actor_id, to_value from order_events where order_id = $1 and action = 'assign'`,
      [a.orderId],
    );
    expect(event).toEqual({ actor_id: null, to_value: String(team.id) });
    const detail = await get('Team', `/api/admin/get-orders-details/${a.orderId}`);
    expect(detail.statusCode).toBe(200);
    expect(JSON.stringify(detail.json())).toContain('"actor_name":"Routing"');
    // Nothing frees: the next pass assigns nothing.
    expect(await routeOrders(t.database.db, new Date())).toBe(0);
    // The member completes one: the waiting order goes out on the next pass.
    await addCurrentCard(t.database, t.config.DATA_DIR, a.orderId);
    const done = await put('Team', '/api/admin/move-order-status', {
      orderId: a.orderId,
      updatingStatus: 'Completed',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await routeOrders(t.database.db, new Date())).toBe(1);
    expect(await holderOf(c.orderId)).toBe(team.id);
  });

  it('hands the waiting orders out Priority first, then oldest first; an order whose day has not come waits', async () => {
    await setPolicy(POLICY_ON);
    const team = await member('Team');
    await updateMember('Team', { capacity: 3, shift: ALWAYS });
    const newer = await createOrder(t.database);
    const older = await createOrder(t.database);
    const priority = await createOrder(t.database, { processing_mode: 'Priority' });
    const oldest = await createOrder(t.database);
    const future = await createOrder(t.database);
    const age = (orderId: number, hours: number, set = '') =>
      q(`update orders set created_at = now() - make_interval(hours => $2::int)${set} where order_id = $1`, [
        orderId,
        hours,
      ]);
    await age(older.orderId, 1);
    await age(oldest.orderId, 2);
    await age(future.orderId, 3, ', processing_date = processing_date + 2');
    expect(await routeOrders(t.database.db, new Date())).toBe(3);
    const holders = async () =>
      Promise.all([newer, older, priority, oldest, future].map((o) => holderOf(o.orderId)));
    expect(await holders()).toEqual([null, team.id, team.id, team.id, null]);
    await updateMember('Team', { capacity: 10 });
    expect(await routeOrders(t.database.db, new Date())).toBe(1);
    expect(await holders()).toEqual([team.id, team.id, team.id, team.id, null]);
  });

  it('with more than a batch due, takes the batch in the same order: Priority first, then oldest first', async () => {
    await setPolicy(POLICY_ON);
    const team = await member('Team');
    await updateMember('Team', { capacity: 2, shift: ALWAYS });
    const older = await createOrder(t.database);
    const priority = await createOrder(t.database, { processing_mode: 'Priority' });
    const oldest = await createOrder(t.database);
    await q(`update orders set created_at = now() - interval '1 hour' where order_id = $1`, [older.orderId]);
    await q(`update orders set created_at = now() - interval '2 hours' where order_id = $1`, [
      oldest.orderId,
    ]);
    // Over a batch (500) due: the pass reads the queue, not the due orders by id.
    await createOrders(t.database, 501);
    expect(await routeOrders(t.database.db, new Date())).toBe(2);
    expect(await holderOf(priority.orderId)).toBe(team.id);
    expect(await holderOf(oldest.orderId)).toBe(team.id);
    expect(await holderOf(older.orderId)).toBeNull();
  });

  it('routes nothing while the folders are off, the member is away or has no shift', async () => {
    await updateMember('Team', { shift: ALWAYS });
    await setPolicy({
      ...POLICY_ON,
      routing: { newOrder: 'off', priorityOrder: 'off', customerAnswers: 'off' },
    });
    const o = await createOrder(t.database);
    expect(await routeOrders(t.database.db, new Date())).toBe(0);
    await setPolicy(POLICY_ON);
    await put('Team', '/api/staff/availability', { away: true });
    expect(await routeOrders(t.database.db, new Date())).toBe(0);
    await put('Team', '/api/staff/availability', { away: false });
    await updateMember('Team', { shift: null });
    expect(await routeOrders(t.database.db, new Date())).toBe(0);
    expect(await holderOf(o.orderId)).toBeNull();
    // Priority folder only: a Standard order waits, a Priority one goes.
    await updateMember('Team', { shift: ALWAYS });
    await setPolicy({
      ...POLICY_ON,
      routing: { newOrder: 'off', priorityOrder: 'auto', customerAnswers: 'off' },
    });
    const p = await createOrder(t.database, { processing_mode: 'Priority' });
    expect(await routeOrders(t.database.db, new Date())).toBe(1);
    expect(await holderOf(p.orderId)).not.toBeNull();
    expect(await holderOf(o.orderId)).toBeNull();
  });

  it('asks before a manual assignment above capacity: 409 with the load; Admin/Manager may confirm, others 403', async () => {
    await setPolicy({
      ...POLICY_ON,
      routing: { newOrder: 'off', priorityOrder: 'off', customerAnswers: 'off' },
    });
    await updateMember('Team', { capacity: 1, shift: ALWAYS });
    await updateMember('Manager', { capacity: 0, shift: ALWAYS }, 'Admin');
    const [x, y] = [await createOrder(t.database), await createOrder(t.database)];
    const assign = (role: DemoRole, orderId: number, extra = {}) =>
      put(role, '/api/admin/assign-order-status', { orderId: [orderId], assignto: 'me', ...extra });
    expect((await assign('Team', x.orderId)).statusCode).toBe(200);
    const over = await assign('Team', y.orderId);
    expect(over.statusCode).toBe(409);
    expect(over.json().data ?? over.json()).toMatchObject({
      load: { held: 1, capacity: 1, adding: 1, mayConfirm: false },
    });
    expect((await assign('Team', y.orderId, { overCapacity: true })).statusCode).toBe(403);
    expect(await holderOf(y.orderId)).toBeNull();
    const managerOver = await assign('Manager', y.orderId);
    expect(managerOver.statusCode).toBe(409);
    expect(JSON.stringify(managerOver.json())).toContain('"mayConfirm":true');
    expect((await assign('Manager', y.orderId, { overCapacity: true })).statusCode).toBe(200);
    expect(await holderOf(y.orderId)).toBe((await member('Manager')).id);
    // Without a shift, capacity does not apply (routing does not count on them).
    await updateMember('Team', { shift: null });
    expect((await assign('Team', (await createOrder(t.database)).orderId)).statusCode).toBe(200);
  });
});

describe('idle release', () => {
  it('returns a held New order nobody of its holder touched to its folder, with an event; waiting ones stay', async () => {
    await setPolicy({
      ...POLICY_ON,
      routing: { newOrder: 'off', priorityOrder: 'off', customerAnswers: 'off' },
    });
    const team = await member('Team');
    const idle = await createOrder(t.database);
    const busy = await createOrder(t.database);
    const waiting = await createOrder(t.database);
    for (const o of [idle, busy, waiting])
      expect(
        (await put('Team', '/api/admin/assign-order-status', { orderId: [o.orderId], assignto: 'me' }))
          .statusCode,
      ).toBe(200);
    const moved = await put('Team', '/api/admin/move-order-status', {
      orderId: waiting.orderId,
      updatingStatus: 'Awaiting',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // Not yet idle.
    expect(await releaseIdleOrders(t.database.db, new Date(Date.now() + 59 * 60_000))).toEqual([]);
    // The holder acts on one (a remark) a while later: measured from then.
    await t.database.sql.query(
      `update order_events set created_at = created_at - interval '2 hours' where order_id = any($1::bigint[])`,
      [[idle.orderId, busy.orderId, waiting.orderId]],
    );
    const remark = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId: busy.orderId, remark: 'Checked the passport' },
    });
    expect(remark.statusCode, remark.body).toBe(200);
    const released = await releaseIdleOrders(t.database.db, new Date(Date.now() + 60_000));
    expect(released).toContainEqual({ orderId: idle.orderId, holder: team.id });
    expect(released.map((r) => r.orderId)).not.toContain(waiting.orderId);
    expect(released.map((r) => r.orderId)).not.toContain(busy.orderId);
    expect(await holderOf(idle.orderId)).toBeNull();
    expect(await holderOf(waiting.orderId)).toBe(team.id);
    const [event] = await q<{ actor_id: number | null; from_value: string; to_value: string | null }>(
      `select actor_id, from_value, to_value from order_events where order_id = $1 and action = 'assign' order by id desc limit 1`,
      [idle.orderId],
    );
    expect(event).toEqual({ actor_id: null, from_value: String(team.id), to_value: null });
    // Null: never.
    await setPolicy({ ...POLICY_ON, idleMinutesToRelease: null });
    expect(await releaseIdleOrders(t.database.db, new Date(Date.now() + 30 * 86_400_000))).toEqual([]);
  });
});
