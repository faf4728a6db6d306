import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MONTHS, ROLES } from '../../shared/constants.js';
import { DEFAULT_DUE_TIME_POLICY } from '../../shared/contracts/due-time.js';
import { serviceToday } from '../../shared/dates.js';
import { setClockForTests } from '../auth/clock.js';
import { startSubmissionWindowOpener } from '../flows/submission-window.js';
import { openDueSubmissionWindows } from '../orders/submission-window.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { buildOrder } from '../test/factories.js';

const KEY = 'intake-key-for-window-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INTAKE_API_KEY: KEY });
});
afterAll(() => t.close());
afterEach(() => setClockForTests(null));

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const policy = (body: unknown, role: (typeof ROLES)[number] = 'Admin') =>
  t.as(role, {
    method: 'PUT',
    url: '/api/admin/submission-policy',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const window = (windowHours: number | null) => policy({ windowHours, jobMinutes: 15, autoSendCard: false });

async function intake(arrivalInDays: number, overrides: Record<string, unknown> = {}) {
  const today = serviceToday();
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/intake/orders',
    headers: { 'content-type': 'application/json', 'x-intake-key': KEY },
    payload: JSON.stringify(
      buildOrder({
        arrival_date: addDays(today, arrivalInDays),
        departure_date: addDays(today, arrivalInDays + 7),
        processing_date: today,
        ...overrides,
      }),
    ),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.order_id as number;
}

const row = async (id: number) =>
  (
    await t.database.sql.query<{
      processing_date: string;
      ordered_processing_date: string | null;
      submission_opens_at: Date | null;
      due_at: Date | null;
      process_status: string;
    }>(
      `select processing_date::text, ordered_processing_date::text, submission_opens_at, due_at, process_status
       from orders where order_id = $1`,
      [id],
    )
  ).rows[0]!;

const inFolder = async (folder: string, id: number) => {
  const res = await t.as('Admin', {
    method: 'POST',
    url: '/api/admin/search-order',
    payload: { searchVal: String(id), folderName: folder, start: 0, end: 10 },
  });
  return res.json().data.some((r: { order_id: number }) => r.order_id === id);
};
const counts = async () =>
  (await t.as('Admin', { method: 'GET', url: '/api/admin/get-folder-count' })).json().data as Record<
    string,
    number
  >;

beforeEach(async () => {
  expect((await window(null)).statusCode).toBe(200);
});

describe('the submission policy', () => {
  it('answers the default (no window, 15 minutes, no auto-send); Admin and Manager change it, audited', async () => {
    const got = await t.as('Manager', { method: 'GET', url: '/api/admin/submission-policy' });
    expect(got.statusCode).toBe(200);
    expect(got.json().data).toMatchObject({ windowHours: null, jobMinutes: 15, autoSendCard: false });
    for (const role of ROLES) {
      const res = await policy({ windowHours: 168, jobMinutes: 20, autoSendCard: true }, role);
      expect(res.statusCode, role).toBe(role === 'Admin' || role === 'Manager' ? 200 : 403);
      const read = await t.as(role, { method: 'GET', url: '/api/admin/submission-policy' });
      expect(read.statusCode).toBe(role === 'Admin' || role === 'Manager' ? 200 : 403);
    }
    const { rows } = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'submission-policy.update'`,
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(2);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/submission-policy' });
    expect(anonymous.statusCode).toBe(401);
  });

  it.each([
    ['windowHours 0', { windowHours: 0 }],
    ['windowHours 2161', { windowHours: 2161 }],
    ['windowHours 1.5', { windowHours: 1.5 }],
    ['windowHours as text', { windowHours: '168' }],
    ['jobMinutes 0', { jobMinutes: 0 }],
    ['jobMinutes huge', { jobMinutes: 1e308 }],
    ['autoSendCard as text', { autoSendCard: 'yes\u0000' }],
    ['an unknown field', { extra: 1 }],
  ])('refuses %s (400) and changes nothing', async (_name, hostile) => {
    const before = (await t.as('Admin', { method: 'GET', url: '/api/admin/submission-policy' })).json().data;
    const res = await policy({ windowHours: 168, jobMinutes: 15, autoSendCard: false, ...hostile });
    expect(res.statusCode, res.body).toBe(400);
    expect((await t.as('Admin', { method: 'GET', url: '/api/admin/submission-policy' })).json().data).toEqual(
      before,
    );
  });
});

describe('the submission window', () => {
  it('an order 30 days out sits in Future Orders under the month its window opens, and enters New when the window is widened', async () => {
    const id = await intake(30);
    expect(await inFolder('newOrder', id)).toBe(true);
    const before = await counts();

    const set = await window(168);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.moved).toBeGreaterThanOrEqual(1);
    const opensDay = addDays(serviceToday(), 23);
    let r = await row(id);
    expect(r.processing_date).toBe(opensDay);
    expect(r.ordered_processing_date).toBe(serviceToday());
    expect(r.submission_opens_at).not.toBeNull();
    expect(await inFolder('newOrder', id)).toBe(false);
    expect(await inFolder('futureOrder', id)).toBe(true);
    // The counts follow (the counters' change event reaches the in-memory counts).
    await expect.poll(async () => (await counts()).futureOrdersCount).toBe(before.futureOrdersCount! + 1);
    expect((await counts()).newOrdersCount).toBe(before.newOrdersCount! - 1);
    const month = MONTHS[Number(opensDay.slice(5, 7)) - 1]!;
    const tiles = (await t.as('Admin', { method: 'GET', url: '/api/admin/get-future-month-count' })).json()
      .data;
    expect(tiles[month]).toBeGreaterThanOrEqual(1);
    // The due time starts from the window's opening: never late while the portal would refuse it.
    expect(r.due_at!.getTime()).toBeGreaterThan(r.submission_opens_at!.getTime());
    // List rows and the detail carry the opening.
    const detail = (await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${id}` })).json()
      .data;
    expect(detail.submission_opens_at).toBe(r.submission_opens_at!.toISOString());
    const list = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/search-order',
      payload: { searchVal: String(id), folderName: 'futureOrder', start: 0, end: 10 },
    });
    expect(list.json().data[0].submission_opens_at).toBe(r.submission_opens_at!.toISOString());

    // Widened to 40 days: the window is open, the order is in New again with its own processing date.
    expect((await window(960)).statusCode).toBe(200);
    r = await row(id);
    expect(r.processing_date).toBe(serviceToday());
    expect(await inFolder('newOrder', id)).toBe(true);
    await expect.poll(async () => (await counts()).futureOrdersCount).toBe(before.futureOrdersCount);

    // No window: as before, nothing left of it.
    expect((await window(null)).statusCode).toBe(200);
    expect(await row(id)).toMatchObject({
      processing_date: serviceToday(),
      ordered_processing_date: null,
      submission_opens_at: null,
    });
  });

  it('an order enters New on the day its window opens: one day more and it waits in Future Orders', async () => {
    expect((await window(168)).statusCode).toBe(200);
    const opensToday = await intake(7);
    const opensTomorrow = await intake(8, { processing_mode: 'Priority' });
    expect(await inFolder('newOrder', opensToday)).toBe(true);
    expect(await inFolder('futureOrder', opensTomorrow)).toBe(true);
    expect(await inFolder('priorityOrder', opensTomorrow)).toBe(false);
    expect((await row(opensTomorrow)).processing_date).toBe(addDays(serviceToday(), 1));
  });

  it('a move to Awaiting Govt before the window opens is refused with the date; an Admin may force it with a reason', async () => {
    expect((await window(168)).statusCode).toBe(200);
    const id = await intake(30);
    const move = (role: (typeof ROLES)[number], extra: Record<string, unknown> = {}) =>
      t.as(role, {
        method: 'PUT',
        url: '/api/admin/move-order-status',
        payload: { orderId: id, updatingStatus: 'AwaitingGovt', ...extra },
      });
    const refused = await move('Team');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/^Submission opens on \d{2}\/\d{2}\/\d{4} at 00:00/);
    const submitted = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${id}/submitted`,
      payload: { governmentReference: 'EARLY-1' },
    });
    expect(submitted.statusCode).toBe(409);
    expect((await move('Team', { forceReason: 'The portal accepted it already' })).statusCode).toBe(403);
    expect((await row(id)).process_status).toBe('New');
    const forced = await move('Admin', { forceReason: 'The portal accepted it already' });
    expect(forced.statusCode, forced.body).toBe(200);
    expect((await row(id)).process_status).toBe('AwaitingGovt');
    const { rows } = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from audit_log where action = 'order.force-submit' and target = $1`,
      [`order ${id}`],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('a corrected arrival moves the order with it', async () => {
    expect((await window(168)).statusCode).toBe(200);
    const id = await intake(30);
    const version = (
      await t.database.sql.query<{ version: number }>('select version from orders where order_id = $1', [id])
    ).rows[0]!.version;
    const res = await t.as('Team', {
      method: 'PATCH',
      url: `/api/admin/orders/${id}`,
      payload: { arrival_date: addDays(serviceToday(), 3), expectedVersion: version },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await inFolder('newOrder', id)).toBe(true);
  });
});

