import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentsDir } from '../documents/storage.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { multipart, pdfText } from '../test/smtp.js';
import { retentionJob, runRetention } from '../flows/retention-job.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

async function orderRow(orderId: number) {
  const { rows } = await t.database.sql.query<Record<string, unknown>>(
    'select first_name, last_name, email, passport_number, date_of_birth, telephone_number, address, amount, process_status, transaction_id from orders where order_id = $1',
    [orderId],
  );
  return rows[0]!;
}
async function counts(orderId: number) {
  const { rows } = await t.database.sql.query<{ erase: number; audit: number }>(
    `select (select count(*)::int from order_events where order_id = $1 and action = 'erase') erase,
            (select count(*)::int from audit_log where action = 'order.erase' and target = 'order:' || $1) audit`,
    [orderId],
  );
  return rows[0]!;
}
const erase = (orderId: number | string, payload: object, role: 'Admin' | 'Manager' = 'Admin') =>
  t.as(role, { method: 'POST', url: `/api/admin/orders/${orderId}/erase`, payload });

describe('POST /api/admin/orders/{id}/erase', () => {
  it('erases passport, contact, address and the payment reference, reduces names to initials, deletes the document; money and history stay', async () => {
    const order = await createOrder(t.database, {
      first_name: 'Maria',
      last_name: 'Lopez',
      process_status: 'Completed',
    });
    const up = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      ...multipart(
        { orderId: String(order.orderId), email: order.email, mailServiceProvider: 'AWS' },
        { name: 'Maria Lopez card.pdf', type: 'application/pdf', content: await samplePdf('ERASE-ME', 1) },
      ),
    });
    expect(up.statusCode, up.body).toBe(200);
    const { rows: docs } = await t.database.sql.query<{ storage_key: string }>(
      'select storage_key from documents where order_id = $1',
      [order.orderId],
    );
    const file = path.join(documentsDir(t.config.DATA_DIR), docs[0]!.storage_key);
    expect(existsSync(file)).toBe(true);

    const res = await erase(order.orderId, { reason: 'Customer asked for erasure by e-mail' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ orderId: order.orderId, documents: 1 });
    expect(await orderRow(order.orderId)).toEqual({
      first_name: 'M.',
      last_name: 'L.',
      email: `erased-${order.orderId}@erased.invalid`,
      passport_number: null,
      date_of_birth: null,
      telephone_number: null,
      address: null,
      amount: '59.00',
      process_status: 'Completed',
      transaction_id: null,
    });
    expect(existsSync(file)).toBe(false);
    const { rows: after } = await t.database.sql.query<{ original_name: string }>(
      'select original_name from documents where order_id = $1',
      [order.orderId],
    );
    expect(after[0]!.original_name).toBe('erased.pdf');
    expect(await counts(order.orderId)).toEqual({ erase: 1, audit: 1 });

    // The Defence Pack with the full history says what was erased and when.
    const pack = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/get-defence-pack-pdf',
      payload: { orderId: order.orderId, defencePackType: 2 },
    });
    expect(pack.statusCode).toBe(200);
    const text = (await pdfText(pack.rawPayload)).text.replace(/\s+/g, ' ');
    expect(text).toContain('Personal data erased');
    expect(text).not.toContain('Maria');
    expect(text.match(new RegExp(`.{100}${order.email}.{60}`, 'g'))).toBeNull();

    const again = await erase(order.orderId, { reason: 'Customer asked again' });
    expect(again.statusCode).toBe(409);
    expect(await counts(order.orderId)).toEqual({ erase: 1, audit: 1 });
  });

  it('refuses another role, a hostile reason, an unknown order and an order under chargeback, changing nothing', async () => {
    const order = await createOrder(t.database, { first_name: 'Kept' });
    const chargeback = await createOrder(t.database, {
      first_name: 'Disputed',
      process_status: 'ChargeBack',
    });
    const tries = [
      [await erase(order.orderId, { reason: 'Customer request' }, 'Manager'), 403],
      [await erase(order.orderId, { reason: 'bad\u0000reason' }), 400],
      [await erase(order.orderId, { reason: 'x'.repeat(10_000) }), 400],
      [await erase(order.orderId, { reason: 'ok reason', extra: 1 }), 400],
      [await erase(order.orderId, {}), 400],
      [await erase('12abc', { reason: 'Customer request' }), 400],
      [await erase(999_999_999, { reason: 'Customer request' }), 404],
      [await erase(chargeback.orderId, { reason: 'Customer request' }), 409],
    ] as const;
    for (const [res, code] of tries) {
      expect(res.statusCode, res.body).toBe(code);
      expect(res.json().status).toBe(0);
      expect(res.body).not.toMatch(/at .*\.ts/);
    }
    expect((await orderRow(order.orderId)).first_name).toBe('Kept');
    expect((await orderRow(chargeback.orderId)).first_name).toBe('Disputed');
    expect(await counts(order.orderId)).toEqual({ erase: 0, audit: 0 });
  });
});

