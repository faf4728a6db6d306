import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { mrzCheckDigit, mrzOf, passportImage, SPECIMEN } from '../test/passport-image.js';
import { multipart } from '../test/smtp.js';
import { stopMrzReader } from './mrz.js';

/**
 * The passport scan through the API: a staff upload of a passport photo is read (OCR of the MRZ) and
 * compared with the order; a difference is the check passport_scan_mismatch with the scan's values, and
 * one click takes a value into the order as a correction. An unreadable zone is information only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await stopMrzReader();
  await t.close();
});

const upload = (role: DemoRole, orderId: number, png: Buffer, field = 'passport') =>
  t.as(role, {
    method: 'POST',
    url: `/api/admin/orders/${orderId}/passport-scan`,
    ...multipart({}, { name: 'passport.png', type: 'image/png', content: png, field }),
  });
const checksOf = async (orderId: number) =>
  (
    await t.database.sql.query<{ checks: { code: string; severity: string }[]; v: number }>(
      'select checks, version as v from orders where order_id = $1',
      [orderId],
    )
  ).rows[0]!;

describe('passport scan', () => {
  it('the check digit helper agrees with the ICAO specimen', () => {
    expect(mrzCheckDigit('L898902C3')).toBe('6');
    expect(mrzCheckDigit('740812')).toBe('2');
  });

  it('a passport number that differs: passport_scan_mismatch with the scan value; one click takes it', async () => {
    const o = await createOrder(t.database, {
      last_name: 'Mustermann',
      first_name: 'Erika',
      passport_number: 'C01X00T47',
      nationality: 'Germany',
      date_of_birth: '1964-08-12',
      passport_expiration: '2031-10-31',
    });
    const mrz = mrzOf({
      surname: 'MUSTERMANN',
      given: 'ERIKA',
      number: 'C01X00T48',
      country: 'D<<',
      birth: '640812',
      sex: 'F',
      expiry: '311031',
    });
    const res = await upload('Team', o.orderId, passportImage(mrz, { noise: true }));
    expect(res.statusCode, res.body).toBe(200);
    const scan = res.json().data.passportScan;
    expect(scan.status).toBe('read');
    expect(scan.fields.filter((f: { differs: boolean }) => f.differs)).toEqual([
      { field: 'passport_number', scan: 'C01X00T48', order: 'C01X00T47', differs: true },
    ]);
    const before = await checksOf(o.orderId);
    expect(before.checks).toContainEqual(
      expect.objectContaining({ code: 'passport_scan_mismatch', severity: 'warn' }),
    );

    // Hostile takes: a field the scan does not have, another role, a stale version.
    const take = (role: DemoRole, payload: Record<string, unknown>) =>
      t.as(role, { method: 'POST', url: `/api/admin/orders/${o.orderId}/passport-scan/take`, payload });
    expect((await take('Team', { field: 'email', expectedVersion: before.v })).statusCode).toBe(400);
    expect(
      (await take('Telecaller', { field: 'passport_number', expectedVersion: before.v })).statusCode,
    ).toBe(403);
    expect((await take('Team', { field: 'passport_number', expectedVersion: before.v + 5 })).statusCode).toBe(
      409,
    );

    const taken = await take('Team', { field: 'passport_number', expectedVersion: before.v });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().data.passportScan.fields.some((f: { differs: boolean }) => f.differs)).toBe(false);
    const after = await t.database.sql.query<{ passport_number: string }>(
      'select passport_number from orders where order_id = $1',
      [o.orderId],
    );
    expect(after.rows[0]!.passport_number).toBe('C01X00T48');
    expect((await checksOf(o.orderId)).checks.map((c) => c.code)).not.toContain('passport_scan_mismatch');
    const events = await t.database.sql.query(
      `select from_value, to_value from order_events where order_id = $1 and action = 'correction'`,
      [o.orderId],
    );
    expect(events.rows.length).toBe(1);
  });

  it('a photo without an MRZ is passport_scan_unreadable (information), never a block', async () => {
    const o = await createOrder(t.database);
    const res = await upload('Team', o.orderId, passportImage(null));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.passportScan).toMatchObject({ status: 'unreadable', fields: [] });
    expect((await checksOf(o.orderId)).checks).toContainEqual(
      expect.objectContaining({ code: 'passport_scan_unreadable', severity: 'info' }),
    );
    const got = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${o.orderId}/passport-scan` });
    expect(got.json().data.passportScan.status).toBe('unreadable');
  });

  it('ten staff uploading a passport at once: every scan waits its turn and is read', async () => {
    const orders = await Promise.all(
      Array.from({ length: 10 }, () =>
        createOrder(t.database, {
          last_name: 'Eriksson',
          first_name: 'Anna Maria',
          passport_number: 'L898902C3',
          date_of_birth: '1974-08-12',
        }),
      ),
    );
    const png = passportImage(SPECIMEN);
    const answers = await Promise.all(orders.map((o) => upload('Team', o.orderId, png)));
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.passportScan, res.body).toMatchObject({ status: 'read', reason: null });
    }
    const scans = await t.database.sql.query<{ status: string }>(
      'select status from passport_scans where order_id = any($1::bigint[])',
      [orders.map((o) => o.orderId)],
    );
    expect(scans.rows.map((r) => r.status)).toEqual(Array(10).fill('read'));
  }, 180_000);

  it('hostile uploads: another field name, a text file, an unknown order', async () => {
    const o = await createOrder(t.database);
    expect((await upload('Team', o.orderId, passportImage(SPECIMEN), 'other')).statusCode).toBe(400);
    const text = await t.as('Team', {
      method: 'POST',
      url: `/api/admin/orders/${o.orderId}/passport-scan`,
      ...multipart(
        {},
        { name: 'passport.png', type: 'image/png', content: Buffer.from('hello'), field: 'passport' },
      ),
    });
    expect(text.statusCode).toBe(415);
    expect((await upload('Team', 999_999_999, passportImage(SPECIMEN))).statusCode).toBe(404);
    expect(
      (await t.as('Team', { method: 'GET', url: `/api/admin/orders/${o.orderId}/passport-scan` })).json()
        .data,
    ).toEqual({ passportScan: null });
  });
});
