import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderChecksAnswer } from '../../shared/contracts/checks.js';
import { orderDetails } from '../../shared/contracts/order-detail.js';
import { serviceToday } from '../../shared/dates.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { buildOrder } from '../test/factories.js';
import { renderCurrentForOrder } from '../communication/templates.js';
import { refreshChecks, setOrderFlag } from '../orders/order-checks.js';
import { ORDER_STATUSES } from '../../shared/constants.js';
import { ATTENTION_STATUSES } from '../../shared/order-checks.js';

const KEY = 'intake-key-for-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INTAKE_API_KEY: KEY, PASSPORT_MIN_VALIDITY_DAYS: '0' });
});
afterAll(() => t.close());

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const today = () => serviceToday();

/** An order through the intake, as the application site sends it; answers the intake's data. */
async function intake(overrides: Record<string, unknown> = {}, lang?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/intake/orders${lang ? `?lang=${lang}` : ''}`,
    headers: { 'content-type': 'application/json', 'x-intake-key': KEY },
    payload: JSON.stringify(
      buildOrder({
        first_name: 'Ann',
        last_name: 'Smith',
        arrival_date: addDays(today(), 10),
        departure_date: addDays(today(), 17),
        ...overrides,
      }),
    ),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    order_id: number;
    checks: { code: string; message: string; fields: string[] }[];
  };
}

const row = async (id: number) =>
  (
    await t.database.sql.query<{
      check_level: number;
      needs_attention: boolean;
      version: number;
      passport_number: string;
      checks: unknown;
    }>(
      'select check_level, needs_attention, version, passport_number, checks from orders where order_id = $1',
      [id],
    )
  ).rows[0]!;

const THREE_PROBLEMS = {
  re_enter_email: 'someone.else@example.com',
  flight_number: 'JetBlue',
  first_name: 'Ann4',
};

describe('checks at intake', () => {
  it('a clean order carries no checks and is not in Needs attention', async () => {
    const { order_id, checks } = await intake();
    expect(checks).toEqual([]);
    expect(await row(order_id)).toMatchObject({ check_level: 0, needs_attention: false });
  });

  it('answers the failing checks in the traveller’s language and stores them for the lists', async () => {
    const { order_id, checks } = await intake({ ...THREE_PROBLEMS, email: 'ann@gmial.com' }, 'es');
    expect(checks.map((c) => c.code).sort()).toEqual(
      ['email_mismatch', 'email_typo', 'flight_number_shape', 'name_characters'].sort(),
    );
    expect(checks.find((c) => c.code === 'email_typo')!.message).toContain('ann@gmail.com');
    expect(checks.find((c) => c.code === 'email_mismatch')!.message).toMatch(/correo/);
    expect(await row(order_id)).toMatchObject({ check_level: 2, needs_attention: true });

    const res = await t.as('Telecaller', { method: 'GET', url: `/api/admin/orders/${order_id}/checks` });
    expect(res.statusCode).toBe(200);
    const answer = orderChecksAnswer.parse(res.json().data);
    expect(answer.checks.find((c) => c.code === 'name_characters')).toMatchObject({
      severity: 'warn',
      fields: ['first_name'],
      message: 'A name contains digits or control characters.',
    });
    const detail = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${order_id}` });
    const parsed = orderDetails.parse(detail.json().data);
    expect({ checks: parsed.checks, duplicates: parsed.duplicates }).toEqual(answer);
  });

  it('the same order sent again answers the same id and its own checks (not itself as a duplicate)', async () => {
    const body = buildOrder({ first_name: 'Ann', last_name: 'Smith', flight_number: 'nope' });
    const send = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/intake/orders',
          headers: { 'content-type': 'application/json', 'x-intake-key': KEY },
          payload: JSON.stringify(body),
        })
      ).json().data;
    const first = await send();
    const again = await send();
    expect(again.order_id).toBe(first.order_id);
    expect(again.checks.map((c: { code: string }) => c.code)).toEqual(
      first.checks.map((c: { code: string }) => c.code),
    );
    expect(again.checks.map((c: { code: string }) => c.code)).not.toContain('possible_duplicate');
  });

  it('the Needs attention filter and count', async () => {
    const { order_id } = await intake(THREE_PROBLEMS);
    const counts = await t.as('Team', { method: 'GET', url: '/api/admin/get-folder-count' });
    const n = counts.json().data.needsAttentionCount as number;
    const expected = Number(
      (await t.database.sql.query<{ n: string }>('select count(*) as n from orders where needs_attention'))
        .rows[0]!.n,
    );
    expect(n).toBe(expected);
    expect(n).toBeGreaterThan(0);
    const list = await t.as('Team', {
      method: 'GET',
      url: '/api/admin/get-orders-list/allOrder?limit=100&needsAttention=true',
    });
    expect(list.statusCode, list.body).toBe(200);
    // All Orders filtered to Needs attention alone: the same orders as the count (taken from its memory).
    expect(list.json().total).toBe(expected);
    const rows = list.json().data.orders ?? list.json().data;
    const ids = (Array.isArray(rows) ? rows : rows.rows).map((r: { order_id: number }) => r.order_id);
    expect(ids).toContain(order_id);
    const one = (Array.isArray(rows) ? rows : rows.rows).find(
      (r: { order_id: number }) => r.order_id === order_id,
    );
    expect(one.check_level).toBe(2);
    expect(one.check_codes).toContain('flight_number_shape');
    const bad = await t.as('Team', {
      method: 'GET',
      url: '/api/admin/get-orders-list/allOrder?needsAttention=yes%00',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a passed trip alone is its own tile, not Needs attention (decision 391)', async () => {
    const { order_id, checks } = await intake({
      arrival_date: addDays(today(), -400),
      departure_date: addDays(today(), -390),
    });
    expect(checks.map((c) => c.code)).toEqual(['arrival_past']);
    expect(await row(order_id)).toMatchObject({ check_level: 0, needs_attention: false });
    const counts = (await t.as('Team', { method: 'GET', url: '/api/admin/get-folder-count' })).json().data;
    const stored = Number(
      (await t.database.sql.query<{ n: string }>('select count(*) as n from orders where needs_attention'))
        .rows[0]!.n,
    );
    expect(counts.needsAttentionCount).toBe(stored);
    expect(counts.tripPassedCount).toBeGreaterThan(0);
    // With a real problem besides the passed trip, the order is a to-do again.
    const both = await intake({
      arrival_date: addDays(today(), -400),
      departure_date: addDays(today(), -390),
      flight_number: 'JetBlue',
    });
    expect(await row(both.order_id)).toMatchObject({ check_level: 1, needs_attention: true });
  });

  it('the checks route: 404 for an unknown order, 400 for a hostile id', async () => {
    expect(
      (await t.as('Team', { method: 'GET', url: '/api/admin/orders/999999999/checks' })).statusCode,
    ).toBe(404);
    expect((await t.as('Team', { method: 'GET', url: '/api/admin/orders/1%00/checks' })).statusCode).toBe(
      400,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/orders/100001/checks' })).statusCode).toBe(
      401,
    );
  });
});

