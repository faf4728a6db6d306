import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDocumentFields } from '../../../shared/contracts/order-detail.js';
import { createSession } from '../../auth/sessions.js';
import { signStaffToken } from '../../auth/tokens.js';
import { createTestApp, type TestApp } from '../app.js';
import { buildOrder, createOrder, createOrders } from '../factories.js';
import { samplePdf } from '../fixtures.js';
import { multipart } from '../smtp.js';

/**
 * OpenAPI-driven fuzzer. For every documented route it builds a whole valid request from the route's
 * own schema (example values that pass validation, real ids from the test database), checks that the
 * valid request passes validation, then sends it again and again with exactly one field replaced by a
 * hostile value (NUL and control characters, huge strings and numbers, wrong types, injection strings,
 * another order's or another user's id). The hostile value therefore reaches the rules and the database.
 * Nothing may answer 5xx, leak a stack trace or a secret, answer outside the envelope, or change data
 * while rejecting.
 */
const INTAKE_KEY = 'fuzz-intake-key-0123456789abcdef';
const DEMO_PASSWORD = 'demo-password';
const FUZZ_INBOUND_TOKEN = 'fuzz-inbound-token-0123456789';

const HOSTILE: unknown[] = [
  null,
  true,
  -1,
  1.5,
  2 ** 63,
  1e308,
  '',
  'x'.repeat(100_000),
  'a\u0000b',
  'bell\u0007',
  '\u001b[2J\u001b[H',
  '99999999999999999999',
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '%00\u202e\ud83d\ude00 ünïcødé',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe string, on purpose
  '${jndi:ldap://x/a}',
  [],
  {},
  { __proto__: { polluted: true } },
];
/** Bodies with many fields (intake) get the sharpest values only. */
const HOSTILE_WIDE: unknown[] = [
  null,
  'a\u0000b',
  'bell\u0007',
  'x'.repeat(100_000),
  1e308,
  -1,
  [],
  {},
  true,
];
/** Query and path values are text. */
const HOSTILE_TEXT = [
  "' OR 1=1 --",
  '-1',
  'x'.repeat(5000),
  '1e999',
  '99999999999999999999',
  'a\u0000b',
  '\u0007',
];
/** Multipart fields are text too. */
const HOSTILE_MULTIPART = ['a\u0000b', 'bell\u0007', 'x'.repeat(60_000), '-1', '1e308', "' OR '1'='1", ''];

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  default?: unknown;
};

interface Operation {
  method: string;
  path: string;
  body: JsonSchema | null;
  query: { name: string; schema: JsonSchema; required: boolean }[];
  pathParams: { name: string; schema: JsonSchema }[];
  multipart: boolean;
}

function operations(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path.startsWith('/api/docs')) continue;
    for (const [method, op] of Object.entries(methods)) {
      // An event stream never ends; its only input is the token, which the authorization matrix covers.
      if (String(op.summary ?? '').includes('text/event-stream')) continue;
      const params =
        (op.parameters as
          | { in: string; name: string; schema: JsonSchema; required?: boolean }[]
          | undefined) ?? [];
      const content = (op.requestBody as { content?: Record<string, { schema?: JsonSchema }> })?.content;
      ops.push({
        method: method.toUpperCase(),
        path,
        body: content?.['application/json']?.schema ?? null,
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema, required: !!p.required })),
        pathParams: params.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema })),
        multipart: !!content?.['multipart/form-data'] || path.endsWith('/upload-visa-document'),
      });
    }
  }
  return ops;
}

