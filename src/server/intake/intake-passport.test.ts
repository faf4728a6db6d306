import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopMrzReader } from '../passport-scan/mrz.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { buildOrder } from '../test/factories.js';
import { mrzOf, passportImage } from '../test/passport-image.js';

/**
 * The passport picture an order brings at intake is read after the order is stored (off the request):
 * a difference from the typed data is the check passport_scan_mismatch, as for every scan. A hostile
 * picture is refused with the whole order (400, nothing stored).
 */
const KEY = 'intake-key-for-passport-tests-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ INTAKE_API_KEY: KEY });
});
afterAll(async () => {
  await stopMrzReader();
  await t.close();
});

const TRAVELLER = {
  last_name: 'Mustermann',
  first_name: 'Erika',
  passport_number: 'C01X00T47',
  nationality: 'Germany',
  date_of_birth: '1964-08-12',
  passport_expiration: '2031-10-31',
};
const MRZ = mrzOf({
  surname: 'MUSTERMANN',
  given: 'ERIKA',
  number: 'C01X00T48',
  country: 'D<<',
  birth: '640812',
  sex: 'F',
  expiry: '311031',
});

const intake = (body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/intake/orders',
    headers: { 'content-type': 'application/json', 'x-intake-key': KEY },
    payload: JSON.stringify(body),
  });
const ordersOf = async (reference: string) =>
  Number(
    (
      await t.database.sql.query<{ n: string }>(
        'select count(*)::text as n from orders where client_reference = $1',
        [reference],
      )
    ).rows[0]!.n,
  );

describe('the passport picture at intake', () => {
  it('is read after the order is stored: a different passport number raises passport_scan_mismatch', async () => {
    const png = passportImage(MRZ);
    const res = await intake(
      buildOrder({
        ...TRAVELLER,
        client_reference: 'scan-at-intake-1',
        passport_scan: {
          file_name: 'passport.png',
          mime_type: 'image/png',
          content_base64: png.toString('base64'),
        },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const orderId = res.json().data.order_id as number;
    await expect
      .poll(
        async () =>
          (
            await t.database.sql.query<{ source: string; status: string }>(
              'select source, status from passport_scans where order_id = $1',
              [orderId],
            )
          ).rows,
        { timeout: 60_000, interval: 250 },
      )
      .toEqual([{ source: 'intake', status: 'read' }]);
    const order = await t.database.sql.query<{ check_flags: string[] }>(
      'select check_flags from orders where order_id = $1',
      [orderId],
    );
    expect(order.rows[0]!.check_flags).toContain('passport_scan_mismatch');
    const scan = await t.as('Team', { method: 'GET', url: `/api/admin/orders/${orderId}/passport-scan` });
    expect(scan.statusCode).toBe(200);
    expect(scan.json().data.passportScan.fields.filter((f: { differs: boolean }) => f.differs)).toEqual([
      { field: 'passport_number', scan: 'C01X00T48', order: 'C01X00T47', differs: true },
    ]);
  }, 90_000);

  it('an order without a picture is not scanned', async () => {
    const res = await intake(buildOrder({ ...TRAVELLER, client_reference: 'scan-at-intake-2' }));
    expect(res.statusCode).toBe(200);
    const rows = await t.database.sql.query('select id from passport_scans where order_id = $1', [
      res.json().data.order_id,
    ]);
    expect(rows.rows).toEqual([]);
  });

  it('a whole valid order with one hostile picture field is refused (400) and nothing is stored', async () => {
    const png = passportImage(MRZ).toString('base64');
    const good = { file_name: 'passport.png', mime_type: 'image/png', content_base64: png };
    const cases: [string, unknown][] = [
      ['a control character in the name', { ...good, file_name: 'pass\u0000port.png' }],
      ['a type the scan does not read', { ...good, mime_type: 'image/gif' }],
      [
        'bytes that are not the type',
        { ...good, content_base64: Buffer.from('GIF89a-not-png').toString('base64') },
      ],
      ['not base64', { ...good, content_base64: 'not base64 at all!' }],
      ['more than 5 MB', { ...good, content_base64: 'A'.repeat(7_200_000) }],
      ['an unknown field', { ...good, order_id: 1 }],
      ['a number', 12],
    ];
    for (const [name, hostile] of cases) {
      const reference = `scan-hostile-${name.replace(/\W+/g, '-')}`;
      const res = await intake(
        buildOrder({ ...TRAVELLER, client_reference: reference, passport_scan: hostile }),
      );
      expect(res.statusCode, name).toBe(400);
      expect(await ordersOf(reference), name).toBe(0);
    }
  });
});