describe('flags from other parts of the service', () => {
  it('early_fraud_warning: raising the flag puts the order in Needs attention, clearing it takes it out', async () => {
    const { order_id } = await intake();
    const settings = { minPassportValidityDays: 0 };
    await t.database.db.transaction((tx) =>
      setOrderFlag(tx, order_id, 'early_fraud_warning', true, settings, new Date()),
    );
    await t.database.db.transaction((tx) =>
      setOrderFlag(tx, order_id, 'early_fraud_warning', true, settings, new Date()),
    );
    expect(await row(order_id)).toMatchObject({ check_level: 2, needs_attention: true });
    const res = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${order_id}/checks` });
    expect(res.json().data.checks).toEqual([
      {
        code: 'early_fraud_warning',
        severity: 'block',
        fields: [],
        message: 'The card issuer warned that this payment may be fraudulent.',
      },
    ]);
    await t.database.db.transaction((tx) =>
      setOrderFlag(tx, order_id, 'early_fraud_warning', false, settings, new Date()),
    );
    expect(await row(order_id)).toMatchObject({ check_level: 0, needs_attention: false });
  });

  it('the checks run at the time their caller gives: the same order, a later day, a past arrival', async () => {
    const { order_id } = await intake();
    const settings = { minPassportValidityDays: 0 };
    const codes = async (at: Date) =>
      [
        ...(await t.database.db.transaction((tx) => refreshChecks(tx, [order_id], settings, at))).get(
          order_id,
        )!,
      ]
        .map((c) => c.code)
        .sort();
    expect(await codes(new Date())).toEqual([]);
    // Twenty days on the arrival (ten days ahead today) has passed; the passport (valid for years) has not.
    const later = new Date(Date.now() + 20 * 86_400_000);
    expect(await codes(later)).toEqual(['arrival_past']);
    expect((await row(order_id)).checks).toMatchObject([{ code: 'arrival_past' }]);
    expect(await codes(new Date())).toEqual([]);
  });

  it('the stored Needs attention column and ATTENTION_STATUSES name the same statuses', async () => {
    const { order_id } = await intake({ flight_number: 'nope' });
    for (const status of ORDER_STATUSES) {
      await t.database.sql.query('update orders set process_status = $1 where order_id = $2', [
        status,
        order_id,
      ]);
      expect((await row(order_id)).needs_attention, status).toBe(
        (ATTENTION_STATUSES as readonly string[]).includes(status),
      );
    }
  });
});

describe('the confirm-details template and macro', () => {
  it('lists the failing checks to the customer in their language; the macro sends it', async () => {
    const { order_id } = await intake({ ...THREE_PROBLEMS, date_of_birth: '2015-01-01' }, 'es');
    const mail = await renderCurrentForOrder(t.database.db, t.config, order_id, 'confirm-details');
    expect(mail!.subject).toBe(`Por favor confirme sus datos (pedido ${order_id})`);
    expect(mail!.text).toContain('• El correo electrónico y el correo electrónico repetido no coinciden.');
    expect(mail!.text).toContain('• El número de vuelo no es un código de aerolínea seguido de dígitos.');
    expect(mail!.text).not.toContain('menor de edad'); // information only
    const { rows } = await t.database.sql.query<{ id: number }>(
      "select id from macros where name = 'Please confirm your details'",
    );
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: rows[0]!.id, orderIds: [order_id] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const queued = await t.database.sql.query<{ n: string }>(
      "select count(*) as n from mail_log where order_id = $1 and kind = 'macro'",
      [order_id],
    );
    expect(Number(queued.rows[0]!.n)).toBe(1);
  });
});

describe('corrections', () => {
  const patch = (role: Parameters<TestApp['as']>[0], id: number, body: unknown) =>
    t.as(role, { method: 'PATCH', url: `/api/admin/orders/${id}`, payload: body as object });

  it('corrects fields in one transaction with an event and an audit entry, re-runs the checks, leaves Needs attention', async () => {
    const { order_id } = await intake(THREE_PROBLEMS);
    const before = await row(order_id);
    const res = await patch('Team', order_id, {
      expectedVersion: before.version,
      re_enter_email: null,
      flight_number: 'B6 1234',
      first_name: 'Ann',
      passport_number: before.passport_number,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.checks).toEqual([]);
    expect(data.changes).toEqual([
      { field: 're_enter_email', from: 'someone.else@example.com', to: null },
      { field: 'first_name', from: 'Ann4', to: 'Ann' },
      { field: 'flight_number', from: 'JetBlue', to: 'B6 1234' },
    ]);
    const after = await row(order_id);
    expect(after).toMatchObject({ check_level: 0, needs_attention: false });
    expect(data.version).toBe(after.version);
    expect(after.version).toBe(before.version + 1);
    const events = await t.database.sql.query<{ from_value: string; to_value: string }>(
      "select from_value, to_value from order_events where order_id = $1 and action = 'correction'",
      [order_id],
    );
    expect(events.rows).toHaveLength(1);
    expect(JSON.parse(events.rows[0]!.from_value)).toEqual({
      re_enter_email: 'someone.else@example.com',
      first_name: 'Ann4',
      flight_number: 'JetBlue',
    });
    expect(JSON.parse(events.rows[0]!.to_value)).toEqual({
      re_enter_email: null,
      first_name: 'Ann',
      flight_number: 'B6 1234',
    });
    const audit = await t.database.sql.query<{ n: string }>(
      "select count(*) as n from audit_log where action = 'order.correct' and target = $1",
      [`order ${order_id}`],
    );
    expect(Number(audit.rows[0]!.n)).toBe(1);
    const detail = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${order_id}` });
    expect(detail.json().data.events.map((e: { action: string }) => e.action)).toContain('correction');
  });

  it('refuses a stale version with 409 and changes nothing', async () => {
    const { order_id } = await intake(THREE_PROBLEMS);
    const { version } = await row(order_id);
    const res = await patch('Manager', order_id, { expectedVersion: version + 5, first_name: 'Ann' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/changed since you opened it/);
    expect((await row(order_id)).version).toBe(version);
  });

  it('Admin, Manager and Team correct; Telecaller and Night Staff only read', async () => {
    const { order_id } = await intake();
    for (const role of ['Telecaller', 'Night Staff'] as const) {
      const { version } = await row(order_id);
      expect((await patch(role, order_id, { expectedVersion: version, city: 'Boston' })).statusCode).toBe(
        403,
      );
    }
    for (const [role, city] of [
      ['Admin', 'Boston'],
      ['Manager', 'Austin'],
      ['Team', 'Denver'],
    ] as const) {
      const { version } = await row(order_id);
      expect((await patch(role, order_id, { expectedVersion: version, city })).statusCode).toBe(200);
    }
  });

  it('refuses Completed, Refunded and Deleted orders', async () => {
    for (const status of ['Completed', 'Refunded', 'Deleted']) {
      const { order_id } = await intake();
      await t.database.sql.query('update orders set process_status = $1 where order_id = $2', [
        status,
        order_id,
      ]);
      const { version } = await row(order_id);
      const res = await patch('Admin', order_id, { expectedVersion: version, city: 'Boston' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain(status);
    }
  });

  it('validates as the intake does: a whole valid body, then one hostile field at a time', async () => {
    const { order_id } = await intake();
    const { version } = await row(order_id);
    const valid = {
      expectedVersion: version,
      email: 'new@example.com',
      re_enter_email: 'new@example.com',
      first_name: 'Maria',
      last_name: 'Lopez',
      date_of_birth: '1990-01-02',
      passport_number: 'A12345678',
      passport_expiration: '2032-01-01',
      arrival_date: addDays(today(), 3),
      departure_date: addDays(today(), 9),
      flight_number: 'AA 123',
      phone_code: '+1',
      telephone_number: '212 555 0101',
      country_of_residence: 'nld',
      address: 'Line 1\nLine 2',
    };
    for (const hostile of [
      { first_name: 'Ann\u0000' },
      { last_name: 'x'.repeat(10_000) },
      { email: 'not-an-email' },
      { arrival_date: '2026-02-30' },
      { country_of_residence: 'UNITED' },
      { order_id: 1 },
      { process_status: 'Completed' },
      { amount: 0 },
      { expectedVersion: 'x' },
    ]) {
      const res = await patch('Team', order_id, { ...valid, ...hostile });
      expect(res.statusCode, JSON.stringify(hostile)).toBe(400);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await patch('Team', order_id, { expectedVersion: version })).statusCode).toBe(400);
    expect((await row(order_id)).version).toBe(version);
    const res = await patch('Team', order_id, valid);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.changes.map((c: { field: string }) => c.field)).toContain('country_of_residence');
    expect((await patch('Team', 999_999_999, { ...valid, expectedVersion: 1 })).statusCode).toBe(404);
  });
});

