import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceToday } from '../../shared/dates.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { stripeDispute, stripeEvent, stripeRefundedCharge, stripeSignature } from '../test/stripe-events.js';

const SECRET = 'whsec_test_secret_for_the_webhook_tests';
let t: TestApp;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ STRIPE_WEBHOOK_SECRET: SECRET });
});
afterAll(() => t.close());

const uid = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++seq).toString(36)}`;

const signature = (payload: string, opts: { secret?: string; timestamp?: number } = {}) =>
  stripeSignature(payload, opts.secret ?? SECRET, opts.timestamp);
const event = (type: string, object: object, id = uid('evt')) => stripeEvent(type, object, { id });
const dispute = (charge: string, over: Record<string, unknown> = {}) =>
  stripeDispute(charge, { id: uid('dp') }, over);

async function post(
  body: object | string,
  opts: { secret?: string; timestamp?: number; header?: string | null } = {},
) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const header = opts.header === undefined ? signature(payload, opts) : opts.header;
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: {
      'content-type': 'application/json',
      ...(header === null ? {} : { 'stripe-signature': header }),
    },
    payload,
  });
}

const q = async <T>(text: string, params: unknown[] = []) =>
  (await t.database.sql.query<T & Record<string, unknown>>(text, params)).rows;

async function paidOrder(over: Record<string, unknown> = {}) {
  const charge = uid('ch');
  const order = await createOrder(t.database, { transaction_id: charge, merchant_name: 'Stripe', ...over });
  return { order, charge };
}

const remarks = (orderId: number) =>
  q<{ remark: string; author_id: number | null }>(
    'select remark, author_id from order_remarks where order_id = $1 order by id',
    [orderId],
  );
const status = async (orderId: number) =>
  (
    await q<{ process_status: string; due_at: Date | null; assigned_to: number | null }>(
      'select process_status, due_at, assigned_to from orders where order_id = $1',
      [orderId],
    )
  )[0]!;
const webhookCount = async () =>
  Number((await q<{ n: string }>('select count(*)::text as n from payment_webhook_events'))[0]!.n);

describe('POST /api/webhooks/stripe', () => {
  it('answers 404 while no signing secret is set', async () => {
    const other = await createTestApp({}, { sameDatabaseAs: t });
    try {
      const payload = JSON.stringify(event('charge.dispute.created', dispute('ch_x')));
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature(payload) },
        payload,
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('charge.dispute.created moves the order to ChargeBack as the system, with the deadline as due time', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const d = dispute(charge);
    const res = await post(event('charge.dispute.created', d));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ received: true, duplicate: false });
    const now = await status(order.orderId);
    expect(now.process_status).toBe('ChargeBack');
    expect(now.due_at?.getTime()).toBe(d.evidence_details.due_by * 1000);
    const [remark] = await remarks(order.orderId);
    expect(remark!.author_id).toBeNull();
    expect(remark!.remark).toMatch(
      /Chargeback opened at Stripe: reason fraudulent, 59\.00 USD; evidence due by/,
    );
    const events = await q<{ action: string; actor_id: number | null; to_value: string }>(
      "select action, actor_id, to_value from order_events where order_id = $1 and action in ('status', 'payment') order by id",
      [order.orderId],
    );
    expect(events).toEqual([
      { action: 'status', actor_id: null, to_value: 'ChargeBack' },
      { action: 'payment', actor_id: null, to_value: `dispute ${d.id} needs_response` },
    ]);
  });

  it('the Chargeback list shows the amount, the reason and the response deadline', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed', amount: 72.5 });
    const d = dispute(charge, { amount: 7250, reason: 'product_not_received' });
    await post(event('charge.dispute.created', d));
    const res = await t.as('Team', {
      method: 'GET',
      url: '/api/admin/get-orders-list/chargeBack?page=1&limit=500',
    });
    const row = (res.json().data as Record<string, unknown>[]).find((r) => r.order_id === order.orderId);
    expect(row).toMatchObject({
      amount: '72.50',
      currency: 'USD',
      dispute_reason: 'product_not_received',
      due_at: new Date(d.evidence_details.due_by * 1000).toISOString(),
    });
  });

  it('keeps the holder of an order it moves (they see it live)', async () => {
    const [team] = await q<{ id: number }>(
      "select id from staff_users where role = 'Team' order by id limit 1",
    );
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    await t.database.sql.query('update orders set assigned_to = $1 where order_id = $2', [
      team!.id,
      order.orderId,
    ]);
    expect((await post(event('charge.dispute.created', dispute(charge)))).statusCode).toBe(200);
    expect(await status(order.orderId)).toMatchObject({
      process_status: 'ChargeBack',
      assigned_to: team!.id,
    });
  });

  it('matches the payment intent as well as the charge', async () => {
    const pi = uid('pi');
    const order = await createOrder(t.database, { transaction_id: pi, process_status: 'Completed' });
    expect(
      (await post(event('charge.dispute.created', dispute(uid('ch'), { payment_intent: pi })))).statusCode,
    ).toBe(200);
    expect((await status(order.orderId)).process_status).toBe('ChargeBack');
  });

  it('refuses forged, stale and unsigned events with 400 and changes nothing', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const body = event('charge.dispute.created', dispute(charge));
    const before = await webhookCount();
    const forged = await post(body, { secret: 'whsec_someone_else' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe('The signature does not match this event or is too old');
    const stale = await post(body, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(stale.statusCode).toBe(400);
    expect((await post(body, { header: null })).statusCode).toBe(400);
    expect((await post(body, { header: 't=1,v1=00' })).statusCode).toBe(400);
    // A body changed after signing.
    const payload = JSON.stringify(body);
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature(payload) },
      payload: payload.replace('5900', '1'),
    });
    expect(tampered.statusCode).toBe(400);
    expect(await webhookCount()).toBe(before);
    expect((await status(order.orderId)).process_status).toBe('Completed');
    expect(await remarks(order.orderId)).toEqual([]);
  });

  it('checks every handled event type: forged and stale refused, valid applied once, unknown payment kept', async () => {
    const objects: Record<string, (charge: string) => object> = {
      'charge.dispute.created': (charge) => dispute(charge),
      'charge.dispute.updated': (charge) => dispute(charge, { status: 'under_review' }),
      'charge.dispute.closed': (charge) => dispute(charge, { status: 'won' }),
      'charge.refunded': (charge) => stripeRefundedCharge(charge),
      'radar.early_fraud_warning.created': (charge) => ({
        id: uid('issfr'),
        object: 'radar.early_fraud_warning',
        charge,
        fraud_type: 'misc',
        payment_intent: null,
      }),
    };
    for (const [type, make] of Object.entries(objects)) {
      const { order, charge } = await paidOrder({ process_status: 'Completed' });
      const body = event(type, make(charge));
      const before = await webhookCount();
      expect((await post(body, { secret: 'whsec_forged' })).statusCode, type).toBe(400);
      expect((await post(body, { timestamp: Math.floor(Date.now() / 1000) - 301 })).statusCode, type).toBe(
        400,
      );
      expect(await webhookCount(), type).toBe(before);
      expect(await remarks(order.orderId), type).toEqual([]);
      const first = await post(body);
      expect(first.statusCode, type).toBe(200);
      expect(first.json().duplicate, type).toBe(false);
      const after = await remarks(order.orderId);
      expect(after.length, type).toBeGreaterThan(0);
      expect((await post(body)).json().duplicate, type).toBe(true);
      expect(await remarks(order.orderId), type).toHaveLength(after.length);
      const stranger = await post(event(type, make(uid('ch'))));
      expect(stranger.statusCode, type).toBe(200);
      expect(stranger.json().outcome, type).toBe('unknown payment: no order has this transaction id');
    }
  });

  it('applies a replayed event once', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const body = event('charge.dispute.created', dispute(charge));
    expect((await post(body)).json().duplicate).toBe(false);
    const again = await post(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ duplicate: true });
    expect(await remarks(order.orderId)).toHaveLength(1);
  });

  it('records an event for an unknown payment and answers 2xx', async () => {
    const body = event('charge.dispute.created', dispute(uid('ch')));
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    const [row] = await q<{ outcome: string; order_id: string | null }>(
      'select outcome, order_id from payment_webhook_events where event_id = $1',
      [body.id],
    );
    expect(row).toEqual({ outcome: 'unknown payment: no order has this transaction id', order_id: null });
  });

  it('records an event of a type it does not handle and answers 2xx', async () => {
    const body = event('customer.created', { id: 'cus_1', object: 'customer' });
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('ignored: not an event the product handles');
  });

  it('refuses a signed event whose object is not what Stripe documents, changing nothing', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const before = await webhookCount();
    for (const over of [
      { amount: 'lots' },
      { reason: 'fraud\u0000ulent' },
      { charge: 'ch_\u202e' },
      { currency: 'dollars' },
    ]) {
      const res = await post(event('charge.dispute.created', dispute(charge, over)));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^The event cannot be read: data\.object\./);
    }
    expect((await post('{"id": "evt_1", "type": ')).statusCode).toBe(400);
    expect((await post({ id: 'evt\u0000', type: 'charge.refunded', data: { object: {} } })).statusCode).toBe(
      400,
    );
    expect(await webhookCount()).toBe(before);
    expect((await status(order.orderId)).process_status).toBe('Completed');
  });

  it('charge.dispute.updated and closed add a remark and an event; a lost dispute records the loss', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const d = dispute(charge);
    await post(event('charge.dispute.created', d));
    const review = await post(event('charge.dispute.updated', { ...d, status: 'under_review' }));
    expect(review.statusCode).toBe(200);
    // Waiting on the bank: no due time of ours.
    expect((await status(order.orderId)).due_at).toBeNull();
    await post(event('charge.dispute.closed', { ...d, status: 'lost' }));
    const texts = (await remarks(order.orderId)).map((r) => r.remark);
    expect(texts[1]).toBe('Stripe dispute status: under review.');
    expect(texts[2]).toBe('Dispute lost: the bank took back 59.00 USD.');
    const [row] = await q<{ status: string; closed: boolean; amount: string; currency: string }>(
      'select status, closed_at is not null as closed, amount::text, currency from payment_disputes where dispute_id = $1',
      [d.id],
    );
    expect(row).toEqual({ status: 'lost', closed: true, amount: '5900', currency: 'USD' });
    const payments = await q<{ from_value: string; to_value: string }>(
      "select from_value, to_value from order_events where order_id = $1 and action = 'payment' order by id",
      [order.orderId],
    );
    expect(payments.at(-1)).toEqual({
      from_value: `dispute ${d.id} under_review`,
      to_value: `dispute ${d.id} lost`,
    });
    const day = serviceToday();
    const insights = await t.as('Manager', {
      method: 'GET',
      url: `/api/admin/insights?from=${day}&to=${day}`,
    });
    const figures = insights.json().data.payments;
    expect(figures.disputes.lost).toBeGreaterThanOrEqual(1);
    expect(figures.disputes.opened).toBeGreaterThanOrEqual(figures.disputes.lost);
    expect(figures.disputes.amounts).toContainEqual(
      expect.objectContaining({ currency: 'USD', lost: expect.stringMatching(/^\d+\.\d{2} USD$/) }),
    );
  });

  it('a dispute’s new deadline becomes the order’s due time; the same deadline again leaves the order as it is', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const d = dispute(charge);
    await post(event('charge.dispute.created', d));
    const version = async () =>
      (await q<{ xmin: string }>('select xmin::text from orders where order_id = $1', [order.orderId]))[0]!
        .xmin;
    const later = d.evidence_details.due_by + 3 * 86_400;
    const moved = { ...d, evidence_details: { ...d.evidence_details, due_by: later } };
    expect((await post(event('charge.dispute.updated', moved))).statusCode).toBe(200);
    expect((await status(order.orderId)).due_at?.getTime()).toBe(later * 1000);
    // Stripe sends the dispute again unchanged: the order row is not written again.
    const before = await version();
    expect((await post(event('charge.dispute.updated', moved))).json()).toMatchObject({
      outcome: 'dispute unchanged',
    });
    expect(await version()).toBe(before);
    expect((await status(order.orderId)).due_at?.getTime()).toBe(later * 1000);
  });

  it('a won dispute says so on the order', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const d = dispute(charge);
    await post(event('charge.dispute.created', d));
    await post(event('charge.dispute.closed', { ...d, status: 'won' }));
    expect((await remarks(order.orderId)).at(-1)!.remark).toBe(
      'Dispute won: the bank decided for us and the payment of 59.00 USD stays with us.',
    );
  });

  it('charge.refunded outside the product moves the order as Refunded it, mailing once', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const body = event(
      'charge.refunded',
      stripeRefundedCharge(charge, {
        refunds: { object: 'list', data: [{ id: 're_outside1', object: 'refund' }] },
      }),
    );
    expect((await post(body)).statusCode).toBe(200);
    expect(await post(body).then((r) => r.json().duplicate)).toBe(true);
    const now = await q<{ process_status: string; refunded: boolean }>(
      'select process_status, refund_date is not null as refunded from orders where order_id = $1',
      [order.orderId],
    );
    expect(now[0]).toEqual({ process_status: 'Refunded', refunded: true });
    const moves = await q<{ from_value: string; to_value: string }>(
      "select from_value, to_value from order_events where order_id = $1 and action = 'status' order by id",
      [order.orderId],
    );
    expect(moves).toEqual([
      { from_value: 'Completed', to_value: 'Refunds' },
      { from_value: 'Refunds', to_value: 'Refunded' },
    ]);
    const mails = await q<{ kind: string }>('select kind from mail_log where order_id = $1', [order.orderId]);
    expect(mails).toEqual([{ kind: 'refund' }]);
    expect((await remarks(order.orderId)).at(-1)!.remark).toBe(
      'Refunded at Stripe outside the product: 59.00 USD. The order is now in Completed Refunds.',
    );
    // The same refund reported again by a later event (another id) is not counted twice.
    const later = await post({ ...body, id: uid('evt') });
    expect(later.json().outcome).toBe('refund already recorded');
  });

  it('a partial refund outside the product is recorded without moving the order', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    await post(
      event('charge.refunded', {
        id: charge,
        object: 'charge',
        amount: 5900,
        amount_refunded: 1000,
        refunded: false,
        currency: 'usd',
        payment_intent: null,
      }),
    );
    expect((await status(order.orderId)).process_status).toBe('Completed');
    expect((await remarks(order.orderId))[0]!.remark).toBe(
      'Partly refunded at Stripe outside the product: 10.00 USD (10.00 USD of 59.00 USD in all).',
    );
  });

  it('radar.early_fraud_warning.created without a connected provider puts the order in risk review (Needs attention)', async () => {
    const { order, charge } = await paidOrder({ process_status: 'New' });
    const res = await post(
      event('radar.early_fraud_warning.created', {
        id: uid('issfr'),
        object: 'radar.early_fraud_warning',
        actionable: true,
        charge,
        fraud_type: 'made_with_stolen_card',
        payment_intent: null,
      }),
    );
    expect(res.statusCode).toBe(200);
    // No Stripe key here: nothing can be refunded through the provider, so a Manager decides.
    expect((await remarks(order.orderId))[0]!.remark).toBe(
      "Early fraud warning: Stripe is not connected (no API key is set): refund and answer chargebacks in Stripe's dashboard. Refund now, or keep the payment with a reason (Risk review).",
    );
    expect((await status(order.orderId)).process_status).toBe('New');
    const [flags] = await q<{ check_flags: string[]; codes: string[]; needs_attention: boolean }>(
      `select check_flags, array(select jsonb_array_elements(checks)->>'code') as codes, needs_attention
         from orders where order_id = $1`,
      [order.orderId],
    );
    expect(flags!.check_flags).toContain('fraud_warning');
    expect(flags!.codes).toContain('fraud_warning');
    expect(flags!.needs_attention).toBe(true);
  });
});

describe('provider events and closed orders', () => {
  const mails = (orderId: number) =>
    q<{ kind: string }>('select kind from mail_log where order_id = $1', [orderId]);
  const disputeRow = (id: string) =>
    q<{ status: string; due_by: Date | null; closed_at: Date | null }>(
      'select status, due_by, closed_at from payment_disputes where dispute_id = $1',
      [id],
    ).then((r) => r[0]!);

  it('provider events never reopen: charge.refunded on a Deleted order is recorded with a remark, no move, no mail', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Deleted' });
    const res = await post(event('charge.refunded', stripeRefundedCharge(charge)));
    expect(res.statusCode).toBe(200);
    expect((await status(order.orderId)).process_status).toBe('Deleted');
    expect(await mails(order.orderId)).toEqual([]);
    expect((await remarks(order.orderId)).at(-1)!.remark).toBe(
      'Refunded at Stripe outside the product: 59.00 USD. The order stays in Deleted: leaving Deleted is for an Admin or Manager.',
    );
    const [row] = await q<{ n: string }>(
      "select count(*)::text as n from payment_refunds where order_id = $1 and status = 'succeeded'",
      [order.orderId],
    );
    expect(row!.n).toBe('1');
  });

  it('provider events never reopen: a dispute on a Deleted or a Completed Refunds order is recorded, the order stays', async () => {
    for (const [from, shown, why] of [
      ['Deleted', 'Deleted', 'leaving Deleted is for an Admin or Manager'],
      ['Refunded', 'Completed Refunds', 'the order is in Completed Refunds'],
    ] as const) {
      const { order, charge } = await paidOrder({ process_status: from });
      const d = dispute(charge);
      const res = await post(event('charge.dispute.created', d));
      expect(res.statusCode).toBe(200);
      expect((await status(order.orderId)).process_status, from).toBe(from);
      expect(await mails(order.orderId)).toEqual([]);
      expect((await remarks(order.orderId)).at(-1)!.remark).toMatch(
        new RegExp(`The order stays in ${shown}: ${why}\\.$`),
      );
      expect((await disputeRow(d.id)).status).toBe('needs_response');
    }
  });

  it('dispute events in order: closed (won) then the older created changes nothing; won alone does not move to ChargeBack', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const now = Math.floor(Date.now() / 1000);
    const d = dispute(charge, { created: now - 3600 });
    const closed = { ...d, status: 'won' };
    expect(
      (await post(stripeEvent('charge.dispute.closed', closed, { id: uid('evt'), created: now }))).statusCode,
    ).toBe(200);
    expect((await status(order.orderId)).process_status).toBe('Completed');
    const won = await disputeRow(d.id);
    expect(won.status).toBe('won');
    expect(won.closed_at).not.toBeNull();
    const late = await post(
      stripeEvent('charge.dispute.created', d, { id: uid('evt'), created: now - 3600 }),
    );
    expect(late.json().outcome).toBe('dispute already closed: event not applied');
    expect(await disputeRow(d.id)).toEqual(won);
    expect((await status(order.orderId)).process_status).toBe('Completed');
    expect(await mails(order.orderId)).toEqual([]);
  });

  it('dispute events in order: an older update or a lower status does not overwrite a later one', async () => {
    const { order, charge } = await paidOrder({ process_status: 'Completed' });
    const now = Math.floor(Date.now() / 1000);
    const d = dispute(charge);
    await post(stripeEvent('charge.dispute.created', d, { id: uid('evt'), created: now - 100 }));
    expect((await status(order.orderId)).process_status).toBe('ChargeBack');
    await post(
      stripeEvent(
        'charge.dispute.updated',
        { ...d, status: 'under_review' },
        { id: uid('evt'), created: now },
      ),
    );
    const older = await post(
      stripeEvent(
        'charge.dispute.updated',
        { ...d, status: 'needs_response' },
        { id: uid('evt'), created: now - 50 },
      ),
    );
    expect(older.json().outcome).toBe('older dispute event: not applied');
    const lower = await post(
      stripeEvent(
        'charge.dispute.updated',
        { ...d, status: 'needs_response' },
        { id: uid('evt'), created: now + 5 },
      ),
    );
    expect(lower.json().outcome).toBe('older dispute event: not applied');
    expect((await disputeRow(d.id)).status).toBe('under_review');
  });
});