describe('the window opens at its exact hour', () => {
  /** 15:00 in the service time zone `days` after today, as the database computes it. */
  const dayAt15 = async (days: number) =>
    (
      await t.database.sql.query<{ at: Date }>(
        `select ($1::date + time '15:00') at time zone 'America/New_York' as at`,
        [addDays(serviceToday(), days)],
      )
    ).rows[0]!.at;
  const todayAt15 = () => dayAt15(0);

  it('an opening at 15:00 keeps the order in Future Orders until 15:00 (injected clock), then New by itself', async () => {
    // Arrival in two days, a window of 33 hours: the window opens today at 15:00, not at midnight.
    expect((await window(33)).statusCode).toBe(200);
    const opening = await todayAt15();
    setClockForTests(() => new Date(opening.getTime() - 3_600_000));
    const id = await intake(2);
    let r = await row(id);
    expect(r.submission_opens_at!.toISOString()).toBe(opening.toISOString());
    expect(r.processing_date).toBe(addDays(serviceToday(), 1));
    expect(r.ordered_processing_date).toBe(serviceToday());
    expect(await inFolder('futureOrder', id)).toBe(true);
    expect(await inFolder('newOrder', id)).toBe(false);
    const before = await counts();
    // Before the hour: refused, with the hour in the message; the opener moves nothing.
    const early = await t.as('Team', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: id, updatingStatus: 'AwaitingGovt' },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/at 15:00/);
    setClockForTests(() => new Date(opening.getTime() - 1000));
    expect(await t.database.db.transaction((tx) => openDueSubmissionWindows(tx))).toEqual([]);
    expect((await row(id)).processing_date).toBe(addDays(serviceToday(), 1));

    // The hour comes: the order is in New Orders, the counts follow.
    setClockForTests(() => new Date(opening.getTime() + 1000));
    expect(await t.database.db.transaction((tx) => openDueSubmissionWindows(tx))).toContain(id);
    r = await row(id);
    expect(r.processing_date).toBe(serviceToday());
    expect(r.submission_opens_at!.toISOString()).toBe(opening.toISOString());
    expect(await inFolder('newOrder', id)).toBe(true);
    expect(await inFolder('futureOrder', id)).toBe(false);
    await expect.poll(async () => (await counts()).newOrdersCount).toBe(before.newOrdersCount! + 1);
    expect((await counts()).futureOrdersCount).toBe(before.futureOrdersCount! - 1);
    // Once open, a change of the order keeps it open (the window's day, not the day after).
    expect(await t.database.db.transaction((tx) => openDueSubmissionWindows(tx))).toEqual([]);
  });

  it('the due clock of an opening at 15:00 starts at 15:00, not at the start of the day', async () => {
    // One hour from the start, no bound before arrival: the due time tells the start apart.
    const duePolicy = (modes: object) =>
      t.as('Admin', {
        method: 'PUT',
        url: '/api/admin/due-time-policy',
        payload: { ...DEFAULT_DUE_TIME_POLICY, modes },
      });
    const oneHour = { fromPaymentHours: 1, beforeArrivalHours: 0, clock: 'calendar' };
    expect((await duePolicy({ Standard: oneHour, Priority: oneHour })).statusCode).toBe(200);
    try {
      // The opening is tomorrow's 15:00, so it is later than the order's creation (the database's own
      // clock, not the injected one) at any hour the test runs.
      expect((await window(33)).statusCode).toBe(200);
      const opening = await dayAt15(1);
      setClockForTests(() => new Date(opening.getTime() - 3_600_000));
      const id = await intake(3);
      expect((await row(id)).due_at!.toISOString()).toBe(
        new Date(opening.getTime() + 3_600_000).toISOString(),
      );
      setClockForTests(() => new Date(opening.getTime() + 1000));
      expect(await t.database.db.transaction((tx) => openDueSubmissionWindows(tx))).toContain(id);
      const r = await row(id);
      expect(r.processing_date).toBe(addDays(serviceToday(), 1));
      // Opened: the order's day is the opening's, its clock still starts at the opening's hour.
      expect(r.due_at!.toISOString()).toBe(new Date(opening.getTime() + 3_600_000).toISOString());
    } finally {
      expect((await duePolicy(DEFAULT_DUE_TIME_POLICY.modes)).statusCode).toBe(200);
    }
  });

  it('the background opener moves the order once its moment has passed', async () => {
    expect((await window(33)).statusCode).toBe(200);
    const opening = await todayAt15();
    setClockForTests(() => new Date(opening.getTime() - 60_000));
    const id = await intake(2);
    expect((await row(id)).processing_date).toBe(addDays(serviceToday(), 1));
    setClockForTests(() => new Date(opening.getTime() + 60_000));
    const stop = await startSubmissionWindowOpener(t.database.db, { error: () => undefined });
    try {
      await expect.poll(async () => (await row(id)).processing_date).toBe(serviceToday());
    } finally {
      await stop();
    }
  });

  it('with a lead, the opener prepares the opening ahead and the order enters New Orders on the moment', async () => {
    expect((await window(33)).statusCode).toBe(200);
    const opening = await todayAt15();
    // A clock that runs: 1.5 s before the opening now.
    const started = Date.now();
    setClockForTests(() => new Date(opening.getTime() - 1500 + (Date.now() - started)));
    const id = await intake(2);
    const stop = await startSubmissionWindowOpener(
      t.database.db,
      { error: () => undefined },
      { leadMs: 1000 },
    );
    try {
      const seen: { at: number; day: string | null }[] = [];
      await expect
        .poll(
          async () => {
            const day = (await row(id)).processing_date;
            seen.push({ at: Date.now() - started - 1500, day });
            return day;
          },
          { interval: 50, timeout: 5000 },
        )
        .toBe(serviceToday());
      // Never before the moment, and soon after it (the move was prepared ahead).
      const first = seen.find((s) => s.day === serviceToday())!;
      expect(seen.filter((s) => s.at < 0).every((s) => s.day === addDays(serviceToday(), 1))).toBe(true);
      expect(first.at).toBeGreaterThanOrEqual(0);
      expect(first.at).toBeLessThan(1000);
    } finally {
      await stop();
    }
  });

  it('a window of whole days opens at midnight, as the service day changes', async () => {
    expect((await window(48)).statusCode).toBe(200);
    const id = await intake(3);
    const r = await row(id);
    expect(r.processing_date).toBe(addDays(serviceToday(), 1));
    const midnight = (
      await t.database.sql.query<{ at: Date }>(
        `select ($1::date)::timestamp at time zone 'America/New_York' as at`,
        [addDays(serviceToday(), 1)],
      )
    ).rows[0]!.at;
    expect(r.submission_opens_at!.toISOString()).toBe(midnight.toISOString());
  });
});