function deep(levels: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

let t: TestApp;
let adminId: number;
let adminPassword = DEMO_PASSWORD;
let adminToken: string;
let machineKey = '';
/** An order with a document, tracked by the customer: the customer token covers it and nothing else. */
let customer: { orderId: number; email: string; documentId: number; token: string };
let otherOrderId: number;
let otherDocumentId: number;
let unique = 0;
let ip = 0;

const today = () => new Date().toISOString().slice(0, 10);
const nextIp = () => {
  ip += 1;
  return `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
};

async function freshAdminToken(): Promise<string> {
  const { rows } = await t.database.sql.query<{ name: string; token_version: number }>(
    'select name, token_version from staff_users where id = $1',
    [adminId],
  );
  const session = await createSession(t.database.db, { userId: adminId, ip: '127.0.0.1', userAgent: 'fuzz' });
  return signStaffToken(t.config.JWT_SECRET, {
    user: { id: adminId, name: rows[0]!.name, type: 'Admin' },
    tv: rows[0]!.token_version,
    sid: session.id,
  });
}

async function uploadDocument(orderId: number, email: string): Promise<number> {
  const body = multipart(
    { orderId: String(orderId), email, mailServiceProvider: 'AWS' },
    { name: 'card.pdf', type: 'application/pdf', content: await samplePdf('FUZZ') },
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/upload-visa-document',
    headers: { ...body.headers, authorization: adminToken },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.documentId;
}

async function freshTeamMember(): Promise<number> {
  unique += 1;
  const { rows } = await t.database.sql.query<{ id: number }>(
    `insert into staff_users (name, email, role, password_hash)
     select 'Fuzz Member ' || $1::text, 'fuzz.member.' || $1::text || '@example.com', 'Team', password_hash
     from staff_users where id = $2 returning id`,
    [`${process.pid}-${unique}`, adminId],
  );
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await createTestApp({ INTAKE_API_KEY: INTAKE_KEY, INBOUND_TOKEN: FUZZ_INBOUND_TOKEN });
  const { rows } = await t.database.sql.query<{ id: number }>(
    `select id from staff_users where role = 'Admin' and deleted_at is null order by id limit 1`,
  );
  adminId = rows[0]!.id;
  adminToken = await freshAdminToken();
  // A machine's API key for the job API (/api/submission-jobs/…), generous in rate for the walk.
  const key = await t.app.inject({
    method: 'POST',
    url: '/api/admin/api-keys',
    headers: { authorization: adminToken, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'Fuzz machine', scopes: ['submission'], maxPerMinute: 600 }),
  });
  expect(key.statusCode, key.body).toBe(200);
  machineKey = `Bearer ${key.json().data.key}`;
  const order = await createOrder(t.database, { process_status: 'Completed' });
  const documentId = await uploadDocument(order.orderId, order.email);
  const other = await createOrder(t.database, { process_status: 'Completed' });
  otherOrderId = other.orderId;
  otherDocumentId = await uploadDocument(other.orderId, other.email);
  const track = await t.app.inject({
    method: 'POST',
    url: '/api/front/track-order',
    remoteAddress: nextIp(),
    payload: { orderId: String(order.orderId), email: order.email },
  });
  expect(track.statusCode, track.body).toBe(200);
  customer = { orderId: order.orderId, email: order.email, documentId, token: track.json().data.token };
  await watchWrites();
}, 120_000);
afterAll(() => t.close());

/**
 * What a rejected request must not change, counted by triggers into one row: orders (rows, and their
 * id, status, assignee, transaction id and version time), their events, remarks, documents and mails,
 * staff accounts (rows, and their name, e-mail, role, token version and deletion) and the payment
 * gateways (rows and their switch). Comparing the count before and after a request costs one read
 * however many orders the fuzzer has made, and is stricter than comparing contents: a change undone
 * within the same request counts too.
 */
async function watchWrites(): Promise<void> {
  const changed = (columns: string) =>
    `when ((${columns.replace(/(\w+)/g, 'old.$1')}) is distinct from (${columns.replace(/(\w+)/g, 'new.$1')}))`;
  const statements = [
    'create table fuzz_writes (n bigint not null)',
    'insert into fuzz_writes values (0)',
    `create function fuzz_count_write() returns trigger language plpgsql as $$
       begin update fuzz_writes set n = n + 1; return null; end $$`,
  ];
  const watched: [table: string, columns: string | null][] = [
    ['orders', 'order_id, process_status, assigned_to, transaction_id, updated_at'],
    ['order_events', null],
    ['order_remarks', null],
    ['documents', null],
    ['mail_log', null],
    ['staff_users', 'id, name, email, role, token_version, deleted_at'],
    ['payment_gateways', 'id, is_active'],
  ];
  for (const [table, columns] of watched) {
    statements.push(
      `create trigger fuzz_rows after insert or delete on ${table}
         for each row execute function fuzz_count_write()`,
    );
    if (columns) {
      statements.push(
        `create trigger fuzz_values after update on ${table} for each row ${changed(columns)}
           execute function fuzz_count_write()`,
      );
    }
  }
  for (const statement of statements) await t.database.sql.query(statement, []);
  // The watch sees a new order (its row and its event) and a changed assignee, and no unchanged value.
  const before = Number(await fingerprint());
  const probe = await createOrder(t.database, { process_status: 'Completed' });
  expect(Number(await fingerprint())).toBeGreaterThanOrEqual(before + 2);
  const created = Number(await fingerprint());
  await t.database.sql.query('update staff_users set role = role where id = $1', [adminId]);
  expect(Number(await fingerprint())).toBe(created);
  await t.database.sql.query('update orders set assigned_to = $2 where order_id = $1', [
    probe.orderId,
    adminId,
  ]);
  expect(Number(await fingerprint())).toBeGreaterThan(created);
}

async function fingerprint(): Promise<string> {
  const { rows } = await t.database.sql.query<{ n: string }>('select n::text from fuzz_writes', []);
  return rows[0]!.n;
}

/** What one request of a case is built around: a fresh order (and member) where the route changes things. */
interface Subject {
  orderId: number;
  email: string;
  memberId: number;
}

/** Example values by field name: real ids and values that pass each contract. */
function example(op: Operation, name: string, s: Subject): unknown {
  const front = customerSide(op);
  if (op.path === '/api/intake/orders') {
    if (name === 'client_reference') return `fuzz-${process.pid}-${++unique}`;
    // The passport picture is optional; its own hostile values are in intake-passport.test.ts.
    if (name === 'passport_scan') return null;
    return buildOrder()[name];
  }
  // A correction takes the intake's field values (its own example id and version come from below).
  if (op.path === '/api/admin/orders/{orderId}' && name in buildOrder()) return buildOrder()[name];
  // A logged contact: a call-back an hour ahead (the field is only for a call-back).
  if (op.path === '/api/admin/orders/{orderId}/contacts') {
    if (name === 'outcome') return 'call_back';
    if (name === 'callBackAt') return new Date(Date.now() + 3_600_000).toISOString();
    if (name === 'note') return 'Rang twice.\nCall back after lunch.';
  }
  // A refund reason: 'other' with its text (a text goes only with 'other').
  if (name === 'reasonCode') return 'other';
  if (name === 'reasonText') return 'Trip cancelled by the traveller';
  // The payment policy's bands: watch below excessive.
  if (name === 'disputeWatchPercent') return 0.5;
  if (name === 'disputeExcessivePercent') return 0.75;
  if (name === 'month' && op.path === '/api/admin/insights/disputes') return '2026-01';
  switch (name) {
    case 'orderId':
      if (op.path.endsWith('/send-invoice')) return String(s.orderId);
      return front ? String(customer.orderId) : s.orderId;
    case 'email':
      if (op.path.endsWith('/admin-login')) return 'admin@demo.test';
      if (op.path.includes('team-member')) return `fuzz.${process.pid}.${++unique}@example.com`;
      return front ? customer.email : s.email;
    case 'password':
      return op.path.endsWith('/admin-login') ? adminPassword : 'a-long-password-1';
    case 'currentPassword':
      return adminPassword;
    case 'newPassword':
      return `new-password-${++unique}`;
    case 'name':
      return 'Fuzz Member';
    case 'type':
      return 'Team';
    case 'tmId':
    case 'teamMemberId':
      return s.memberId;
    case 'gatewayId':
      return 1;
    case 'file1':
      return `${customer.documentId}.pdf`;
    case 'customername':
      return 'Jane';
    case 'searchVal':
      return String(s.orderId);
    case 'remark':
      return 'Called the customer.\nNo answer.';
    case 'transactionId':
      return `txn_fuzz_${++unique}`;
    case 'merchantName':
      return 'Stripe';
    case 'reason':
      return 'Uploaded to the wrong order';
    case 'fromDate':
    case 'from':
      return '2026-01-01';
    case 'toDate':
    case 'to':
    case 'arrivalTo':
      return today();
    case 'userName':
      return 'Admin';
    case 'nationality':
      return 'USA';
    case 'assignee':
      return 'me';
    case 'arrivalFrom':
      return '2026-01-01';
    case 'mailServiceProvider':
      return 'AWS';
    case 'defencePackType':
      return 1;
    case 'templateKey':
    case 'templateId':
      return 'awaiting-customer';
    case 'remindAfterMinutes':
      return 60;
    case 'secondReminderAfterMinutes':
      return 120;
    case 'escalateAfterMinutes':
      return 180;
    // Routing: a member away until a day ahead, a weekday shift, a release after an hour.
    case 'awayUntil':
      return new Date(Date.now() + 86_400_000).toISOString();
    case 'shift':
    case 'week':
      return { mon: [['09:00', '17:00']], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    case 'idleMinutesToRelease':
      return 60;
    // Working hours: a holiday, and an iCalendar file with one more.
    case 'holidays':
      return ['2026-12-25'];
    case 'ical':
      return 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Fuzz//EN\r\nBEGIN:VEVENT\r\nUID:f@x\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20260704\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    case 'key':
      return `fuzz-${++unique}`;
    case 'governmentReference':
      return `FUZZ-${++unique}`;
    case 'subject':
      return 'Your order {{order_id}}';
    case 'body':
      return 'Dear {{first_name}},\n\nFuzz text.';
    default:
      return undefined;
  }
}

/** A value that passes the schema, from the example table first, else from the schema itself. */
function sample(schema: JsonSchema, op: Operation, name: string, s: Subject): unknown {
  const known = example(op, name, s);
  if (known !== undefined) return known;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const choice = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema.allOf?.[0];
  if (choice) return sample(choice, op, name, s);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return `fuzz.${++unique}@example.com`;
      if (schema.format === 'date') return today();
      return 'Fuzz text'.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? 100);
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.items ? [sample(schema.items, op, name, s)] : [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          // A staff reply is a template or a text, not both: the valid request writes a text.
          .filter(([k]) => !(op.path === '/api/admin/orders/{orderId}/messages' && k === 'templateId'))
          .map(([k, v]) => [k, sample(v, op, k, s)]),
      );
    default:
      return 'Fuzz text';
  }
}

/** Ids that belong to someone else: another order (outside the customer's token), another member. */
function foreignIds(op: Operation, field: string): { label: string; value: unknown }[] {
  if (field === 'orderId') {
    return [
      {
        label: 'another order',
        value: customerSide(op) ? String(otherOrderId) : otherOrderId,
      },
      { label: 'no such order', value: 999_999_999 },
    ];
  }
  if (field === 'tmId' || field === 'teamMemberId') return [{ label: 'own account', value: adminId }];
  if (field === 'file1') return [{ label: "another order's document", value: `${otherDocumentId}.pdf` }];
  return [];
}

interface Case {
  label: string;
  /** Builds the request; the valid case is checked to pass validation. */
  build: (s: Subject) => { body?: unknown; query?: Record<string, string>; url: string; raw?: string };
  valid?: boolean;
  foreign?: boolean;
}

/** The route's path with real ids in it; `bad` replaces one parameter. */
function fillPath(op: Operation, s: Subject, bad?: { name: string; value: string }): string {
  const real = (name: string): unknown => {
    if (name === 'orderName') return 'newOrder';
    if (name === 'documentId') return customer.documentId;
    if (name === 'orderId') return customerSide(op) ? customer.orderId : s.orderId;
    if (name === 'id') return op.path.includes('sessions') ? 'no-such-session' : s.memberId || adminId;
    // Another numeric id (a message, a file): a well-formed one that names nothing (404).
    const type = op.pathParams.find((p) => p.name === name)?.schema?.type;
    if (type === 'integer' || type === 'number') return 999_999_999;
    return 'x';
  };
  return op.pathParams.reduce(
    (p, { name }) =>
      p.replace(`{${name}}`, bad?.name === name ? bad.value : encodeURIComponent(String(real(name)))),
    op.path,
  );
}

function validQuery(op: Operation, s: Subject): Record<string, string> {
  const query: Record<string, string> = {};
  for (const q of op.query) {
    if (!q.required && !['page', 'limit', 'userName'].includes(q.name)) continue;
    query[q.name] = String(sample(q.schema, op, q.name, s));
  }
  return query;
}

function casesOf(op: Operation): Case[] {
  const cases: Case[] = [];
  const fields = Object.keys(op.body?.properties ?? {});
  const base = (s: Subject) =>
    op.body ? (sample(op.body, op, '', s) as Record<string, unknown>) : undefined;
  cases.push({
    label: 'valid request',
    valid: true,
    build: (s) => ({ body: base(s), query: validQuery(op, s), url: fillPath(op, s) }),
  });
  const values = fields.length > 15 ? HOSTILE_WIDE : HOSTILE;
  for (const field of fields) {
    for (const value of values) {
      cases.push({
        label: `body.${field}=${JSON.stringify(value)?.slice(0, 24)}`,
        build: (s) => ({
          body: { ...base(s), [field]: value },
          query: validQuery(op, s),
          url: fillPath(op, s),
        }),
      });
    }
    for (const { label, value } of foreignIds(op, field)) {
      cases.push({
        label: `body.${field}=${label}`,
        foreign: label !== 'own account' && label !== 'no such order',
        build: (s) => ({
          body: { ...base(s), [field]: value },
          query: validQuery(op, s),
          url: fillPath(op, s),
        }),
      });
    }
    cases.push({
      label: `body without ${field}`,
      build: (s) => {
        const { [field]: _gone, ...rest } = base(s) ?? {};
        return { body: rest, query: validQuery(op, s), url: fillPath(op, s) };
      },
    });
  }
  if (op.body || ['POST', 'PUT', 'PATCH'].includes(op.method)) {
    cases.push({ label: 'deep json', build: (s) => ({ body: deep(2000), url: fillPath(op, s) }) });
    cases.push({ label: 'array body', build: (s) => ({ body: [1, 2, 3], url: fillPath(op, s) }) });
    cases.push({
      label: 'unknown field',
      build: (s) => ({ body: { ...base(s), __unknown_field__: 'x' }, url: fillPath(op, s) }),
    });
    cases.push({ label: 'malformed json', build: (s) => ({ raw: '{"a": ', url: fillPath(op, s) }) });
  }
  for (const q of op.query) {
    for (const value of HOSTILE_TEXT) {
      cases.push({
        label: `query.${q.name}=${value.slice(0, 20)}`,
        build: (s) => ({
          body: base(s),
          query: { ...validQuery(op, s), [q.name]: value },
          url: fillPath(op, s),
        }),
      });
    }
  }
  for (const param of op.pathParams) {
    for (const bad of [...HOSTILE_TEXT.map(encodeURIComponent), '..%2F..%2Fetc%2Fpasswd', "1'--"]) {
      cases.push({
        label: `path.${param.name}=${bad.slice(0, 20)}`,
        build: (s) => ({
          body: base(s),
          query: validQuery(op, s),
          url: fillPath(op, s, { name: param.name, value: bad }),
        }),
      });
    }
  }
  return cases;
}

/** Multipart upload: the contract's text fields with one hostile value each, and a real PDF. */
function multipartCases(): Case[] {
  const fields = Object.keys(uploadDocumentFields.shape);
  const valid = (s: Subject): Record<string, string> => ({
    orderId: String(s.orderId),
    email: s.email,
    mailServiceProvider: 'AWS',
  });
  const cases: Case[] = [{ label: 'valid upload', valid: true, build: (s) => ({ body: valid(s), url: '' }) }];
  for (const field of fields) {
    for (const value of [...HOSTILE_MULTIPART, ...(field === 'orderId' ? ['999999999'] : [])]) {
      cases.push({
        label: `field.${field}=${JSON.stringify(value).slice(0, 20)}`,
        build: (s) => ({ body: { ...valid(s), [field]: value }, url: '' }),
      });
    }
  }
  return cases;
}

/**
 * Routes of the customer (the track page): called with the customer token, on the customer's order. The
 * self-service routes under /api/customer/ too (not the multipart answer: its parts are built apart).
 */
const customerSide = (op: Operation) =>
  op.path.startsWith('/api/front/') || (op.path.startsWith('/api/customer/') && !op.multipart);

/** Routes that act on an order (an orderId field or path parameter, or the search text). */
const usesOrder = (op: Operation) =>
  'orderId' in (op.body?.properties ?? {}) ||
  'searchVal' in (op.body?.properties ?? {}) ||
  op.pathParams.some((p) => p.name === 'orderId');

/**
 * Routes after which the admin's own session may have ended (password changed, logout…) or be held to a
 * step (two-factor sign-in made required for the Admin role holds the acting session to its setup).
 */
const SESSION_CHANGING = /logout|change-password|team-member|sessions|security-settings/;

describe('OpenAPI fuzzer', () => {
  it('sends whole valid requests with one hostile field to every documented route: no 5xx, no stack, no change on rejection', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(30);
    const pdf = await samplePdf('FUZZ-UPLOAD');
    const failures: string[] = [];
    const reached = { valid: 0, hostile2xx: 0, hostile4xx: 0 };
    let sent = 0;

    for (const op of ops) {
      const front = customerSide(op);
      const changes = op.method !== 'GET';
      const cases = op.multipart ? multipartCases() : casesOf(op);
      const started = Date.now();
      // A route that changes things gets a fresh order (and member) per request, so each hostile value
      // meets an order in a state where the valid request would have been accepted. The orders are
      // written together before the route's requests.
      const fresh =
        changes && !front && (op.multipart || usesOrder(op))
          ? await createOrders(t.database, cases.length, { process_status: 'Completed' })
          : [];
      for (const [i, c] of cases.entries()) {
        const order = fresh[i];
        const subject: Subject = order
          ? { orderId: order.orderId, email: order.email, memberId: 0 }
          : { orderId: customer.orderId, email: customer.email, memberId: 0 };
        if (changes && op.path.includes('team-member')) subject.memberId = await freshTeamMember();
        if (changes && !front && /resend-mail|defence-pack|send-invoice/.test(op.path)) {
          await uploadDocument(subject.orderId, subject.email);
        }
        const req = c.build(subject);
        const before = changes ? await fingerprint() : '';
        const headers: Record<string, string> = {
          authorization: front
            ? customer.token
            : op.path.startsWith('/api/submission-jobs/')
              ? machineKey
              : adminToken,
          'x-intake-key': INTAKE_KEY,
        };
        let payload: string | Buffer | undefined;
        if (op.multipart) {
          const form = multipart(req.body as Record<string, string>, {
            name: 'card.pdf',
            type: 'application/pdf',
            content: pdf,
          });
          Object.assign(headers, form.headers);
          payload = form.payload;
        } else if (req.raw !== undefined) {
          headers['content-type'] = 'application/json';
          payload = req.raw;
        } else if (req.body !== undefined) {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(req.body);
        }
        const res = await t.app.inject({
          method: op.method as 'GET',
          url: op.multipart ? op.path : req.url,
          query: req.query,
          headers,
          payload,
          remoteAddress: nextIp(),
        });
        sent += 1;
        const where = `${op.method} ${op.path} [${c.label}] -> ${res.statusCode}`;
        if (res.statusCode >= 500) failures.push(`${where}: ${res.body.slice(0, 200)}`);
        if (/\bat [\w.<>]+ \(|node_modules|\.ts:\d+/.test(res.body))
          failures.push(`${where}: stack trace leaked`);
        if (/\$argon2|password_?hash|jwt-secret/i.test(res.body)) failures.push(`${where}: secret leaked`);
        const type = String(res.headers['content-type'] ?? '');
        const json = type.includes('application/json') ? res.json() : null;
        if (
          json &&
          !Array.isArray(json) &&
          (typeof json.message !== 'string' || ![0, 1, 401].includes(json.status))
        ) {
          failures.push(`${where}: body outside the envelope`);
        }
        if (c.valid) {
          reached.valid += 1;
          if (res.statusCode === 400 && json?.data?.errors) {
            failures.push(`${where}: the valid request did not pass validation: ${json.message}`);
          }
        } else if (res.statusCode < 300) {
          reached.hostile2xx += 1;
        } else {
          reached.hostile4xx += 1;
        }
        if (c.foreign && front && res.statusCode < 400) {
          failures.push(`${where}: a customer token reached another order`);
        }
        if (changes && res.statusCode >= 400 && res.statusCode < 500) {
          const after = await fingerprint();
          if (after !== before) failures.push(`${where}: data changed by a rejected request`);
        }
        if (op.path.endsWith('/change-password') && res.statusCode === 200) {
          adminPassword = (req.body as { newPassword: string }).newPassword;
        }
        // A fresh session of the Admin's own after any of them (a held session still answers user_info).
        if (SESSION_CHANGING.test(op.path) && res.statusCode < 300) adminToken = await freshAdminToken();
      }
      if (process.env.FUZZ_REPORT)
        console.log(`${op.method} ${op.path}: ${cases.length} cases, ${Date.now() - started} ms`);
    }
    if (process.env.FUZZ_REPORT) console.log(JSON.stringify({ sent, ...reached }));
    expect(failures, failures.join('\n')).toEqual([]);
    expect(reached.valid).toBe(ops.length);
    // Hostile values that still pass validation reach the rules and the database.
    expect(reached.hostile2xx).toBeGreaterThan(50);
    expect(sent).toBeGreaterThan(1500);
  }, 1_500_000);
});

describe('truncated and broken multipart bodies', () => {
  it('every multipart route answers 4xx to a form cut anywhere or with a broken boundary, never 5xx, changing nothing', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    // The routes that read multipart/form-data: those the OpenAPI document says so of, and the ones that
    // take either a raw message or a form (documented by `consumes`).
    const known = ['/api/inbound/mail', '/api/customer/orders/{orderId}/replies'];
    const ops = operations(doc).filter((op) => op.multipart || known.includes(op.path));
    expect(ops.map((op) => op.path)).toEqual(
      expect.arrayContaining([...known, '/api/admin/upload-visa-document']),
    );
    const pdf = await samplePdf('FUZZ-CUT');
    const failures: string[] = [];
    for (const op of ops) {
      const order = await createOrder(t.database, { process_status: 'Awaiting' });
      const url = op.path.replace('{orderId}', String(customer.orderId));
      const fields: Record<string, string> = op.path.endsWith('/upload-visa-document')
        ? { orderId: String(order.orderId), email: order.email, mailServiceProvider: 'AWS' }
        : op.path === '/api/inbound/mail'
          ? { email: 'From: <a@example.com>\r\nSubject: cut\r\n\r\nhello\r\n' }
          : { message: 'hello' };
      const form = multipart(fields, {
        field: op.path.endsWith('/replies') ? 'files' : 'uploadVisaDoc',
        name: 'card.pdf',
        type: 'application/pdf',
        content: pdf,
      });
      const authorization =
        op.path === '/api/inbound/mail'
          ? `Bearer ${FUZZ_INBOUND_TOKEN}`
          : op.path.startsWith('/api/customer/')
            ? customer.token
            : adminToken;
      const bodies: [string, Buffer, string][] = [
        ...[1, 40, 120, Math.floor(form.payload.length / 2), form.payload.length - 4].map(
          (keep): [string, Buffer, string] => [
            `cut at ${keep}`,
            form.payload.subarray(0, keep),
            form.headers['content-type']!,
          ],
        ),
        ['another boundary', form.payload, 'multipart/form-data; boundary=not-the-one'],
        ['no boundary', form.payload, 'multipart/form-data'],
        ['NUL in the boundary', form.payload, 'multipart/form-data; boundary=a\u0000b'],
      ];
      for (const [label, payload, type] of bodies) {
        const before = await fingerprint();
        const res = await t.app.inject({
          method: op.method as 'POST',
          url,
          headers: { 'content-type': type, authorization },
          payload,
          remoteAddress: nextIp(),
        });
        const where = `${op.method} ${op.path} [${label}] -> ${res.statusCode}`;
        if (res.statusCode >= 500 || res.statusCode < 400)
          failures.push(`${where}: ${res.body.slice(0, 200)}`);
        if (/\bat [\w.<>]+ \(|node_modules|\.ts:\d+/.test(res.body))
          failures.push(`${where}: stack trace leaked`);
        if ((await fingerprint()) !== before) failures.push(`${where}: data changed by a rejected request`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  }, 120_000);
});
