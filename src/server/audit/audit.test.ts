import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTION_NAMES, type AuditEntry, type AuditLogPage } from '../../shared/contracts/audit.js';
import { serviceToday } from '../../shared/dates.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const list = async (role: DemoRole, qs = '') => {
  const res = await t.as(role, { method: 'GET', url: `/api/admin/audit-log${qs ? `?${qs}` : ''}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as AuditLogPage;
};
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/admin/admin-login', payload: { email, password } });
const rowsOf = async () =>
  (await t.database.sql.query<Record<string, unknown>>('select * from audit_log order by id')).rows.map((r) =>
    JSON.stringify(r),
  );

describe('audit log list', () => {
  beforeAll(async () => {
    await login('admin@demo.test', 'demo-password');
    await login('admin@demo.test', 'wrong-password');
    await login('manager@demo.test', 'demo-password');
    await login('nobody@demo.test', 'wrong-password');
  });

  it('records an entry for each staff action and lists it, newest first', async () => {
    const gateways = (await t.as('Admin', { method: 'GET', url: '/api/admin/payment-gateways' })).json().data;
    const paypal = gateways.find((g: { gateway_name: string }) => g.gateway_name === 'PayPal');
    expect(
      (
        await t.as('Manager', {
          method: 'POST',
          url: '/api/admin/payment-gateway-setting',
          payload: { gatewayId: paypal.id },
        })
      ).statusCode,
    ).toBe(200);
    const added = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/add-team-member',
      payload: {
        name: 'Audit Person',
        email: 'audit.person@demo.test',
        password: 'secret-123',
        type: 'Team',
      },
    });
    expect(added.statusCode, added.body).toBe(200);
    const exported = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/audit/export-event',
      payload: { screen: 'orders', rows: 25, detail: 'newOrder p1' },
    });
    expect(exported.statusCode, exported.body).toBe(200);

    const page = await list('Admin');
    const actions = page.entries.map((e) => e.action);
    for (const a of ['login.success', 'login.failure', 'gateway.activate', 'team.add', 'export.csv'])
      expect(actions, a).toContain(a);
    const times = page.entries.map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const exportEntry = page.entries.find((e) => e.action === 'export.csv')!;
    expect(exportEntry).toMatchObject({
      actorEmail: 'team@demo.test',
      actorName: expect.any(String),
      target: 'screen:orders',
      to: { rows: 25, detail: 'newOrder p1' },
    });
    const gateway = page.entries.find((e) => e.action === 'gateway.activate')!;
    expect(gateway).toMatchObject({ actorEmail: 'manager@demo.test', to: { active: ['PayPal'] } });
  });

  it('filters by actor (e-mail in any case, or id), action and days', async () => {
    const byEmail = await list('Admin', 'actor=MANAGER@demo.test');
    expect(byEmail.entries.length).toBeGreaterThan(0);
    expect(byEmail.entries.every((e) => e.actorEmail === 'manager@demo.test')).toBe(true);
    const managerId = byEmail.entries[0]!.actorId!;
    const byId = await list('Admin', `actor=${managerId}`);
    expect(byId.entries.every((e) => e.actorId === managerId)).toBe(true);
    const failures = await list('Admin', 'action=login.failure');
    expect(failures.entries.map((e) => e.actorEmail).sort()).toEqual(['admin@demo.test', 'nobody@demo.test']);
    const today = serviceToday();
    expect((await list('Admin', `from=${today}&to=${today}`)).total).toBe((await list('Admin')).total);
    expect((await list('Admin', 'from=2020-01-01&to=2020-12-31')).total).toBe(0);
    expect((await list('Admin', 'page=2')).entries).toEqual([]);
  });

  it('shows a Manager everything except Admin accounts’ sign-ins', async () => {
    const admin = await list('Admin');
    const manager = await list('Manager');
    const isAdminSignIn = (e: AuditEntry) =>
      e.action.startsWith('login.') && e.actorEmail === 'admin@demo.test';
    expect(admin.entries.some(isAdminSignIn)).toBe(true);
    expect(manager.entries.some(isAdminSignIn)).toBe(false);
    expect(manager.entries.map((e) => e.id)).toEqual(
      admin.entries.filter((e) => !isAdminSignIn(e)).map((e) => e.id),
    );
    expect(
      manager.entries.some((e) => e.action === 'login.success' && e.actorEmail === 'manager@demo.test'),
    ).toBe(true);
    expect((await list('Manager', 'actor=admin@demo.test&action=login.success')).total).toBe(0);
  });

  it('is closed to Team, Telecaller and Night Staff', async () => {
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const res = await t.as(role, { method: 'GET', url: '/api/admin/audit-log' });
      expect(res.statusCode).toBe(403);
      expect(res.json().data).toBeUndefined();
    }
  });

  it('refuses hostile query values with a 400 and no stack trace', async () => {
    for (const qs of [
      'actor=%00',
      'actor=a%01b@demo.test',
      `actor=${'a'.repeat(300)}`,
      'page=99999999999',
      'page=0',
      'page=1.5',
      'page=abc',
      'from=2026-11-22&to=2026-11-01',
      'from=2026-13-01',
      'to=yesterday',
      'action=drop%20table',
      'extra=1',
    ]) {
      const res = await t.as('Admin', { method: 'GET', url: `/api/admin/audit-log?${qs}` });
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().status).toBe(0);
      expect(res.body).not.toMatch(/at .*\.ts:\d+|stack/i);
    }
  });

  it('refuses a hostile export record and writes nothing', async () => {
    const before = await rowsOf();
    for (const payload of [
      { screen: 'orders', rows: 1, detail: 'a\u0000b' },
      { screen: 'passwords', rows: 1 },
      { screen: 'orders', rows: 1e12 },
      { screen: 'orders', rows: 1, detail: 'x'.repeat(501) },
      { screen: 'orders', rows: 1, actorId: 1 },
    ]) {
      const res = await t.as('Team', { method: 'POST', url: '/api/admin/audit/export-event', payload });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    expect(await rowsOf()).toEqual(before);
  });
});

describe('audit entries cannot be changed or deleted', () => {
  it('no registered route changes or deletes an audit row', async () => {
    const fill = (url: string) =>
      url
        .replace(/:(\w+)/g, (_, n: string) =>
          /folder|ordername/i.test(n) ? 'newOrder' : /file|name/i.test(n) ? 'x' : '1',
        )
        .replace(/\*$/, 'x');
    const before = await rowsOf();
    expect(before.length).toBeGreaterThan(3);
    const routes = t.app.routeTable.filter((r) => r.method !== 'GET');
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      for (const payload of [{}, { id: 1, ids: [1], auditId: 1, orderId: 100001 }]) {
        await t.as('Admin', { method: route.method as 'POST', url: fill(route.url), payload });
      }
    }
    const after = await rowsOf();
    expect(after.slice(0, before.length)).toEqual(before);
  });

  it('no server code updates or deletes audit rows (but the erasure redacts values), and the database refuses deletes', async () => {
    const root = path.resolve(import.meta.dirname, '..');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (
          /\.ts$/.test(name) &&
          !/\.test\.ts$/.test(name) &&
          !p.includes(`${path.sep}test${path.sep}`)
        ) {
          const src = readFileSync(p, 'utf8');
          if (
            /(update|delete)\s*\(\s*auditLog\b|(update|delete\s+from|truncate)\s+(table\s+)?audit_log\b/i.test(
              src,
            )
          )
            offenders.push(p);
        }
      }
    };
    walk(root);
    // The one exception: an erasure replaces the customer's personal values inside audit rows, never
    // the action, actor or time (docs/decisions/290-erasure-leaves-nothing.md).
    const erasure = path.join(root, 'retention', 'erase-copies.ts');
    expect(offenders.filter((p) => p !== erasure)).toEqual([]);
    const redactions = [...readFileSync(erasure, 'utf8').matchAll(/update audit_log set ([^`]*?) where/g)];
    expect(redactions.length).toBeGreaterThan(0);
    for (const [, set] of redactions) expect(set).not.toMatch(/\b(action|actor_id|actor_email|created_at)\b/);
    await expect(t.database.sql.query('delete from audit_log')).rejects.toThrow(/append-only/);
    await expect(t.database.sql.query('truncate audit_log')).rejects.toThrow(/append-only/);
  });

  it('every action name is lower-case `area.verb` (or one word) and the list holds the names others use', () => {
    for (const a of AUDIT_ACTION_NAMES) expect(a).toMatch(/^[a-z-]+(\.[a-z-]+)?$/);
    expect(AUDIT_ACTION_NAMES).toEqual(
      expect.arrayContaining(['document.withdraw', 'order.restore', 'export.csv']),
    );
  });
});

describe('gateway change history', () => {
  it('lists who switched the gateway, when, from and to, newest first', async () => {
    const gateways = (await t.as('Admin', { method: 'GET', url: '/api/admin/payment-gateways' })).json().data;
    const stripe = gateways.find((g: { gateway_name: string }) => g.gateway_name === 'Stripe');
    await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/payment-gateway-setting',
      payload: { gatewayId: stripe.id },
    });
    const res = await t.as('Telecaller', { method: 'GET', url: '/api/admin/payment-gateway-changes' });
    expect(res.statusCode).toBe(200);
    const [last] = res.json().data;
    expect(last).toMatchObject({
      actorEmail: 'admin@demo.test',
      to: ['Stripe'],
      actorName: expect.any(String),
    });
    expect(last.from).toEqual(expect.any(Array));
    expect(
      (await t.as('Night Staff', { method: 'GET', url: '/api/admin/payment-gateway-changes' })).statusCode,
    ).toBe(403);
  });
});
