import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/**
 * OpenAPI-driven fuzzer (issue 9): every documented route, every field, hostile values. Nothing may
 * answer 5xx, leak a stack trace, answer outside the envelope, or change data while rejecting.
 */
const INTAKE_KEY = 'fuzz-intake-key-0123456789abcdef';

const HOSTILE: unknown[] = [
  null,
  true,
  -1,
  1e308,
  '',
  ' ',
  'x'.repeat(100_000),
  "' OR '1'='1' --",
  '1; DROP TABLE orders; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00\u0000\u202e\ud83d\ude00 ünïcødé',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe string, on purpose
  '${jndi:ldap://x/a}',
  [],
  ['a', 1, null],
  {},
  { $gt: '' },
  { __proto__: { polluted: true } },
];

function deep(levels: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

interface Operation {
  method: string;
  path: string;
  bodyFields: string[];
  queryFields: string[];
  pathParams: string[];
  multipart: boolean;
}

function operations(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters as { in: string; name: string }[] | undefined) ?? [];
      const content = (op.requestBody as { content?: Record<string, { schema?: { properties?: object } }> })
        ?.content;
      const json = content?.['application/json']?.schema?.properties ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        bodyFields: Object.keys(json),
        queryFields: params.filter((p) => p.in === 'query').map((p) => p.name),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        multipart: !!content?.['multipart/form-data'],
      });
    }
  }
  return ops;
}

let t: TestApp;
let orderId: number;
beforeAll(async () => {
  t = await createTestApp({ INTAKE_API_KEY: INTAKE_KEY });
  for (let i = 0; i < 3; i++) orderId = (await createOrder(t.database)).orderId;
});
afterAll(() => t.close());

async function fingerprint(): Promise<string> {
  const { rows } = await t.database.sql.query<Record<string, string>>(`
    select (select count(*) from orders)::text as orders,
           (select coalesce(md5(string_agg(order_id || process_status || coalesce(assigned_to::text, '') ||
              coalesce(transaction_id, '') || updated_at::text, ',' order by order_id)), '') from orders) as state,
           (select count(*) from order_events)::text as events,
           (select count(*) from order_remarks)::text as remarks,
           (select count(*) from documents)::text as documents,
           (select count(*) from staff_users)::text as staff,
           (select coalesce(md5(string_agg(id || name || email || role || token_version || coalesce(deleted_at::text, ''), ',' order by id)), '') from staff_users) as staff_state,
           (select coalesce(string_agg(id || ':' || is_active, ',' order by id), '') from payment_gateways) as gateways`);
  return JSON.stringify(rows[0]);
}

describe('OpenAPI fuzzer', () => {
  it('covers the documented routes and finds no 5xx, no stack, no change on rejection', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(1);
    const token = await t.tokenFor('Admin');
    const failures: string[] = [];
    let sent = 0;

    for (const op of ops) {
      const url = op.pathParams.reduce((p, name) => p.replace(`{${name}}`, String(orderId)), op.path);
      const cases: { label: string; body?: unknown; query?: Record<string, string>; url?: string }[] = [];
      for (const field of op.bodyFields) {
        for (const value of HOSTILE)
          cases.push({ label: `body.${field}=${String(value).slice(0, 20)}`, body: { [field]: value } });
      }
      if (op.bodyFields.length > 0 || ['POST', 'PUT', 'PATCH'].includes(op.method)) {
        cases.push({ label: 'deep json', body: deep(2000) });
        cases.push({ label: 'array body', body: [1, 2, 3] });
        cases.push({ label: 'unknown field', body: { __unknown_field__: 'x' } });
      }
      for (const field of op.queryFields) {
        for (const value of ["' OR 1=1 --", '-1', 'x'.repeat(5000), '1e999', '%00', '[]']) {
          cases.push({ label: `query.${field}=${value.slice(0, 20)}`, query: { [field]: value } });
        }
      }
      for (const bad of ['..%2F..%2Fetc%2Fpasswd', '-1', '99999999999999999999', "1'--", 'x'.repeat(300)]) {
        if (op.pathParams.length > 0) {
          cases.push({ label: `path=${bad.slice(0, 20)}`, url: op.path.replace(/\{[^}]+\}/g, bad) });
        }
      }
      for (const c of cases) {
        const write = op.method !== 'GET';
        const before = write ? await fingerprint() : '';
        const headers: Record<string, string> = { authorization: token, 'x-intake-key': INTAKE_KEY };
        let payload: string | undefined;
        if (c.body !== undefined && !op.multipart) {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(c.body);
        }
        const res = await t.app.inject({
          method: op.method as 'GET',
          url: c.url ?? url,
          query: c.query,
          headers,
          payload,
        });
        sent += 1;
        const where = `${op.method} ${op.path} [${c.label}] -> ${res.statusCode}`;
        if (res.statusCode >= 500) failures.push(`${where}: ${res.body.slice(0, 200)}`);
        if (/\bat [\w.<>]+ \(|node_modules|\.ts:\d+/.test(res.body))
          failures.push(`${where}: stack trace leaked`);
        if (/\$argon2|password_?hash|jwt-secret/i.test(res.body)) failures.push(`${where}: secret leaked`);
        const type = String(res.headers['content-type'] ?? '');
        if (type.includes('application/json')) {
          const body = res.json();
          if (
            !Array.isArray(body) &&
            (typeof body.message !== 'string' || ![0, 1, 401].includes(body.status))
          ) {
            failures.push(`${where}: body outside the envelope`);
          }
        }
        if (write && res.statusCode >= 400 && res.statusCode < 500) {
          const after = await fingerprint();
          if (after !== before) failures.push(`${where}: data changed by a rejected request`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(sent).toBeGreaterThan(50);
  }, 600_000);
});
