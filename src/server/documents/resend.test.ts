import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { multipart } from '../test/smtp.js';
import { RESEND_LIMITS } from '../mail/resend-limits.js';

/**
 * Resending the approved card: limited per order and per staff member (429 with a clear message), and
 * a recipient other than the order's e-mail is shown in the mail history.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function orderWithDocument(): Promise<{ orderId: number; email: string }> {
  const order = await createOrder(t.database);
  const body = multipart(
    { orderId: String(order.orderId), email: order.email, mailServiceProvider: 'AWS' },
    { name: 'approved.pdf', type: 'application/pdf', content: await samplePdf('CARD') },
  );
  const res = await t.as('Admin', { method: 'POST', url: '/api/admin/upload-visa-document', ...body });
  expect(res.statusCode, res.body).toBe(200);
  return { orderId: order.orderId, email: order.email };
}

const resend = (role: DemoRole, orderId: number, email: string) =>
  t.as(role, {
    method: 'POST',
    url: '/api/admin/resend-mail',
    payload: { orderId, email, mailServiceProvider: 'AWS', confirmOtherAddress: true },
  });

async function resendRows(orderId: number): Promise<number> {
  const { rows } = await t.database.sql.query<{ n: number }>(
    `select count(*)::int as n from mail_log where kind = 'resend' and order_id = $1`,
    [orderId],
  );
  return rows[0]!.n;
}

describe('resend-mail limits', () => {
  it('50 resends of one card to an outside address at once: only the per-order limit goes out', async () => {
    const { orderId } = await orderWithDocument();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => resend('Admin', orderId, 'attacker@outside.example')),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(RESEND_LIMITS.perOrder.max);
    expect(codes.filter((c) => c === 429)).toHaveLength(50 - RESEND_LIMITS.perOrder.max);
    const refused = answers.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toEqual({
      status: 0,
      message: expect.stringMatching(
        /^The card of this order has been mailed again 5 times in the last hour\. Please try again in (60|59) minutes\.$/,
      ),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await resendRows(orderId)).toBe(RESEND_LIMITS.perOrder.max);
  });

  it('per staff member: after the limit across orders, refused; another member may still resend', async () => {
    const perOrder = RESEND_LIMITS.perOrder.max;
    const orders = await Promise.all(
      Array.from({ length: Math.ceil(RESEND_LIMITS.perStaff.max / perOrder) + 1 }, orderWithDocument),
    );
    let sent = 0;
    for (const o of orders) {
      for (let i = 0; i < perOrder && sent < RESEND_LIMITS.perStaff.max; i++, sent++) {
        expect((await resend('Manager', o.orderId, o.email)).statusCode).toBe(200);
      }
    }
    const last = orders.at(-1)!;
    const refused = await resend('Manager', last.orderId, last.email);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(
      /^You have mailed cards again 30 times in the last hour\. Please try again in \d+ minutes?\.$/,
    );
    expect(await resendRows(last.orderId)).toBe(0);
    expect((await resend('Night Staff', last.orderId, last.email)).statusCode).toBe(200);
  });

  it('a hostile e-mail is refused before counting and writes nothing', async () => {
    const { orderId } = await orderWithDocument();
    for (const email of ['a\u0000b@example.com', 'x'.repeat(300), 'not-an-email']) {
      const res = await resend('Team', orderId, email);
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toMatch(/\bat \w+ \(/);
    }
    expect(await resendRows(orderId)).toBe(0);
  });
});

describe('mail history', () => {
  it('marks a recipient other than the order e-mail and links the mailed document', async () => {
    const { orderId, email } = await orderWithDocument();
    expect((await resend('Team', orderId, email.toUpperCase())).statusCode).toBe(200);
    // Another address: only an Admin or Manager, confirmed (decision 297).
    expect((await resend('Team', orderId, 'someone.else@outside.example')).statusCode).toBe(403);
    expect((await resend('Admin', orderId, 'someone.else@outside.example')).statusCode).toBe(200);
    const detail = (
      await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${orderId}` })
    ).json().data;
    const history = detail.mailHistory.map((m: Record<string, unknown>) => [
      m.kind,
      m.to_email,
      m.other_recipient,
    ]);
    expect(history).toEqual([
      ['approval', email, false],
      ['resend', email.toUpperCase(), false],
      ['resend', 'someone.else@outside.example', true],
    ]);
    const mailed = detail.mailHistory[2];
    expect(mailed.document_id).toBe(detail.uploadDoc[0].id);
    const file = await t.as('Team', { method: 'GET', url: mailed.download_url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
