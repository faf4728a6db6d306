import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKING_HOURS } from '../../shared/contracts/working-hours.js';
import { customerAnswered } from '../orders/customer-answers.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { setDueClockForTests } from './policy.js';

/**
 * The customer answer's own due-time rule (docs/product.md, "Working hours"): a verified answer makes its
 * order due within the rule's hours of the answer (working hours where it says so), unless it was due
 * sooner; the next move ends it. The answer's moment is the injected due clock, so the figures hold at
 * any hour of the run.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.as('Admin', {
    method: 'PUT',
    url: '/api/admin/working-hours',
    payload: DEFAULT_WORKING_HOURS,
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t.close());
afterEach(() => setDueClockForTests(null));

const MODES = {
  Standard: { fromPaymentHours: 72, beforeArrivalHours: 24, clock: 'calendar' },
  Priority: { fromPaymentHours: 24, beforeArrivalHours: 24, clock: 'calendar' },
};
const policy = (customerAnswer: unknown) => ({ modes: MODES, atRiskMarginHours: 12, customerAnswer });
const save = (body: unknown, role: 'Admin' | 'Manager' | 'Team' = 'Manager') =>
  t.as(role, { method: 'PUT', url: '/api/admin/due-time-policy', payload: body as object });
const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;
const minute = `'YYYY-MM-DD"T"HH24:MI'`;
const state = async (orderId: number) =>
  (
    await q<{ status: string; due: string | null; from: string | null }>(
      `select process_status as status, to_char(due_at at time zone 'UTC', ${minute}) as due,
              to_char(answer_due_from at time zone 'UTC', ${minute}) as from
       from orders where order_id = $1`,
      [orderId],
    )
  )[0]!;

/** An order paid on Friday 27 November 2026 at 17:00 EST (due Monday 30th 22:00Z by the 72 h rule), waiting on the customer. */
async function waiting(): Promise<number> {
  const { orderId } = await createOrder(t.database);
  await q(
    `update orders set created_at = '2026-11-27T22:00:00Z', processing_date = '2026-11-27',
       arrival_date = '2027-06-01', process_status = 'Awaiting' where order_id = $1`,
    [orderId],
  );
  return orderId;
}

/** The customer answers at that moment (the due clock's). */
async function answer(orderId: number, at: string, verified = true) {
  setDueClockForTests(() => new Date(at));
  await t.database.db.transaction((tx) => customerAnswered(tx, orderId, 'Re: your order', null, verified));
}

describe("the customer answer's due-time rule", () => {
  it('a Friday 18:00 answer with a 4 working-hour target is due Monday 13:00; one at 16:59 Monday 12:59', async () => {
    expect((await save(policy({ hours: 4, clock: 'working' }))).statusCode).toBe(200);
    const evening = await waiting();
    // Friday 18:00 EST = 23:00Z; Monday 13:00 EST = 18:00Z (before the order's own 22:00Z).
    await answer(evening, '2026-11-27T23:00:00Z');
    expect(await state(evening)).toEqual({
      status: 'New',
      due: '2026-11-30T18:00',
      from: '2026-11-27T23:00',
    });
    const late = await waiting();
    await answer(late, '2026-11-27T21:59:00Z');
    expect((await state(late)).due).toBe('2026-11-30T17:59');
    // An order already due sooner keeps its own due time.
    const { orderId: soon } = await createOrder(t.database);
    await q(
      `update orders set created_at = '2026-11-26T12:00:00Z', processing_date = '2026-11-26',
         arrival_date = '2027-06-01' where order_id = $1`,
      [soon],
    );
    await answer(soon, '2026-11-27T23:00:00Z');
    expect(await state(soon)).toMatchObject({ status: 'New', due: '2026-11-29T12:00' });
  });

  it('follows a change of the rule at once, and ends at the next move', async () => {
    expect((await save(policy({ hours: 4, clock: 'working' }))).statusCode).toBe(200);
    const orderId = await waiting();
    await answer(orderId, '2026-11-27T23:00:00Z');
    expect((await state(orderId)).due).toBe('2026-11-30T18:00');
    // Calendar time: Friday 23:00Z + 4 h.
    const saved = await save(policy({ hours: 4 }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.customerAnswer).toEqual({ hours: 4, clock: 'calendar' });
    expect((await state(orderId)).due).toBe('2026-11-28T03:00');
    // Staff move the order on: the answer's target is met; the order's own rule is left.
    await q(`update orders set process_status = 'Contact Customer' where order_id = $1`, [orderId]);
    expect(await state(orderId)).toMatchObject({ status: 'Contact Customer', from: null });
    expect((await state(orderId)).due).toMatch(/^2026-11-30T22:0[01]$/);
  });

  it('without a rule an answer keeps the due time; an unverified sender starts nothing', async () => {
    const res = await save(policy(null));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.customerAnswer).toBeNull();
    const orderId = await waiting();
    await answer(orderId, '2026-11-27T23:00:00Z');
    expect((await state(orderId)).due).toMatch(/^2026-11-30T22:0[01]$/);
    // The old body, without the rule, still saves (no rule).
    const { customerAnswer: _c, ...old } = policy(null);
    const before = await save(old);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data.customerAnswer).toBeNull();
    expect((await save(policy({ hours: 2, clock: 'calendar' }))).statusCode).toBe(200);
    const unverified = await waiting();
    await answer(unverified, '2026-11-27T23:00:00Z', false);
    expect(await state(unverified)).toMatchObject({ status: 'Awaiting', from: null, due: null });
  });

  it('a whole valid body with one hostile field in the rule answers 400 and changes nothing; Team is refused', async () => {
    expect((await save(policy({ hours: 6, clock: 'working' }))).statusCode).toBe(200);
    const row = async () =>
      (await q<{ value: unknown }>(`select value from app_settings where key = 'dueTimePolicy'`))[0]!.value;
    const before = await row();
    const hostile = [
      { hours: 0, clock: 'working' },
      { hours: 1e6, clock: 'working' },
      { hours: 4.5, clock: 'working' },
      { hours: '4\u00008', clock: 'working' },
      { hours: 4, clock: 'lunar' },
      { hours: 4, clock: "working'; drop table orders; --" },
      { hours: 4, clock: 'working', minutes: 30 },
      { clock: 'working' },
      'four hours',
      [4, 'working'],
    ];
    for (const customerAnswer of hostile) {
      const res = await save(policy(customerAnswer), 'Admin');
      expect(res.statusCode, JSON.stringify(customerAnswer)).toBe(400);
      expect(res.json().message).toMatch(/customerAnswer/);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
    expect((await save(policy({ hours: 4, clock: 'working' }), 'Team')).statusCode).toBe(403);
    expect(await row()).toEqual(before);
  });
});
