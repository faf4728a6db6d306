import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';

/** Every change of a saved view is in the audit log, in the change's transaction; refusals leave none. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (role: DemoRole, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.as(role, { method, url, ...(payload ? { payload } : {}) });

interface Row {
  action: string;
  actor_email: string;
  target: string;
  from_value: unknown;
  to_value: unknown;
}
const viewAudit = async () =>
  (
    await t.database.sql.query<Row>(
      `select action, actor_email, target, from_value, to_value from audit_log
        where action like 'view.%' order by id`,
    )
  ).rows;

const body = {
  name: 'Arriving soon',
  folder: 'pendingOrder',
  query: { sort: 'arrival_date', dir: 'asc', limit: 25 },
  shared: true,
};

describe('saved view changes in the audit log', () => {
  it('records saving, renaming (and sharing) and deleting, with before and after', async () => {
    const created = await call('Manager', 'POST', '/api/admin/views', body);
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    const renamed = await call('Manager', 'PUT', `/api/admin/views/${id}`, {
      ...body,
      name: 'Arriving in 72 h',
      shared: false,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await call('Manager', 'DELETE', `/api/admin/views/${id}`)).statusCode).toBe(200);

    const value = (name: string, shared: boolean) => ({
      name,
      folder: 'pendingOrder',
      shared,
      query: body.query,
    });
    expect(await viewAudit()).toEqual([
      {
        action: 'view.create',
        actor_email: 'manager@demo.test',
        target: `view:${id}`,
        from_value: null,
        to_value: value('Arriving soon', true),
      },
      {
        action: 'view.update',
        actor_email: 'manager@demo.test',
        target: `view:${id}`,
        from_value: value('Arriving soon', true),
        to_value: value('Arriving in 72 h', false),
      },
      {
        action: 'view.delete',
        actor_email: 'manager@demo.test',
        target: `view:${id}`,
        from_value: value('Arriving in 72 h', false),
        to_value: null,
      },
    ]);
    // The audit screen filters by these actions.
    const list = await t.as('Admin', { method: 'GET', url: '/api/admin/audit-log?action=view.update' });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.entries.map((e: { target: string }) => e.target)).toEqual([`view:${id}`]);
  });

  it('records nothing for a refused change: another member, another role, a hostile name', async () => {
    const shared = (await call('Admin', 'POST', '/api/admin/views', { ...body, name: 'Admin shared' })).json()
      .data.id as number;
    const before = (await viewAudit()).length;
    const refusals = [
      [await call('Team', 'PUT', `/api/admin/views/${shared}`, { ...body, shared: false }), 403],
      [await call('Team', 'DELETE', `/api/admin/views/${shared}`), 403],
      [await call('Team', 'POST', '/api/admin/views', body), 403],
      [
        await call('Telecaller', 'POST', '/api/admin/views', { ...body, folder: 'allOrder', shared: false }),
        403,
      ],
      [await call('Admin', 'PUT', `/api/admin/views/${shared}`, { ...body, name: 'bad\u0000name' }), 400],
      [await call('Admin', 'PUT', `/api/admin/views/${shared}`, { ...body, name: 'x'.repeat(10_000) }), 400],
      [await call('Admin', 'DELETE', '/api/admin/views/2147483648'), 400],
      [await call('Admin', 'DELETE', '/api/admin/views/999999'), 404],
    ] as const;
    for (const [res, status] of refusals) expect(res.statusCode, res.body).toBe(status);
    expect(await viewAudit()).toHaveLength(before);
  });
});
