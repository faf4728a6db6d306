import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DUE_TIME_POLICY, dueTimePolicy } from '../../shared/contracts/due-time.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { setDueClockForTests } from './policy.js';

/**
 * Due times: stored on the order by the database from the policy, states read at the injected clock.
 * The test orders are Kiribati travellers processed in January 2031 (no daylight saving in New York),
 * so `nationality=KIR` isolates them from the demo data.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => setDueClockForTests(null));

const HOUR = 3_600_000;
const trip = { nationality: 'Kiribati', processing_date: '2031-01-10', arrival_date: '2031-01-13' };
// Processing day starts 2031-01-10T05:00Z; the arrival day 2031-01-13T05:00Z.
// Standard: min(start + 72 h = 13th 05:00, arrival − 24 h = 12th 05:00) = 12th 05:00 (arrival limit).
const STANDARD_DUE = '2031-01-12T05:00:00.000Z';
// Priority: min(start + 24 h = 11th 05:00, arrival − 24 h = 12th 05:00) = 11th 05:00 (payment limit).
const PRIORITY_DUE = '2031-01-11T05:00:00.000Z';

type Row = { order_id: number; due_at: string | null; due_state: string | null };

async function kiribati(query = ''): Promise<{ rows: Row[]; total: number }> {
  const res = await t.as('Admin', {
    method: 'GET',
    url: `/api/admin/get-orders-list/allOrder?nationality=KIR&limit=100${query}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { rows: res.json().data ?? [], total: res.json().total };
}

const at = (iso: string, deltaMs = 0) => setDueClockForTests(() => new Date(Date.parse(iso) + deltaMs));

async function counts(): Promise<{ atRiskCount: number; breachedCount: number }> {
  const res = await t.as('Team', { method: 'GET', url: '/api/admin/get-folder-count' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const policyRow = async () =>
  (
    await t.database.sql.query<{ value: unknown }>(
      `select value from app_settings where key = 'dueTimePolicy'`,
    )
  ).rows[0]?.value;

describe('due times', () => {
  let standard: number;
  let priority: number;
  let noArrival: number;
  let completed: number;

  beforeAll(async () => {
    standard = (await createOrder(t.database, trip)).orderId;
    priority = (await createOrder(t.database, { ...trip, processing_mode: 'Priority' })).orderId;
    noArrival = (await createOrder(t.database, { ...trip, arrival_date: null })).orderId;
    completed = (await createOrder(t.database, { ...trip, process_status: 'Completed' })).orderId;
  });

  it('are the earlier of the payment and arrival limits, none for closed orders', async () => {
    at('2031-01-01T00:00:00Z');
    const byId = new Map((await kiribati()).rows.map((r) => [r.order_id, r]));
    expect(byId.get(standard)).toMatchObject({ due_at: STANDARD_DUE, due_state: 'on_track' });
    expect(byId.get(priority)).toMatchObject({ due_at: PRIORITY_DUE, due_state: 'on_track' });
    // Without an arrival date only the payment limit counts: start + 72 h.
    expect(byId.get(noArrival)).toMatchObject({ due_at: '2031-01-13T05:00:00.000Z' });
    expect(byId.get(completed)).toMatchObject({ due_at: null, due_state: null });

    const detail = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${standard}` });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toMatchObject({ due_at: STANDARD_DUE, due_state: 'on_track' });
    const closed = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${completed}` });
    expect(closed.json().data).toMatchObject({ due_at: null, due_state: null });
  });

  it('changes state exactly at the margin and at the due time', async () => {
    const stateAt = async (delta: number) => {
      at(STANDARD_DUE, delta);
      return (await kiribati()).rows.find((r) => r.order_id === standard)!.due_state;
    };
    expect(await stateAt(-12 * HOUR - 1)).toBe('on_track');
    expect(await stateAt(-12 * HOUR)).toBe('on_track'); // exactly the margin left: not yet at risk
    expect(await stateAt(-12 * HOUR + 1)).toBe('at_risk');
    expect(await stateAt(-1)).toBe('at_risk');
    expect(await stateAt(0)).toBe('breached');
    expect(await stateAt(HOUR)).toBe('breached');
    // The detail answer reads the same clock.
    at(STANDARD_DUE, -1);
    const detail = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${standard}` });
    expect(detail.json().data.due_state).toBe('at_risk');
  });

  it('filters by state, and the at-risk and breached counts follow the clock', async () => {
    at('2031-01-09T00:00:00Z');
    const before = await counts();
    expect((await kiribati('&dueState=on_track')).total).toBe(3);
    expect((await kiribati('&dueState=at_risk')).total).toBe(0);

    // One hour before the Standard order is due: Standard at risk, Priority (a day earlier) breached.
    at(STANDARD_DUE, -HOUR);
    const after = await counts();
    const atRisk = await kiribati('&dueState=at_risk');
    expect(atRisk.rows.map((r) => r.order_id)).toEqual([standard]);
    expect(atRisk.total).toBe(1);
    expect((await kiribati('&dueState=breached')).rows.map((r) => r.order_id)).toEqual([priority]);
    expect((await kiribati('&dueState=on_track')).rows.map((r) => r.order_id)).toEqual([noArrival]);
    expect(after.atRiskCount - before.atRiskCount).toBe(1);
    expect(after.breachedCount - before.breachedCount).toBe(1);
  });

  it('follow a status change, and cannot be written by hand', async () => {
    const due = async (id: number) =>
      (
        await t.database.sql.query<{ d: string | null }>(
          `select due_at::text as d from orders where order_id = $1`,
          [id],
        )
      ).rows[0]!.d;
    const stored = await due(standard);
    expect(stored).not.toBeNull();
    await t.database.sql.query(`update orders set due_at = '2000-01-01' where order_id = $1`, [standard]);
    expect(await due(standard)).toBe(stored);
    await t.database.sql.query(`update orders set process_status = 'Refunded' where order_id = $1`, [
      standard,
    ]);
    expect(await due(standard)).toBeNull();
    await t.database.sql.query(`update orders set process_status = 'Customer Called' where order_id = $1`, [
      standard,
    ]);
    expect(await due(standard)).toBe(stored);
    // Waiting on the customer pauses the clock (decision 316; due-clock.test.ts covers the resume).
    await t.database.sql.query(`update orders set process_status = 'Awaiting' where order_id = $1`, [
      standard,
    ]);
    expect(await due(standard)).toBeNull();
    await t.database.sql.query(
      `update orders set process_status = 'Customer Called', due_paused_at = null, due_paused_seconds = 0 where order_id = $1`,
      [standard],
    );
    await t.database.sql.query(`update orders set processing_mode = 'Priority' where order_id = $1`, [
      standard,
    ]);
    expect(await due(standard)).toBe(await due(priority));
    await t.database.sql.query(`update orders set processing_mode = 'Standard' where order_id = $1`, [
      standard,
    ]);
    expect(await due(standard)).toBe(stored);
  });
});

describe('GET/PUT /api/admin/due-time-policy', () => {
  const body = {
    modes: {
      Standard: { fromPaymentHours: 48, beforeArrivalHours: 0 },
      Priority: { fromPaymentHours: 12, beforeArrivalHours: 6 },
    },
    atRiskMarginHours: 6,
  };

  it('answers the default policy to every role', async () => {
    const res = await t.as('Telecaller', { method: 'GET', url: '/api/admin/due-time-policy' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject(DEFAULT_DUE_TIME_POLICY);
  });

  it('refuses Team and hostile values with no change', async () => {
    const before = await policyRow();
    const team = await t.as('Team', { method: 'PUT', url: '/api/admin/due-time-policy', payload: body });
    expect(team.statusCode).toBe(403);
    const hostile = [
      { ...body, atRiskMarginHours: 1e12 },
      {
        ...body,
        modes: { ...body.modes, Standard: { fromPaymentHours: '4\u00008', beforeArrivalHours: 0 } },
      },
      { ...body, modes: { ...body.modes, 'Express\u0000': { fromPaymentHours: 1, beforeArrivalHours: 0 } } },
      { ...body, modes: { Standard: body.modes.Standard } },
      { ...body, modes: { ...body.modes, Priority: { fromPaymentHours: -1, beforeArrivalHours: 0 } } },
    ];
    for (const payload of hostile) {
      const res = await t.as('Admin', { method: 'PUT', url: '/api/admin/due-time-policy', payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(await policyRow()).toEqual(before);
  });

  it('a Manager saves it: audited, and open orders get their new due times at once', async () => {
    const order = (await createOrder(t.database, trip)).orderId;
    const res = await t.as('Manager', { method: 'PUT', url: '/api/admin/due-time-policy', payload: body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ ...body, updatedBy: expect.any(String) });
    // Stored as parsed: each rule with its clock (calendar when the body leaves it out).
    expect(await policyRow()).toEqual(dueTimePolicy.parse(body));
    // Standard now: min(start + 48 h = 12th 05:00, arrival − 0 h = 13th 05:00).
    at('2031-01-12T00:00:00Z');
    const row = (await kiribati()).rows.find((r) => r.order_id === order)!;
    expect(row.due_at).toBe('2031-01-12T05:00:00.000Z');
    expect(row.due_state).toBe('at_risk'); // 5 h left, margin 6 h
    const audit = await t.database.sql.query<{ action: string; target: string; to_value: unknown }>(
      `select action, target, to_value from audit_log where action = 'due-time-policy.update'`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ target: 'settings:dueTimePolicy', to_value: body });
  });
});