describe('the retention policy', () => {
  it('an Admin sets the period (audited); others and out-of-range values are refused', async () => {
    expect(
      (await t.as('Admin', { method: 'GET', url: '/api/admin/retention-settings' })).json().data,
    ).toEqual({
      days: 365,
    });
    const put = (payload: object, role: 'Admin' | 'Manager' = 'Admin') =>
      t.as(role, { method: 'PUT', url: '/api/admin/retention-settings', payload });
    expect((await put({ days: 400 }, 'Manager')).statusCode).toBe(403);
    expect((await put({ days: 5 })).statusCode).toBe(400);
    expect((await put({ days: 1e9 })).statusCode).toBe(400);
    expect((await put({ days: '400\u0000' })).statusCode).toBe(400);
    expect((await put({ days: 400 })).statusCode).toBe(200);
    expect(
      (await t.as('Admin', { method: 'GET', url: '/api/admin/retention-settings' })).json().data,
    ).toEqual({
      days: 400,
    });
    const { rows } = await t.database.sql.query(
      `select 1 from audit_log where action = 'settings.update' and target = 'settings:retention'`,
    );
    expect(rows).toHaveLength(1);
    expect((await put({ days: 365 })).statusCode).toBe(200);
  });

  it('erases orders whose travel ended more than N days ago, keeps chargebacks until closed', async () => {
    const old = await createOrder(t.database, {
      first_name: 'Old',
      arrival_date: daysAgo(380),
      departure_date: daysAgo(370),
    });
    const recent = await createOrder(t.database, {
      first_name: 'Recent',
      arrival_date: daysAgo(100),
      departure_date: daysAgo(90),
    });
    const disputed = await createOrder(t.database, {
      first_name: 'Disputed',
      arrival_date: daysAgo(500),
      departure_date: daysAgo(490),
      process_status: 'ChargeBack',
    });
    const first = await runRetention(t.database, t.config);
    expect(first).toBeGreaterThanOrEqual(1);
    expect((await orderRow(old.orderId)).first_name).toBe('O.');
    expect((await orderRow(recent.orderId)).first_name).toBe('Recent');
    expect((await orderRow(disputed.orderId)).first_name).toBe('Disputed');
    expect(await counts(old.orderId)).toEqual({ erase: 1, audit: 1 });

    // The chargeback is closed: the next run erases it; a run with nothing due erases nothing.
    await t.database.sql.query(`update orders set process_status = 'Completed' where order_id = $1`, [
      disputed.orderId,
    ]);
    expect(await runRetention(t.database, t.config)).toBe(1);
    expect((await orderRow(disputed.orderId)).first_name).toBe('D.');
    expect(await runRetention(t.database, t.config)).toBe(0);
  });

  it('runs daily through pg-boss', async () => {
    const stop = await retentionJob(t.app);
    try {
      const { rows } = await t.database.sql.query<{ cron: string; timezone: string }>(
        `select cron, timezone from pgboss.schedule where name = 'retention-erase'`,
      );
      expect(rows).toEqual([{ cron: '30 3 * * *', timezone: 'America/New_York' }]);
    } finally {
      await stop();
    }
  });
});
