import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARGEBACK_NOT_COMPLETED_BY_UPLOAD } from '../documents/routes.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { addCurrentCard, createOrder } from '../test/factories.js';
import { samplePdf } from '../test/fixtures.js';
import { multipart } from '../test/smtp.js';

// A customer disputing the payment must never be told "your order is complete": every path out of
// ChargeBack into Completed queues no customer mail (src/shared/order-rules.ts completionMailSuppressed).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function mailKinds(orderId: number): Promise<string[]> {
  const { rows } = await t.database.sql.query<{ kind: string }>(
    'select kind from mail_log where order_id = $1 order by id',
    [orderId],
  );
  return rows.map((r) => r.kind);
}

async function statusOf(orderId: number) {
  const { rows } = await t.database.sql.query<{ process_status: string }>(
    'select process_status from orders where order_id = $1',
    [orderId],
  );
  return rows[0]?.process_status;
}

async function inChargeBack(overrides: Record<string, unknown> = {}) {
  const order = await createOrder(t.database, overrides);
  await t.database.sql.query(`update orders set process_status = 'ChargeBack' where order_id = $1`, [
    order.orderId,
  ]);
  return order;
}

/** A current document written directly (an upload would itself queue an approval mail). */
const withCard = (orderId: number) => addCurrentCard(t.database, t.config.DATA_DIR, orderId);

const move = (orderId: number, updatingStatus: string) =>
  t.as('Team', { method: 'PUT', url: '/api/admin/move-order-status', payload: { orderId, updatingStatus } });

describe('moves out of ChargeBack never mail the completion notice', () => {
  it('Move to Completed Orders: the order completes, no mail is queued (from New the notice is queued)', async () => {
    const disputed = await inChargeBack();
    await withCard(disputed.orderId);
    const res = await move(disputed.orderId, 'Completed');
    expect(res.statusCode, res.body).toBe(200);
    expect(await statusOf(disputed.orderId)).toBe('Completed');
    expect(await mailKinds(disputed.orderId)).toEqual([]);
    // The same move from New mails the customer: the rule is about ChargeBack only.
    const fresh = await createOrder(t.database);
    await withCard(fresh.orderId);
    expect((await move(fresh.orderId, 'Completed')).statusCode).toBe(200);
    expect(await mailKinds(fresh.orderId)).toEqual(['notification']);
  });

  it('a macro that completes ("Approved and sent") moves the order without its mail, and says so', async () => {
    const { rows } = await t.database.sql.query<{ id: number }>(
      `select id from macros where name = 'Approved and sent'`,
    );
    const disputed = await inChargeBack();
    await withCard(disputed.orderId);
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: rows[0]!.id, orderIds: [disputed.orderId] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const outcome = res.json().data.orders[0];
    expect(outcome).toMatchObject({ result: 'done', processStatus: 'Completed' });
    expect(outcome.message).toContain('no mail: the order was in ChargeBack');
    expect(await mailKinds(disputed.orderId)).toEqual([]);
    // Control: the same macro on an order in New queues the completion notice.
    const fresh = await createOrder(t.database);
    await withCard(fresh.orderId);
    await t.as('Team', {
      method: 'POST',
      url: '/api/admin/apply-macro',
      payload: { macroId: rows[0]!.id, orderIds: [fresh.orderId] },
    });
    expect(await mailKinds(fresh.orderId)).toEqual(['notification']);
  });

  it('"Upload, mail and complete" is refused (409) and changes nothing', async () => {
    const disputed = await inChargeBack({ email: 'dispute@example.com' });
    const upload = async (complete: string) =>
      t.as('Team', {
        method: 'POST',
        url: '/api/admin/upload-visa-document',
        ...multipart(
          {
            orderId: String(disputed.orderId),
            email: 'dispute@example.com',
            mailServiceProvider: 'AWS',
            complete,
          },
          { name: 'card.pdf', type: 'application/pdf', content: await samplePdf('CARD', 1) },
        ),
      });
    const refused = await upload('true');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CHARGEBACK_NOT_COMPLETED_BY_UPLOAD);
    expect(await statusOf(disputed.orderId)).toBe('ChargeBack');
    expect(await mailKinds(disputed.orderId)).toEqual([]);
    const { rows } = await t.database.sql.query<{ n: string }>(
      'select count(*) n from documents where order_id = $1',
      [disputed.orderId],
    );
    expect(Number(rows[0]!.n)).toBe(0);
    // A hostile field beside a valid body: still a clear 400, nothing written.
    const hostile = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/upload-visa-document',
      ...multipart(
        {
          orderId: String(disputed.orderId),
          email: 'dispute@example.com',
          mailServiceProvider: 'AWS',
          complete: 'tr\u0000ue',
        },
        { name: 'card.pdf', type: 'application/pdf', content: await samplePdf('CARD', 1) },
      ),
    });
    expect(hostile.statusCode).toBe(400);
    expect(await mailKinds(disputed.orderId)).toEqual([]);
  });

  it('moving out of ChargeBack elsewhere keeps its mail (Awaiting Customer asks the customer)', async () => {
    const disputed = await inChargeBack();
    expect((await move(disputed.orderId, 'Awaiting')).statusCode).toBe(200);
    expect(await mailKinds(disputed.orderId)).toEqual(['notification']);
  });
});
