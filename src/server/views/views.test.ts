import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VIEWS_PER_USER } from '../../shared/contracts/views.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/** Saved views: own views for everyone, shared ones by Admin and Manager, live counts, refusals. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 3; i++)
    await createOrder(t.database, { nationality: 'Nauru', processing_mode: 'Priority' });
  await createOrder(t.database, { nationality: 'Nauru', processing_mode: 'Standard' });
});
afterAll(() => t.close());

const call = (role: DemoRole, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  t.as(role, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

const viewRows = async () =>
  (await t.database.sql.query<Record<string, unknown>>('select * from saved_views order by id')).rows;

const body = {
  name: 'Nauru priority',
  folder: 'allOrder',
  query: { nationality: 'NRU', processingMode: 'Priority', sort: 'arrival_date', dir: 'asc', limit: 50 },
  shared: false,
};

describe('saved views', () => {
  let teamView: number;
  let sharedView: number;

  it('a member saves a view and sees it with its live count; others do not see it', async () => {
    const res = await call('Team', 'POST', '/api/admin/views', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: body.name, shared: false, mine: true, count: 3 });
    teamView = res.json().data.id;
    await createOrder(t.database, { nationality: 'Nauru', processing_mode: 'Priority' });
    const mine = (await call('Team', 'GET', '/api/admin/views')).json().data;
    expect(mine).toEqual([expect.objectContaining({ id: teamView, count: 4, query: body.query })]);
    const other = (await call('Telecaller', 'GET', '/api/admin/views')).json().data;
    expect(other.map((v: { id: number }) => v.id)).not.toContain(teamView);
  });

  it('only Admin and Manager share; shared views appear for everyone who may read the folder', async () => {
    const refused = await call('Team', 'POST', '/api/admin/views', { ...body, shared: true });
    expect(refused.statusCode).toBe(403);
    const res = await call('Manager', 'POST', '/api/admin/views', {
      name: 'Nauru in Priority Orders',
      folder: 'priorityOrder',
      query: { nationality: 'NRU' },
      shared: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    sharedView = res.json().data.id;
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const views = (await call(role, 'GET', '/api/admin/views')).json().data;
      expect(views, role).toContainEqual(
        expect.objectContaining({ id: sharedView, shared: true, mine: false, count: 4 }),
      );
    }
    // A shared view of All Orders is not offered to a role that may not read All Orders.
    const all = await call('Admin', 'POST', '/api/admin/views', { ...body, name: 'All Nauru', shared: true });
    expect(all.statusCode).toBe(200);
    const telecaller = (await call('Telecaller', 'GET', '/api/admin/views')).json().data;
    expect(telecaller.map((v: { id: number }) => v.id)).not.toContain(all.json().data.id);
  });

  it("another member's view: 403 when shared, 404 when private, and nothing changes", async () => {
    const before = await viewRows();
    expect((await call('Team', 'PUT', `/api/admin/views/${sharedView}`, body)).statusCode).toBe(403);
    expect((await call('Team', 'DELETE', `/api/admin/views/${sharedView}`)).statusCode).toBe(403);
    expect((await call('Telecaller', 'PUT', `/api/admin/views/${teamView}`, body)).statusCode).toBe(404);
    expect((await call('Admin', 'DELETE', `/api/admin/views/${teamView}`)).statusCode).toBe(404);
    expect((await call('Team', 'DELETE', '/api/admin/views/2147483647')).statusCode).toBe(404);
    expect((await call('Team', 'DELETE', '/api/admin/views/99999999999999')).statusCode).toBe(400);
    expect(await viewRows()).toEqual(before);
  });

  it('the owner changes and deletes their view', async () => {
    const res = await call('Team', 'PUT', `/api/admin/views/${teamView}`, {
      ...body,
      name: 'Nauru standard',
      query: { nationality: 'NRU', processingMode: 'Standard', columns: ['order_id', 'name', 'due_at'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Nauru standard', count: 1 });
    expect((await call('Team', 'DELETE', `/api/admin/views/${teamView}`)).statusCode).toBe(200);
    expect((await viewRows()).map((r) => r.id)).not.toContain(teamView);
  });

  it('refuses hostile bodies with 400 and stores nothing', async () => {
    const before = await viewRows();
    for (const payload of [
      { ...body, name: 'a\u0000b' },
      { ...body, name: 'x'.repeat(5000) },
      { ...body, name: '   ' },
      { ...body, folder: 'secretOrder' },
      { ...body, query: { ...body.query, sort: 'price' } },
      { ...body, query: { ...body.query, nationality: 'N\u0000U' } },
      { ...body, query: { ...body.query, limit: 1e12 } },
      { ...body, query: { ...body.query, columns: ['order_id', 'password'] } },
      { ...body, query: { ...body.query, extra: 1 } },
      { ...body, shared: 'yes' },
      { ...body, owner: 1 },
    ]) {
      const res = await call('Team', 'POST', '/api/admin/views', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(await viewRows()).toEqual(before);
  });

  it(`keeps at most ${MAX_VIEWS_PER_USER} views per member`, async () => {
    await t.database.sql.query(
      `insert into saved_views (owner_id, name, folder, query)
       select id, 'bulk ' || g, 'newOrder', '{}'::jsonb from staff_users, generate_series(1, $1) g
       where role = 'Telecaller' and deleted_at is null`,
      [MAX_VIEWS_PER_USER],
    );
    const res = await call('Telecaller', 'POST', '/api/admin/views', { ...body, folder: 'newOrder' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/at most/);
  });
});
