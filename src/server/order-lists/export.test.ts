import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLDERS } from '../../shared/constants.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/** The streamed CSV export of a whole filtered folder, recorded in the audit log first. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < 5; i++) {
    await createOrder(t.database, {
      nationality: 'Palau',
      arrival_date: `2031-04-0${5 - i}`,
      first_name: i === 0 ? '=HYPERLINK("x")' : i === 1 ? '＝HYPERLINK("y")' : `Pal${i}`,
      last_name: i === 2 ? '＋SUM(1)' : i === 3 ? 'x;＠cmd' : 'Traveller',
      phone_code: '680',
      telephone_number: '4881234',
    });
  }
});
afterAll(() => t.close());

const exports = async () =>
  (
    await t.database.sql.query<{ n: string }>(
      `select count(*)::text as n from audit_log where action = 'export.csv'`,
    )
  ).rows[0]!.n;

const parseIds = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => Number(l.split(',')[0]));

describe('GET /api/admin/export-orders/{folder}', () => {
  it('streams every filtered row in the list order, phones without a quote, formulas neutralised', async () => {
    const list = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/get-orders-list/allOrder?nationality=PLW&sort=arrival_date&dir=asc&limit=2',
    });
    expect(list.json().total).toBe(5);
    const before = Number(await exports());
    const res = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/export-orders/allOrder?nationality=PLW&sort=arrival_date&dir=asc',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="orders-allOrder-/);
    const ids = parseIds(res.body);
    expect(ids).toHaveLength(5);
    expect(ids.slice(0, 2)).toEqual(list.json().data.map((r: { order_id: number }) => r.order_id));
    expect(res.body).toContain(',+680 4881234,');
    expect(res.body).not.toContain("'+680");
    expect(res.body).toContain(`"'=HYPERLINK(""x"")`);
    // Full-width ＝ ＋ － ＠ are read as formulas by some spreadsheets: neutralised the same way.
    expect(res.body).toContain(`"'＝HYPERLINK(""y"") Traveller"`);
    expect(res.body).toContain(',Pal2 ＋SUM(1),'); // in the middle of a cell, as with ASCII: harmless
    expect(res.body).toContain(`"Pal3 x;'＠cmd"`);
    expect(Number(await exports())).toBe(before + 1);
    const [entry] = (
      await t.database.sql.query<{ target: string; to_value: { rows: number } }>(
        `select target, to_value from audit_log where action = 'export.csv' order by id desc limit 1`,
      )
    ).rows;
    expect(entry).toMatchObject({ target: 'screen:orders', to_value: { rows: 5 } });
  });

  it('exports a search with its filters', async () => {
    const res = await t.as('Team', {
      method: 'GET',
      url: '/api/admin/export-orders/allOrder?nationality=PLW&search=pal2',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(parseIds(res.body)).toHaveLength(1);
  });

  it('follows the list’s permissions for every role and folder', async () => {
    const roles = ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'] as const;
    for (const role of roles) {
      for (const folder of FOLDERS) {
        const list = await t.as(role, { method: 'GET', url: `/api/admin/get-orders-list/${folder}?limit=1` });
        const before = await exports();
        const exported = await t.as(role, { method: 'GET', url: `/api/admin/export-orders/${folder}` });
        expect(exported.statusCode, `${role} ${folder}`).toBe(list.statusCode);
        if (list.statusCode !== 200) expect(await exports()).toBe(before);
      }
    }
    // Order History is not a Telecaller's list, so not a Telecaller's export either.
    expect(
      (await t.as('Telecaller', { method: 'GET', url: '/api/admin/export-orders/allOrder' })).statusCode,
    ).toBe(403);
  });

  it('refuses a folder the role may not read, unknown folders and hostile values, recording nothing', async () => {
    const before = await exports();
    const cases: [string, 'Telecaller' | 'Admin', number][] = [
      ['/api/admin/export-orders/allOrder', 'Telecaller', 403],
      ['/api/admin/export-orders/secretOrder', 'Admin', 404],
      ['/api/admin/export-orders/allOrder?nationality=P%00W', 'Admin', 400],
      ['/api/admin/export-orders/allOrder?sort=password', 'Admin', 400],
      [`/api/admin/export-orders/allOrder?search=${'x'.repeat(5000)}`, 'Admin', 400],
    ];
    for (const [url, role, status] of cases) {
      const res = await t.as(role, { method: 'GET', url });
      expect(res.statusCode, url).toBe(status);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(await exports()).toBe(before);
  });
});