describe('duplicates', () => {
  it('finds both rules, shows the candidates and takes decisions', async () => {
    const passport = `P${Date.now().toString().slice(-8)}`;
    const first = await intake({
      passport_number: passport,
      email: 'first@example.com',
      re_enter_email: null,
    });
    // The same passport written differently, trip starting the day after the first one ends.
    const second = await intake({
      passport_number: `${passport.slice(0, 3)}-${passport.slice(3).toLowerCase()} `,
      email: 'second@example.com',
      re_enter_email: null,
      arrival_date: addDays(today(), 18),
      departure_date: addDays(today(), 20),
    });
    expect(second.checks.map((c) => c.code)).toContain('possible_duplicate');
    expect((await row(first.order_id)).needs_attention).toBe(true);

    const res = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${second.order_id}/checks` });
    const answer = orderChecksAnswer.parse(res.json().data);
    expect(answer.duplicates).toHaveLength(1);
    expect(answer.duplicates[0]).toMatchObject({
      order_id: first.order_id,
      rule: 'passport',
      decision: null,
      process_status: 'New',
    });
    expect(answer.duplicates[0]!.matching_fields).toEqual(
      expect.arrayContaining(['passport_number', 'nationality']),
    );

    const decide = (role: Parameters<TestApp['as']>[0], id: number, body: object) =>
      t.as(role, { method: 'POST', url: `/api/admin/orders/${id}/duplicate-decision`, payload: body });
    expect(
      (await decide('Telecaller', second.order_id, { otherOrderId: first.order_id, decision: 'duplicate' }))
        .statusCode,
    ).toBe(403);
    for (const hostile of [
      { otherOrderId: first.order_id, decision: 'maybe' },
      { otherOrderId: 'x\u0000', decision: 'duplicate' },
      { otherOrderId: first.order_id, decision: 'duplicate', extra: 1 },
    ]) {
      expect((await decide('Team', second.order_id, hostile)).statusCode).toBe(400);
    }
    // An order that is not a candidate (someone else's) is refused.
    const stranger = await intake();
    expect(
      (await decide('Team', second.order_id, { otherOrderId: stranger.order_id, decision: 'duplicate' }))
        .statusCode,
    ).toBe(409);
    expect(
      (await decide('Team', second.order_id, { otherOrderId: 999_999_999, decision: 'duplicate' }))
        .statusCode,
    ).toBe(404);

    const done = await decide('Team', first.order_id, {
      otherOrderId: second.order_id,
      decision: 'duplicate',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.movedOrderId).toBe(second.order_id);
    const moved = await t.database.sql.query<{ process_status: string; remark: string }>(
      `select o.process_status, r.remark from orders o join order_remarks r on r.order_id = o.order_id where o.order_id = $1`,
      [second.order_id],
    );
    expect(moved.rows[0]).toEqual({
      process_status: 'Refunds',
      remark: `Duplicate of order ${first.order_id}`,
    });
    // The refund that follows is for a duplicate: the reason is preset (docs/product.md, "Refund reasons").
    const reason = await t.database.sql.query<{ refund_reason: string }>(
      'select refund_reason from orders where order_id = $1',
      [second.order_id],
    );
    expect(reason.rows[0]!.refund_reason).toBe('duplicate');
    expect((await row(first.order_id)).needs_attention).toBe(false);
    expect(
      (await decide('Team', first.order_id, { otherOrderId: second.order_id, decision: 'not_duplicate' }))
        .statusCode,
    ).toBe(409);
    const audit = await t.database.sql.query<{ n: string }>(
      "select count(*) as n from audit_log where action = 'order.duplicate-decision'",
    );
    expect(Number(audit.rows[0]!.n)).toBeGreaterThan(0);
  });

  it('the same e-mail and traveller (an accent and one letter apart), birth dates within 30 days; not a duplicate silences the pair', async () => {
    const email = `dup${Date.now()}@example.com`;
    const a = await intake({
      email,
      re_enter_email: email,
      first_name: 'José',
      last_name: 'Pérez',
      date_of_birth: '1980-03-01',
    });
    const b = await intake({
      email: email.toUpperCase(),
      re_enter_email: null,
      first_name: 'Jose',
      last_name: 'Peres',
      date_of_birth: '1980-03-31',
    });
    const c = await intake({
      email,
      re_enter_email: null,
      first_name: 'Jose',
      last_name: 'Perez',
      date_of_birth: '1980-04-01',
    });
    expect(b.checks.map((x) => x.code)).toContain('possible_duplicate');
    const res = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${b.order_id}/checks` });
    const ids = orderChecksAnswer.parse(res.json().data).duplicates.map((d) => [d.order_id, d.rule]);
    expect(ids).toEqual([
      [a.order_id, 'email'],
      [c.order_id, 'email'],
    ]);
    // a and c: birth dates 31 days apart.
    const ac = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${a.order_id}/checks` });
    expect(orderChecksAnswer.parse(ac.json().data).duplicates.map((d) => d.order_id)).toEqual([b.order_id]);

    const not = await t.as('Manager', {
      method: 'POST',
      url: `/api/admin/orders/${a.order_id}/duplicate-decision`,
      payload: { otherOrderId: b.order_id, decision: 'not_duplicate' },
    });
    expect(not.statusCode, not.body).toBe(200);
    const after = orderChecksAnswer.parse(not.json().data);
    expect(after.duplicates).toEqual([]);
    expect(after.checks.map((x) => x.code)).not.toContain('possible_duplicate');
    expect((await row(a.order_id)).needs_attention).toBe(false);
  });
});
