import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASED_FIELDS } from '../../shared/contracts/retention.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { pdfText } from '../test/smtp.js';
import { runRetention } from '../flows/retention-job.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const UTC_STAMP = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/;

async function packText(orderId: number, type: 1 | 2): Promise<string> {
  const res = await t.as('Night Staff', {
    method: 'POST',
    url: '/api/admin/get-defence-pack-pdf',
    payload: { orderId, defencePackType: type },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (await pdfText(res.rawPayload)).text.replace(/\s+/g, ' ');
}

async function erasedAt(orderId: number): Promise<string> {
  const { rows } = await t.database.sql.query<{ at: Date }>(
    `select created_at at from order_events where order_id = $1 and action = 'erase'`,
    [orderId],
  );
  return rows[0]!.at.toISOString().replace('T', ' ').slice(0, 19);
}

describe('Defence Packs of erased orders', () => {
  it('say what was erased, when, by whom and why, in both packs; erased fields read "erased"', async () => {
    const order = await createOrder(t.database, {
      first_name: 'Marguerite',
      last_name: 'Vandermeer',
      passport_number: 'NX9988776',
      transaction_id: 'pi_ERASED1',
      merchant_name: 'Stripe',
    });
    const erase = await t.as('Admin', {
      method: 'POST',
      url: `/api/admin/orders/${order.orderId}/erase`,
      payload: { reason: 'Customer asked for erasure by e-mail' },
    });
    expect(erase.statusCode, erase.body).toBe(200);
    const when = await erasedAt(order.orderId);
    const { rows } = await t.database.sql.query<{ name: string }>(
      `select s.name from order_events e join staff_users s on s.id = e.actor_id
        where e.order_id = $1 and e.action = 'erase'`,
      [order.orderId],
    );
    const admin = rows[0]!.name;

    for (const type of [1, 2] as const) {
      const text = await packText(order.orderId, type);
      expect(text).toContain(`The personal data of this order was erased on ${when} UTC by ${admin}.`);
      for (const field of ERASED_FIELDS) expect(text).toContain(field);
      expect(text).toContain('Reason Customer asked for erasure by e-mail');
      expect(text).toContain(`Passport number erased ${when} UTC`);
      expect(text).toContain(`Email erased ${when} UTC`);
      // Money facts and initials stay; the erased values (the payment's reference too) are nowhere.
      expect(text).toContain(`Transaction ID erased ${when} UTC`);
      expect(text).toContain(`Merchant erased ${when} UTC`);
      expect(text).not.toContain('pi_ERASED1');
      expect(text).toContain('M. V.');
      expect(text).not.toContain('Marguerite');
      expect(text).not.toContain('NX9988776');
      expect(text).not.toContain(order.email);
    }

    const json = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/defence-pack-details',
      payload: { orderId: order.orderId, defencePackType: 1 },
    });
    expect(json.statusCode).toBe(200);
    expect(json.json().data.erasure).toEqual({
      erased_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      by: admin,
      erased: ERASED_FIELDS.join(', '),
      reason: 'Customer asked for erasure by e-mail',
    });
  });

  it('name the retention policy when the daily run erased the order', async () => {
    const old = await createOrder(t.database, {
      first_name: 'Ancient',
      arrival_date: daysAgo(420),
      departure_date: daysAgo(410),
    });
    await runRetention(t.database, t.config);
    const when = await erasedAt(old.orderId);
    const text = await packText(old.orderId, 1);
    expect(text).toContain(`was erased on ${when} UTC by the retention policy.`);
    expect(text).toMatch(/Reason retention policy: travel ended more than \d+ days ago/);
  });

  it('say nothing of an erasure for an order that was never erased', async () => {
    const order = await createOrder(t.database, { first_name: 'Intact' });
    const text = await packText(order.orderId, 2);
    expect(text).not.toContain('Personal data erased');
    expect(text).not.toMatch(new RegExp(`erased ${UTC_STAMP.source}`));
    expect(text).toContain('Intact');
    const json = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/defence-pack-details',
      payload: { orderId: order.orderId },
    });
    expect(json.json().data.erasure).toBeNull();
  });
});
