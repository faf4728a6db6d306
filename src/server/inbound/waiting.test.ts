import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { ensureWaitingSwitch, scanWaiting } from './waiting.js';

const MIN = 60_000;

describe('the waiting policy: reminders, then Contact Customer, each step once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An order moved to Awaiting at `since` (its status event carries that time). */
  async function awaitingSince(since: Date) {
    const order = await createOrder(t.database, { process_status: 'Awaiting' });
    await t.database.sql.query(
      `insert into order_events (order_id, action, from_value, to_value, created_at) values ($1, 'status', 'New', 'Awaiting', $2)`,
      [order.orderId, since],
    );
    return order.orderId;
  }
  async function state(orderId: number) {
    const { rows } = await t.database.sql.query<{ process_status: string }>(
      'select process_status from orders where order_id = $1',
      [orderId],
    );
    const { rows: mails } = await t.database.sql.query<{ kind: string; requested_by: number | null }>(
      'select kind, requested_by from mail_log where order_id = $1 order by id',
      [orderId],
    );
    return { status: rows[0]!.process_status, mails };
  }

  it('GET/PUT the policy: Admin and Manager only, audited, ordered steps, hostile values refused', async () => {
    const get = await t.as('Manager', { method: 'GET', url: '/api/admin/waiting-policy' });
    expect(get.json().data).toEqual({
      remindAfterMinutes: 2880,
      secondReminderAfterMinutes: 5760,
      escalateAfterMinutes: 8640,
    });
    expect((await t.as('Team', { method: 'GET', url: '/api/admin/waiting-policy' })).statusCode).toBe(403);
    const policy = { remindAfterMinutes: 60, secondReminderAfterMinutes: 120, escalateAfterMinutes: 180 };
    const put = await t.as('Admin', { method: 'PUT', url: '/api/admin/waiting-policy', payload: policy });
    expect(put.statusCode).toBe(200);
    const { rows } = await t.database.sql.query(
      "select 1 from audit_log where action = 'waiting-policy.update'",
    );
    expect(rows).toHaveLength(1);
    for (const bad of [
      { ...policy, secondReminderAfterMinutes: 30 },
      { ...policy, escalateAfterMinutes: 1e12 },
      { ...policy, remindAfterMinutes: 'x\u0000' },
      { ...policy, extra: 1 },
    ]) {
      const res = await t.as('Admin', { method: 'PUT', url: '/api/admin/waiting-policy', payload: bad });
      expect(res.statusCode).toBe(400);
    }
    expect(
      (await t.as('Telecaller', { method: 'PUT', url: '/api/admin/waiting-policy', payload: policy }))
        .statusCode,
    ).toBe(403);
    expect((await t.as('Admin', { method: 'GET', url: '/api/admin/waiting-policy' })).json().data).toEqual(
      policy,
    );
  });

  it('reminds, reminds again, then moves to Contact Customer; two instances scanning at once act once', async () => {
    const start = new Date(Date.now() - 10 * MIN);
    const orderId = await awaitingSince(start);
    const at = (minutes: number) => new Date(start.getTime() + minutes * MIN);

    expect(await scanWaiting(t.database.db, at(59))).toBe(0);
    // Two scans at once (two instances): one reminder.
    await Promise.all([scanWaiting(t.database.db, at(61)), scanWaiting(t.database.db, at(61))]);
    let s = await state(orderId);
    expect(s.mails).toEqual([{ kind: 'notification', requested_by: null }]);
    await scanWaiting(t.database.db, at(90));
    expect((await state(orderId)).mails).toHaveLength(1);
    await scanWaiting(t.database.db, at(121));
    await scanWaiting(t.database.db, at(122));
    expect((await state(orderId)).mails).toHaveLength(2);
    await Promise.all([scanWaiting(t.database.db, at(181)), scanWaiting(t.database.db, at(181))]);
    s = await state(orderId);
    expect(s.status).toBe('Contact Customer');
    expect(s.mails).toHaveLength(2);
    const { rows } = await t.database.sql.query<{ remark: string }>(
      'select remark from order_remarks where order_id = $1',
      [orderId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.remark).toContain('No answer from the customer');
  });

  it('an answer cancels the rest; an order found late gets only the step that is due', async () => {
    const start = new Date(Date.now() - 10 * MIN);
    const answered = await awaitingSince(start);
    await t.database.sql.query("update orders set process_status = 'New' where order_id = $1", [answered]);
    const late = await awaitingSince(start);
    await scanWaiting(t.database.db, new Date(start.getTime() + 500 * MIN));
    expect((await state(answered)).mails).toHaveLength(0);
    const s = await state(late);
    expect(s.status).toBe('Contact Customer');
    expect(s.mails).toHaveLength(0);
  });

  it('works a backlog off a bounded number of steps per pass, the longest-waiting first', async () => {
    const now = new Date();
    const ago = (minutes: number) => new Date(now.getTime() - minutes * MIN);
    const newest = await awaitingSince(ago(70));
    const oldest = await awaitingSince(ago(90));
    const middle = await awaitingSince(ago(80));
    expect(await scanWaiting(t.database.db, now, { maxSteps: 2 })).toBe(2);
    expect((await state(oldest)).mails).toHaveLength(1);
    expect((await state(middle)).mails).toHaveLength(1);
    expect((await state(newest)).mails).toHaveLength(0);
    // A stopping server ends the pass before the next step.
    expect(await scanWaiting(t.database.db, now, { stopping: () => true })).toBe(0);
    expect(await scanWaiting(t.database.db, now, { maxSteps: 2 })).toBe(1);
    expect((await state(newest)).mails).toHaveLength(1);
  });

  it('the remark says what really happened: an order found late was sent no reminder', async () => {
    const start = new Date(Date.now() - 10 * MIN);
    const late = await awaitingSince(start);
    await scanWaiting(t.database.db, new Date(start.getTime() + 500 * MIN));
    const { rows } = await t.database.sql.query<{ remark: string }>(
      'select remark from order_remarks where order_id = $1',
      [late],
    );
    expect(rows[0]!.remark).toContain('no reminder was sent');
    expect(rows[0]!.remark).not.toContain('two reminders');
  });

  it('preview per step; the switch: Admin and Manager only, audited, off stops every step, on restarts the clock', async () => {
    // The earlier tests' orders have all left Awaiting or been reminded: start from a clean set.
    await t.database.sql.query("update orders set process_status = 'New' where process_status = 'Awaiting'");
    const now = Date.now();
    const old = await awaitingSince(new Date(now - 200 * MIN)); // step 3 due (policy 60/120/180)
    const mid = await awaitingSince(new Date(now - 130 * MIN)); // step 2 due
    const preview = await t.as('Manager', { method: 'GET', url: '/api/admin/waiting-policy/preview' });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({
      enabled: true,
      waiting: 2,
      steps: [
        { step: 1, action: 'reminder', afterMinutes: 60, orders: 0 },
        { step: 2, action: 'second-reminder', afterMinutes: 120, orders: 1 },
        { step: 3, action: 'contact-customer', afterMinutes: 180, orders: 1 },
      ],
    });
    for (const role of ['Team', 'Telecaller'] as const) {
      expect((await t.as(role, { method: 'GET', url: '/api/admin/waiting-policy/preview' })).statusCode).toBe(
        403,
      );
      expect(
        (
          await t.as(role, {
            method: 'PUT',
            url: '/api/admin/waiting-policy/enabled',
            payload: { enabled: false },
          })
        ).statusCode,
      ).toBe(403);
    }
    // Hostile bodies: refused, nothing changes.
    for (const bad of [{ enabled: 'no\u0000' }, { enabled: 1e308 }, { enabled: false, extra: 1 }, {}]) {
      const res = await t.as('Admin', {
        method: 'PUT',
        url: '/api/admin/waiting-policy/enabled',
        payload: bad,
      });
      expect(res.statusCode).toBe(400);
    }
    expect(
      (await t.as('Admin', { method: 'GET', url: '/api/admin/waiting-policy/preview' })).json().data.enabled,
    ).toBe(true);

    const off = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/waiting-policy/enabled',
      payload: { enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().data.enabled).toBe(false);
    expect(await scanWaiting(t.database.db, new Date())).toBe(0);
    expect((await state(old)).status).toBe('Awaiting');
    const { rows: audit } = await t.database.sql.query(
      "select 1 from audit_log where action = 'waiting-policy.switch'",
    );
    expect(audit).toHaveLength(1);

    // Switched on again: orders waiting since before start their clock at that moment.
    const on = await t.as('Manager', {
      method: 'PUT',
      url: '/api/admin/waiting-policy/enabled',
      payload: { enabled: true },
    });
    expect(on.json().data.enabled).toBe(true);
    const since = new Date(on.json().data.enabledSince as string).getTime();
    expect(await scanWaiting(t.database.db, new Date(since + 30 * MIN))).toBe(0);
    const after = (await t.as('Admin', { method: 'GET', url: '/api/admin/waiting-policy/preview' })).json()
      .data;
    expect(after.steps.map((s: { orders: number }) => s.orders)).toEqual([0, 0, 0]);
    expect(await scanWaiting(t.database.db, new Date(since + 61 * MIN))).toBe(2);
    expect((await state(old)).mails).toHaveLength(1);
    expect((await state(mid)).mails).toHaveLength(1);
    // The escalation after one switch-on reminder, and none for the other: the remark counts what was sent.
    await scanWaiting(t.database.db, new Date(since + 181 * MIN));
    const { rows } = await t.database.sql.query<{ remark: string }>(
      'select remark from order_remarks where order_id = $1',
      [old],
    );
    expect(rows[0]!.remark).toContain('after the request and one reminder');
  });

  it('a freshly seeded demo database does not start with a mass escalation', async () => {
    const { openDatabase, migrateDatabase } = await import('../db/client.js');
    const { seedDemo } = await import('../db/seed.js');
    const database = await openDatabase({ memory: true });
    try {
      await migrateDatabase(database);
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edcard-waiting-seed-'));
      await seedDemo(database, { orders: 300, documents: 0, dataDir });
      const { rows } = await database.sql.query<{ n: string }>(
        "select count(*)::text as n from orders where process_status = 'Awaiting'",
      );
      expect(Number(rows[0]!.n)).toBeGreaterThan(0);
      // The first start of the service switches the policy on now.
      await ensureWaitingSwitch(database.db);
      expect(await scanWaiting(database.db, new Date())).toBe(0);
      const { rows: moved } = await database.sql.query<{ n: string }>(
        'select count(*)::text as n from waiting_steps',
      );
      expect(Number(moved[0]!.n)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
