import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../shared/contracts/audit.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { AUDIT_CSV_HEADER } from './export.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (const [email, password] of [
    ['admin@demo.test', 'demo-password'],
    ['admin@demo.test', 'wrong-password'],
    ['manager@demo.test', 'demo-password'],
  ]) {
    await t.app.inject({ method: 'POST', url: '/api/admin/admin-login', payload: { email, password } });
  }
  // Enough team changes to need several chunks, on the same instant so the keyset must use the id too;
  // one target would be a formula in a spreadsheet.
  await t.database.sql.query(
    `insert into audit_log (action, actor_email, target, to_value, ip, created_at)
     select 'team.update', 'bulk@demo.test', 'staff:' || g, jsonb_build_object('n', g), '203.0.113.9',
            timestamptz '2026-03-10 15:00:00+00'
     from generate_series(1, 4500) g`,
  );
  await t.database.sql.query(
    `insert into audit_log (action, actor_email, target, created_at) values
     ('team.delete', 'formula@demo.test', '=HYPERLINK("http://evil.test","x")', timestamptz '2026-03-11 12:00:00+00'),
     ('team.delete', 'march@demo.test', 'staff:late-march', timestamptz '2026-03-31 23:30:00+00')`,
  );
});
afterAll(() => t?.close());

/** A small RFC 4180 reader: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

const exportAs = (role: DemoRole, qs = '') =>
  t.as(role, { method: 'GET', url: `/api/admin/audit-log/export${qs ? `?${qs}` : ''}` });
const auditCount = async () =>
  (await t.database.sql.query<{ n: number }>('select count(*)::int n from audit_log')).rows[0]!.n;

async function csvOf(role: DemoRole, qs = '') {
  const res = await exportAs(role, qs);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  expect(res.headers['content-disposition']).toMatch(
    /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  expect(res.body.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(res.body.slice(1));
  expect(header).toEqual(AUDIT_CSV_HEADER);
  return rows;
}

describe('GET /api/admin/audit-log/export', () => {
  it('streams every entry under the filters (not one page), newest first, as the database has them', async () => {
    const rows = await csvOf('Admin', 'action=team.update');
    const { rows: oracle } = await t.database.sql.query<{ id: string; target: string }>(
      `select id, target from audit_log where action = 'team.update' order by created_at desc, id desc`,
    );
    expect(rows.length).toBe(oracle.length);
    expect(rows.length).toBeGreaterThanOrEqual(4500);
    expect(rows.map((r) => r[5])).toEqual(oracle.map((o) => o.target));
    expect(new Set(rows.map((r) => r[4]))).toEqual(new Set([AUDIT_ACTIONS['team.update']]));
    const bulk = rows.find((r) => r[5] === 'staff:4500')!;
    expect(bulk.slice(1, 4)).toEqual(['2026-03-10T15:00:00.000Z', '', 'bulk@demo.test']);
    expect(bulk[0]).toBe('10 Mar 2026 11:00 EDT');
    expect(JSON.parse(bulk[7]!)).toEqual({ n: 4500 });
    expect(bulk[8]).toBe('203.0.113.9');
  });

  it('filters by actor and by service-time days, and neutralises formulas', async () => {
    const formula = await csvOf('Admin', 'actor=FORMULA@demo.test');
    expect(formula).toHaveLength(1);
    expect(formula[0]![5]).toBe(`'=HYPERLINK("http://evil.test","x")`);
    // 23:30 UTC on 31 March is 19:30 in New York: inside a 31 March day, outside 1 April.
    const march = await csvOf('Admin', 'action=team.delete&from=2026-03-31&to=2026-03-31');
    expect(march.map((r) => r[5])).toEqual(['staff:late-march']);
    expect(await csvOf('Admin', 'action=team.delete&from=2026-04-01&to=2026-04-01')).toEqual([]);
  });

  it('follows the list’s role rules: Admin sees every sign-in, a Manager not the Admin accounts’', async () => {
    const admin = await csvOf('Admin', 'action=login.success');
    const manager = await csvOf('Manager', 'action=login.success');
    expect(admin.some((r) => r[3] === 'admin@demo.test')).toBe(true);
    expect(admin.some((r) => r[3] === 'manager@demo.test')).toBe(true);
    expect(manager.some((r) => r[3] === 'admin@demo.test')).toBe(false);
    expect(manager.some((r) => r[3] === 'manager@demo.test')).toBe(true);
    // Failed sign-ins of an Admin account are sign-ins too.
    expect((await csvOf('Manager', 'action=login.failure')).some((r) => r[3] === 'admin@demo.test')).toBe(
      false,
    );
  });

  it('is recorded in the audit log as an export of personal data, and is not in its own file', async () => {
    const before = await auditCount();
    const rows = await csvOf('Manager', 'action=team.delete');
    expect(await auditCount()).toBe(before + 1);
    const { rows: last } = await t.database.sql.query<{
      action: string;
      target: string;
      to_value: { rows: number; detail: string };
      actor_email: string;
    }>('select action, target, to_value, actor_email from audit_log order by id desc limit 1');
    expect(last[0]).toMatchObject({
      action: 'export.csv',
      target: 'screen:audit-log',
      actor_email: 'manager@demo.test',
      to_value: { rows: rows.length, detail: JSON.stringify({ action: 'team.delete' }) },
    });
    // The whole log (no filter) as it stood when the export began: the record made now is not in it.
    const all = await csvOf('Admin');
    expect(all.length).toBe(before + 1);
    expect(all[0]![5]).toBe('screen:audit-log');
    expect(all[0]![3]).toBe('manager@demo.test');
  });

  it('refuses roles without the audit log and hostile parameters with a 4xx, recording nothing', async () => {
    const before = await auditCount();
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      expect((await exportAs(role)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/audit-log/export' })).statusCode).toBe(401);
    for (const qs of [
      'actor=admin%00%40demo.test',
      'actor=%E2%80%AEadmin',
      `actor=${'a'.repeat(10_000)}`,
      'action=team.drop',
      'action=export.csv%27%20or%201%3D1',
      'from=2026-02-30',
      'from=20260301',
      'to=2026-03-01&from=2026-03-02',
      'page=2',
      'limit=999999',
      'from=2026-03-01&from=2026-03-02',
    ]) {
      const res = await exportAs('Admin', qs);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().message, qs).toBeTruthy();
    }
    expect(await auditCount()).toBe(before);
    // A value that could be SQL is a plain actor that matches no one (and the export of nothing is recorded).
    expect(await csvOf('Admin', `actor=${encodeURIComponent("x' or '1'='1")}`)).toEqual([]);
    expect(await auditCount()).toBe(before + 1);
  });
});
