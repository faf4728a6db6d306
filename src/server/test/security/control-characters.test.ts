import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.js';
import { buildOrder, createOrder } from '../factories.js';

/**
 * NUL and other C0 control characters in free text: refused by the shared text schemas with 400 naming
 * the field, before anything reaches PostgreSQL (which cannot store NUL and answered 500 before).
 * Every request is a whole valid body with one hostile field.
 */
const INTAKE_KEY = 'control-characters-intake-key-0123456789';
const CONTROL = ['a\u0000b', 'a\u0007b', '\u001b[31mred', 'a\u007fb', 'line\u000bbreak'];

let t: TestApp;
let orderId: number;
let teamMemberId: number;
beforeAll(async () => {
  t = await createTestApp({ INTAKE_API_KEY: INTAKE_KEY });
  orderId = (await createOrder(t.database)).orderId;
  const { rows } = await t.database.sql.query<{ id: number }>(
    `select id from staff_users where role = 'Team' and deleted_at is null order by id limit 1`,
  );
  teamMemberId = rows[0]!.id;
});
afterAll(() => t.close());

async function state(): Promise<string> {
  const { rows } = await t.database.sql.query(`
    select (select count(*) from orders)::text as orders,
           (select count(*) from order_events)::text as events,
           (select count(*) from order_remarks)::text as remarks,
           (select md5(string_agg(coalesce(transaction_id, '') || coalesce(merchant_name, ''), ',' order by order_id)) from orders) as tx,
           (select md5(string_agg(id || name || email, ',' order by id)) from staff_users) as staff`);
  return JSON.stringify(rows[0]);
}

interface Case {
  url: string;
  field: string;
  body: (value: string) => Record<string, unknown>;
  headers?: Record<string, string>;
}

const CASES: Case[] = [
  {
    url: '/api/admin/search-order',
    field: 'searchVal',
    body: (v) => ({ searchVal: v, folderName: 'allOrder', start: 0, end: 10 }),
  },
  { url: '/api/admin/add-new-remark', field: 'remark', body: (v) => ({ orderId, remark: v, whatsapp: 'Y' }) },
  {
    url: '/api/admin/save-transaction-details',
    field: 'transactionId',
    body: (v) => ({ orderId, transactionId: v, merchantName: 'Stripe' }),
  },
  {
    url: '/api/admin/save-transaction-details',
    field: 'merchantName',
    body: (v) => ({ orderId, transactionId: 'txn_ok_1', merchantName: v }),
  },
  {
    url: '/api/admin/add-team-member',
    field: 'name',
    body: (v) => ({
      name: v,
      email: 'control.chars@example.com',
      password: 'a-long-password-1',
      type: 'Team',
    }),
  },
  {
    url: '/api/admin/update-team-member',
    field: 'name',
    body: (v) => ({ tmId: teamMemberId, name: v, email: 'team@demo.test', password: '', type: 'Team' }),
  },
  {
    url: '/api/intake/orders',
    field: 'city',
    body: (v) => buildOrder({ city: v }),
    headers: { 'x-intake-key': INTAKE_KEY },
  },
  {
    url: '/api/intake/orders',
    field: 'first_name',
    body: (v) => buildOrder({ first_name: v }),
    headers: { 'x-intake-key': INTAKE_KEY },
  },
  {
    url: '/api/intake/orders',
    field: 'address',
    body: (v) => buildOrder({ address: v }),
    headers: { 'x-intake-key': INTAKE_KEY },
  },
];

describe('control characters in free text', () => {
  for (const c of CASES) {
    it(`${c.url} refuses them in ${c.field} with 400 naming the field and changes nothing`, async () => {
      for (const value of CONTROL) {
        const before = await state();
        const res = await t.as('Admin', {
          method: 'POST',
          url: c.url,
          payload: c.body(value),
          headers: c.headers,
        });
        expect(res.statusCode, `${JSON.stringify(value)}: ${res.body}`).toBe(400);
        expect(res.json().message).toBe(`${c.field}: must not contain control characters`);
        expect(res.json().data.errors).toContainEqual({
          field: c.field,
          message: `${c.field}: must not contain control characters`,
        });
        expect(await state()).toBe(before);
      }
    });
  }

  it('the customer track form refuses them in the e-mail', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/front/track-order',
      payload: { orderId: String(orderId), email: 'a\u0000b@example.com' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('email: must not contain control characters');
  });

  it('a text area keeps tab and line breaks: remarks and addresses', async () => {
    const remark = 'Called the customer.\n\tNo answer;\r\nwill try again.';
    const res = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId, remark },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.database.sql.query<{ remark: string }>(
      'select remark from order_remarks where order_id = $1 order by id desc limit 1',
      [orderId],
    );
    expect(rows[0]!.remark).toBe(remark);
    const intake = await t.app.inject({
      method: 'POST',
      url: '/api/intake/orders',
      headers: { 'x-intake-key': INTAKE_KEY },
      payload: buildOrder({ address: 'Apartment 4\nMain Street 1' }),
    });
    expect(intake.statusCode, intake.body).toBeLessThan(300);
    const oneLine = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/save-transaction-details',
      payload: { orderId, transactionId: 'txn\n2', merchantName: 'Stripe' },
    });
    expect(oneLine.statusCode).toBe(400);
    expect(oneLine.json().message).toBe('transactionId: must not contain control characters');
  });
});

describe('validation messages', () => {
  it('name the field once', async () => {
    const page = await t.as('Admin', { method: 'GET', url: '/api/admin/get-orders-list/allOrder?page=abc' });
    expect(page.statusCode).toBe(400);
    expect(page.json().message).toBe('page: must be a number');
    const folder = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { searchVal: '123', folderName: 'nope', start: 0, end: 10 },
    });
    expect(folder.json().message).toBe('folderName: must be one of the folder names');
    const range = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { searchVal: '123', folderName: 'allOrder', start: 5, end: 2 },
    });
    expect(range.json().message).toBe('end: must be greater than start');
    const id = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId: 'x', remark: 'r' },
    });
    expect(id.json().message).toBe('orderId: must be a number');
    // A message that already names its field is not prefixed again ("password: Password must be …").
    const member = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/add-team-member',
      payload: { name: 'Short Pass', email: 'short.pass@example.com', password: 'abc1234', type: 'Team' },
    });
    expect(member.statusCode).toBe(400);
    expect(member.json().message).toBe('Password must be at least 8 characters.');
    for (const res of [page, folder, range, id, member]) {
      expect(res.json().message).not.toMatch(/^(\w+): \1:/i);
      expect(res.json().message).not.toMatch(/^(\w+): \1 /i);
    }
  });
});
