import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../shared/constants.js';
import { submissionPacket } from '../../shared/contracts/submission.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { formCountry, formDate, formName, formPhone } from './packet.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PASSPORT_MIN_VALIDITY_DAYS: '0' });
});
afterAll(() => t.close());

const packet = (orderId: number, role: (typeof ROLES)[number] = 'Team') =>
  t.as(role, { method: 'GET', url: `/api/admin/orders/${orderId}/submission-packet` });
const submit = (orderId: number, body: unknown, role: (typeof ROLES)[number] = 'Team') =>
  t.as(role, {
    method: 'POST',
    url: `/api/admin/orders/${orderId}/submitted`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const stored = async (orderId: number) =>
  (
    await t.database.sql.query<{
      process_status: string;
      government_reference: string | null;
      submitted_at: Date | null;
      needs_attention: boolean;
      checks: { code: string }[];
      version: number;
    }>(
      'select process_status, government_reference, submitted_at, needs_attention, checks, version from orders where order_id = $1',
      [orderId],
    )
  ).rows[0]!;
const fieldsOf = (body: { data: { fields: { key: string; value: string; original: string | null }[] } }) =>
  Object.fromEntries(body.data.fields.map((f) => [f.key, f]));

describe('the packet formats (one table of cases)', () => {
  it.each([
    ['Øyvind', 'OYVIND'],
    ['Straße', 'STRASSE'],
    ['Łukasz', 'LUKASZ'],
    ['José María', 'JOSE MARIA'],
    ["O'Brien", 'OBRIEN'],
    ['D’Angelo', 'DANGELO'],
    ['Smith - Jones', 'SMITH-JONES'],
    ['Anne-Sophie  Müller', 'ANNE-SOPHIE MULLER'],
    ['Ñúñez', 'NUNEZ'],
    ['Çağlar', 'CAGLAR'],
  ])('name %s → %s, cleanly', (original, value) => {
    expect(formName(original)).toEqual({ value });
  });

  it('warns on a name of another script (it cannot be transliterated cleanly) and keeps a value', () => {
    const cyrillic = formName('Иванов');
    expect(cyrillic.value).toBe('IVANOV');
    expect(cyrillic.warning?.code).toBe('name_transliteration');
    expect(formName('李').warning?.code).toBe('name_transliteration');
  });

  it.each([
    ['1985-04-12', '12-04-1985'],
    ['2026-12-03', '03-12-2026'],
  ])('date %s → %s', (iso, value) => expect(formDate(iso).value).toBe(value));

  it.each([
    ['United States of America', 'United States'],
    ['USA', 'United States'],
    ['USA', 'United States'],
    ['NLD', 'Netherlands'],
    ['Great Britain', 'United Kingdom'],
    ['Curaçao', 'Curacao'],
    ['Türkiye', 'Turkey'],
    ['DE', 'Germany'],
  ])('country %s → %s', (original, value) => expect(formCountry(original)).toEqual({ value }));

  it('an unknown country is kept and warned about', () => {
    expect(formCountry('Atlantis')).toMatchObject({
      value: 'Atlantis',
      warning: { code: 'country_unknown' },
    });
  });

  it.each([
    ['1', '(212) 555-0100', '+12125550100'],
    ['31', '6 12345678', '+31612345678'],
    ['297', '560 1234', '+2975601234'],
    ['', '+44 20 7946 0958', '+442079460958'],
  ])('phone +%s %s → %s', (code, number, value) => expect(formPhone(code, number)).toEqual({ value }));

  it('an impossible phone is warned about', () => {
    expect(formPhone('1', '12').warning?.code).toBe('phone_impossible');
  });
});

describe('GET /api/admin/orders/{id}/submission-packet', () => {
  it('answers the form fields in the form order and format, the originals beside them', async () => {
    const o = await createOrder(t.database, {
      first_name: 'Øyvind Łukasz',
      last_name: "O'Brien-Straße",
      passport_number: 'ab 12-34 567',
      nationality: 'USA',
      country_of_residence: 'NLD',
      date_of_birth: '1985-04-12',
      phone_code: '1',
      telephone_number: '(212) 555-0100',
      flight_number: 'b6 1234',
    });
    const res = await packet(o.orderId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(submissionPacket.safeParse(body.data).success).toBe(true);
    const f = fieldsOf(body);
    expect(f.last_name).toMatchObject({ value: 'OBRIEN-STRASSE', original: "O'Brien-Straße" });
    expect(f.first_name).toMatchObject({ value: 'OYVIND LUKASZ', original: 'Øyvind Łukasz' });
    expect(f.passport_number!.value).toBe('AB1234567');
    expect(f.date_of_birth!.value).toBe('12-04-1985');
    expect(f.nationality!.value).toBe('United States');
    expect(f.country_of_residence!.value).toBe('Netherlands');
    expect(f.phone).toMatchObject({ value: '+12125550100' });
    expect(f.flight_number!.value).toBe('B61234');
    const sections = body.data.fields.map((x: { section: string }) => x.section);
    // The form's order: traveller, passport, trip, address in Aruba, contact — each section once, in a run.
    expect([...new Set(sections)]).toEqual(['traveller', 'passport', 'trip', 'address', 'contact']);
    expect(body.data.fields[0].key).toBe('last_name');
  });

  it('warns about what it cannot fill and the order’s failing checks; reads the order as corrected', async () => {
    const o = await createOrder(t.database, {
      date_of_birth: null,
      first_name: 'Иван',
      flight_number: 'JetBlue',
    });
    const res = await packet(o.orderId);
    const codes = res
      .json()
      .data.warnings.map((w: { code: string; key: string | null }) => `${w.key}:${w.code}`);
    expect(codes).toContain('date_of_birth:missing');
    expect(codes).toContain('first_name:name_transliteration');
    expect(codes).toContain('null:flight_number_shape');
    const corrected = await t.as('Team', {
      method: 'PATCH',
      url: `/api/admin/orders/${o.orderId}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ first_name: 'Ivan', expectedVersion: (await stored(o.orderId)).version }),
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(fieldsOf((await packet(o.orderId)).json()).first_name!.value).toBe('IVAN');
  });

  it('is for staff only: 401 without a token, 404 for an unknown order, 400 for a hostile id', async () => {
    const o = await createOrder(t.database);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/admin/orders/${o.orderId}/submission-packet`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await packet(999_999_999)).statusCode).toBe(404);
    expect((await packet('1%00' as unknown as number)).statusCode).toBe(400);
    for (const role of ROLES) expect((await packet(o.orderId, role)).statusCode).toBe(200);
  });
});

describe('POST /api/admin/orders/{id}/submitted', () => {
  it('moves the order to Awaiting Govt with the reference: event, audit, list row, CSV and exact search', async () => {
    const o = await createOrder(t.database, { last_name: 'Refsearch' });
    const res = await submit(o.orderId, { governmentReference: '  ED-2026-AB12  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      process_status: 'AwaitingGovt',
      government_reference: 'ED-2026-AB12',
    });
    const row = await stored(o.orderId);
    expect(row).toMatchObject({ process_status: 'AwaitingGovt', government_reference: 'ED-2026-AB12' });
    expect(row.submitted_at).not.toBeNull();
    expect(row.checks.map((c) => c.code)).not.toContain('government_reference_missing');
    const { rows: events } = await t.database.sql.query<{ action: string; to_value: string }>(
      `select action, to_value from order_events where order_id = $1 and action = 'submission'`,
      [o.orderId],
    );
    expect(events).toEqual([{ action: 'submission', to_value: 'ED-2026-AB12' }]);
    const { rows: audit } = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'order.submitted' and target = $1`,
      [`order ${o.orderId}`],
    );
    expect(audit[0]!.n).toBe(1);

    const search = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { searchVal: 'ed-2026-ab12', folderName: 'allOrder', start: 0, end: 10 },
    });
    expect(search.statusCode, search.body).toBe(200);
    expect(search.json().data.map((r: { order_id: number }) => r.order_id)).toEqual([o.orderId]);
    expect(search.json().data[0].government_reference).toBe('ED-2026-AB12');

    const detail = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${o.orderId}` });
    expect(detail.json().data).toMatchObject({ government_reference: 'ED-2026-AB12' });
    expect(detail.json().data.submitted_at).toMatch(/^\d{4}-/);

    const csv = await t.as('Admin', {
      method: 'GET',
      url: '/api/admin/export-orders/awaitingGovtOrder?search=Refsearch',
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.split('\n')[0]).toContain('Government Reference');
    expect(csv.body).toContain('ED-2026-AB12');
  });

  it.each([
    ['too short', 'AB1'],
    ['too long', 'A'.repeat(41)],
    ['another character', 'AB_1234'],
    ['a space inside', 'AB 1234'],
    ['a NUL', 'AB12\u000034'],
    ['a number', 12345],
    ['huge', 'A'.repeat(1_000_000)],
  ])('refuses a reference with %s (400) and changes nothing', async (_name, governmentReference) => {
    const o = await createOrder(t.database);
    const before = await stored(o.orderId);
    const res = await submit(o.orderId, { governmentReference });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(await stored(o.orderId)).toEqual(before);
  });

  it('refuses an unknown field, another role’s takeover of a held order, a stale version (nothing changes)', async () => {
    const o = await createOrder(t.database);
    expect(
      (await submit(o.orderId, { governmentReference: 'REF-0001', processStatus: 'Completed' })).statusCode,
    ).toBe(400);
    // Held by the Admin: the Team member may not move it.
    const { rows } = await t.database.sql.query<{ id: number }>(
      `select id from staff_users where role = 'Admin' limit 1`,
    );
    await t.database.sql.query('update orders set assigned_to = $1 where order_id = $2', [
      rows[0]!.id,
      o.orderId,
    ]);
    const held = await submit(o.orderId, { governmentReference: 'REF-0001' });
    expect(held.statusCode).toBe(409);
    expect((await submit(o.orderId, { governmentReference: 'REF-0001', takeOver: true })).statusCode).toBe(
      409,
    );
    const stale = await submit(o.orderId, { governmentReference: 'REF-0001', expectedVersion: 999 }, 'Admin');
    expect(stale.statusCode).toBe(409);
    expect(await stored(o.orderId)).toMatchObject({ process_status: 'New', government_reference: null });
    expect((await submit(o.orderId, { governmentReference: 'REF-0001' }, 'Admin')).statusCode).toBe(200);
    // Already in Awaiting Govt: a second submission is refused.
    expect((await submit(o.orderId, { governmentReference: 'REF-0002' }, 'Admin')).statusCode).toBe(409);
    expect((await stored(o.orderId)).government_reference).toBe('REF-0001');
  });

  it('every role that may move to Awaiting Govt may mark submitted; no token is 401', async () => {
    for (const role of ROLES) {
      const o = await createOrder(t.database);
      const res = await submit(o.orderId, { governmentReference: `R-${role.replace(/\s/g, '')}-1` }, role);
      expect(res.statusCode, `${role}: ${res.body}`).toBe(200);
    }
    const o = await createOrder(t.database);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${o.orderId}/submitted`,
      payload: { governmentReference: 'REF-0003' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('a plain move to Awaiting Govt without a reference', () => {
  it('carries government_reference_missing (Needs attention) until PATCH adds the reference', async () => {
    const o = await createOrder(t.database, {
      passport_number: '512345678',
      first_name: 'Ann',
      last_name: 'Plainmove',
    });
    expect((await stored(o.orderId)).checks).toEqual([]);
    const moved = await t.as('Team', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: o.orderId, updatingStatus: 'AwaitingGovt' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    let row = await stored(o.orderId);
    expect(row.checks.map((c) => c.code)).toContain('government_reference_missing');
    expect(row.needs_attention).toBe(true);
    const checks = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${o.orderId}/checks` });
    expect(checks.json().data.checks.map((c: { code: string }) => c.code)).toContain(
      'government_reference_missing',
    );

    const bad = await t.as('Team', {
      method: 'PATCH',
      url: `/api/admin/orders/${o.orderId}`,
      payload: { governmentReference: 'no spaces allowed', expectedVersion: row.version },
    });
    expect(bad.statusCode).toBe(400);
    const patched = await t.as('Team', {
      method: 'PATCH',
      url: `/api/admin/orders/${o.orderId}`,
      payload: { governmentReference: 'LATE-REF-9', expectedVersion: row.version },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    row = await stored(o.orderId);
    expect(row.government_reference).toBe('LATE-REF-9');
    expect(row.checks.map((c) => c.code)).not.toContain('government_reference_missing');
    expect(row.checks, JSON.stringify(row.checks)).toEqual([]);
    expect(row.needs_attention).toBe(false);
  });
});
