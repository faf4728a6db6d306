import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetails } from '../../shared/contracts/order-detail.js';
import { storeBuffer } from '../documents/storage.js';
import { createOrder } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ APP_MAIL_DOMAIN: 'apps.example' });
});
afterAll(() => t.close());

const count = async (sqlText: string, params: unknown[] = []) =>
  Number((await t.database.sql.query<{ n: string }>(sqlText, params)).rows[0]!.n);

describe('get-orders-details', () => {
  it('answers every order field and each section in time order', async () => {
    const order = await createOrder(t.database, { first_name: 'Ana', last_name: 'Lopez' });
    const id = order.orderId;
    const stored = await storeBuffer(t.config.DATA_DIR, Buffer.from('%PDF-1.4\n%%EOF\n'), 'pdf');
    await t.database.sql.query(
      `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256, mail_service_provider)
       values ($1, $2, 'card.pdf', 'application/pdf', $3, $4, 'AWS')`,
      [id, stored.key, stored.size, stored.sha256],
    );
    await t.database.sql.query(
      `insert into mail_log (order_id, kind, to_email, provider, document_id, is_reminder, status, message_id)
       select $1, 'reminder', 'a@example.com', 'AWS', id, true, 'sent', '<m1@x>' from documents where order_id = $1`,
      [id],
    );
    await t.database.sql.query(
      `insert into download_log (order_id, ip, browser, os, timezone, created_at) values
       ($1, '203.0.113.9', 'Chrome-126', 'Windows', 'America/New_York', now() - interval '1 hour'),
       ($1, '203.0.113.10', 'Safari-17', 'iOS', 'America/New_York', now())`,
      [id],
    );
    const res = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${id}` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe(1);
    const data = orderDetails.parse(body.data);
    expect(data.order_id).toBe(id);
    expect(data.first_name).toBe('Ana');
    expect(data.application_email).toBe(`${id}@apps.example`);
    expect(data.country_of_residence).toBe('USA');
    expect(data.uploadDoc).toHaveLength(1);
    expect(data.uploadDoc[0]!.file1).toBe('card.pdf');
    expect(data.mailHistory[0]).toMatchObject({
      remainder_mail: 1,
      uploadDoc: 'card.pdf',
      mail_service_provider: 'AWS',
    });
    expect(data.downloadHistory.map((d) => d.ip)).toEqual(['203.0.113.9', '203.0.113.10']);
    expect(data.events[0]).toMatchObject({ action: 'created', to_value: 'New' });

    const file = await t.as('Team', { method: 'GET', url: data.uploadDoc[0]!.download_url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain('card.pdf');
    expect(file.body).toContain('%PDF-1.4');
  });

  it('404s for an unknown order and 400s for a bad id; 401 without a token', async () => {
    expect(
      (await t.as('Team', { method: 'GET', url: '/api/admin/get-orders-details/999999999' })).statusCode,
    ).toBe(404);
    expect((await t.as('Team', { method: 'GET', url: '/api/admin/get-orders-details/abc' })).statusCode).toBe(
      400,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/get-orders-details/100001' })).statusCode,
    ).toBe(401);
  });
});

describe('move-order-status', () => {
  it('moves, records the event, refuses the current status, and the counts follow', async () => {
    const order = await createOrder(t.database);
    const id = order.orderId;
    // Completed needs the approved card (decision 296).
    await t.database.sql.query(
      `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256)
       values ($1, 'none', 'card.pdf', 'application/pdf', 1, 'x')`,
      [id],
    );
    const completedBefore = (
      await t.as('Admin', { method: 'GET', url: '/api/admin/get-folder-count' })
    ).json().data?.completedOrdersCount;
    const res = await t.as('Telecaller', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: String(id), updatingStatus: 'Completed' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 1, data: { from: 'New', process_status: 'Completed' } });
    expect(
      await count(
        `select count(*) n from order_events where order_id = $1 and action = 'status' and to_value = 'Completed'`,
        [id],
      ),
    ).toBe(1);
    const after = (await t.as('Admin', { method: 'GET', url: '/api/admin/get-folder-count' })).json().data;
    expect(after.completedOrdersCount).toBe(completedBefore + 1);

    const again = await t.as('Telecaller', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: id, updatingStatus: 'Completed' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().status).toBe(0);
    expect(
      await count(`select count(*) n from order_events where order_id = $1 and action = 'status'`, [id]),
    ).toBe(1);
  });

  it('Move to Completed Refunds sets the refund date and queues the refund mail', async () => {
    const order = await createOrder(t.database, { process_status: 'Refunds' });
    const res = await t.as('Team', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'Refunded' },
    });
    expect(res.statusCode).toBe(200);
    const { rows } = await t.database.sql.query<{ refund_date: Date | null; process_status: string }>(
      'select refund_date, process_status from orders where order_id = $1',
      [order.orderId],
    );
    expect(rows[0]!.process_status).toBe('Refunded');
    expect(rows[0]!.refund_date).not.toBeNull();
    expect(
      await count(
        `select count(*) n from mail_log where order_id = $1 and kind = 'refund' and status = 'queued'`,
        [order.orderId],
      ),
    ).toBe(1);
  });

  const move = (role: Parameters<TestApp['as']>[0], orderId: number, updatingStatus: string) =>
    t.as(role, { method: 'PUT', url: '/api/admin/move-order-status', payload: { orderId, updatingStatus } });
  const statusOf = async (orderId: number) =>
    (
      await t.database.sql.query<{ s: string }>('select process_status s from orders where order_id = $1', [
        orderId,
      ])
    ).rows[0]!.s;

  it('Move to Completed Refunds follows the refund rule: only from Refunds, nothing mailed otherwise', async () => {
    const order = await createOrder(t.database, { process_status: 'Awaiting' });
    const res = await move('Admin', order.orderId, 'Refunded');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'Only orders in Refunds can be marked refunded (the order is in Awaiting Customer).',
    );
    expect(await statusOf(order.orderId)).toBe('Awaiting');
    expect(await count('select count(*) n from mail_log where order_id = $1', [order.orderId])).toBe(0);
  });

  it('Move to Delete follows the delete rule of the queues, by the real folder', async () => {
    const open = await createOrder(t.database, { process_status: 'Awaiting' });
    for (const role of ['Night Staff', 'Team', 'Telecaller'] as const) {
      const res = await move(role, open.orderId, 'Deleted');
      expect(res.statusCode, role).toBe(403);
      expect(res.json().message).toBe('Only an Admin or Manager can delete this order.');
    }
    expect(await statusOf(open.orderId)).toBe('Awaiting');
    const future = await createOrder(t.database, { processing_date: '2099-01-01' });
    expect((await move('Night Staff', future.orderId, 'Deleted')).statusCode).toBe(200);
    expect((await move('Manager', open.orderId, 'Deleted')).statusCode).toBe(200);
    expect(
      await count(`select count(*) n from order_events where order_id = $1 and action = 'status'`, [
        open.orderId,
      ]),
    ).toBe(1);
  });

  it('only Admin and Manager move an order out of Deleted', async () => {
    const order = await createOrder(t.database, { process_status: 'Deleted' });
    for (const role of ['Telecaller', 'Team', 'Night Staff'] as const) {
      const res = await move(role, order.orderId, 'Completed');
      expect(res.statusCode, role).toBe(403);
      expect(res.json().message).toBe('Only an Admin or Manager can take an order out of Deleted.');
    }
    expect(await statusOf(order.orderId)).toBe('Deleted');
    expect((await move('Manager', order.orderId, 'Customer Called')).statusCode).toBe(200);
  });

  it('refuses statuses that are not on the detail screen and unknown orders', async () => {
    const order = await createOrder(t.database);
    const bad = await t.as('Team', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: order.orderId, updatingStatus: 'New' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('updatingStatus');
    const missing = await t.as('Team', {
      method: 'PUT',
      url: '/api/admin/move-order-status',
      payload: { orderId: 999999998, updatingStatus: 'Completed' },
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('add-new-remark', () => {
  it('stores the remark as the signed-in user with Y/N flags and US Eastern date/time', async () => {
    const order = await createOrder(t.database);
    const res = await t.as('Night Staff', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: {
        orderId: order.orderId,
        remark: 'Called, no answer',
        remarkerName: 'Somebody Else',
        whatsapp: 'Y',
      },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Remark has been added successfully');
    expect(body.data.remark).toMatchObject({
      remark_name: 'Demo Night Staff',
      whatsapp: 'Y',
      telephone: 'N',
      status_refund: 'N',
      chargeback: 'N',
    });
    expect(body.data.remark.us_date).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    expect(body.data.process_status).toBe('New');
    const detail = (
      await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${order.orderId}` })
    ).json();
    expect(detail.data.remarks).toHaveLength(1);
    expect(detail.data.remarks[0].remark_name).toBe('Demo Night Staff');
  });

  it('the Refund flag moves to Refunds, the Chargeback flag to ChargeBack, each with its event', async () => {
    const a = await createOrder(t.database);
    const b = await createOrder(t.database);
    const r1 = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId: a.orderId, remark: 'Customer wants a refund', statusRefund: 'Y' },
    });
    expect(r1.json().data.process_status).toBe('Refunds');
    const r2 = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId: b.orderId, remark: 'Bank dispute', chargeBack: 'Y' },
    });
    expect(r2.json().data.process_status).toBe('ChargeBack');
    expect(r1.json().message).toBe('Remark has been added successfully and the order moved to Refunds.');
    expect(r2.json().message).toBe('Remark has been added successfully and the order moved to ChargeBack.');
    const { rows } = await t.database.sql.query<{ order_id: number; to_value: string }>(
      `select order_id, to_value from order_events where action = 'status' and order_id in ($1, $2) order by order_id`,
      [a.orderId, b.orderId],
    );
    expect(rows.map((r) => r.to_value)).toEqual(['Refunds', 'ChargeBack']);
  });

  it('a flag that would take a deleted order out of Deleted follows the rules: refused, nothing saved', async () => {
    const order = await createOrder(t.database, { process_status: 'Deleted' });
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId: order.orderId, remark: 'Refund please', statusRefund: 'Y' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Only an Admin or Manager can take an order out of Deleted.');
    expect(await count('select count(*) n from order_remarks where order_id = $1', [order.orderId])).toBe(0);
    expect(
      await count(`select count(*) n from order_events where order_id = $1 and action <> 'created'`, [
        order.orderId,
      ]),
    ).toBe(0);
    // Without a flag the remark is only a note, and a deleted order can still get one.
    const note = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId: order.orderId, remark: 'Customer called about it' },
    });
    expect(note.statusCode).toBe(200);
    expect(note.json().data.process_status).toBe('Deleted');
  });

  it('requires the remark (product message) and changes nothing', async () => {
    const order = await createOrder(t.database);
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/add-new-remark',
      payload: { orderId: order.orderId, remark: '   ', statusRefund: 'Y' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter your remark');
    expect(await count('select count(*) n from order_remarks where order_id = $1', [order.orderId])).toBe(0);
    expect(
      await count(`select count(*) n from orders where order_id = $1 and process_status = 'New'`, [
        order.orderId,
      ]),
    ).toBe(1);
  });
});

describe('save-transaction-details', () => {
  it('saves both fields with an event; product messages when missing', async () => {
    // A manual gateway: staff type its reference (a provider payment's is the intake's, see flows/).
    const order = await createOrder(t.database, { merchant_name: 'PayPal', transaction_id: null });
    const missing = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/save-transaction-details',
      payload: { orderId: order.orderId, transactionId: '', merchantName: 'Stripe' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please enter your Transaction Id');
    const noMerchant = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/save-transaction-details',
      payload: { orderId: order.orderId, transactionId: 'ch_1' },
    });
    expect(noMerchant.json().message).toBe('Please enter your Merchant Name');
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/save-transaction-details',
      payload: { orderId: order.orderId, transactionId: 'ch_3Nx', merchantName: 'Adyen' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe(1);
    const { rows } = await t.database.sql.query<{ transaction_id: string; merchant_name: string }>(
      'select transaction_id, merchant_name from orders where order_id = $1',
      [order.orderId],
    );
    expect(rows[0]).toEqual({ transaction_id: 'ch_3Nx', merchant_name: 'Adyen' });
    expect(
      await count(`select count(*) n from order_events where order_id = $1 and action = 'transaction'`, [
        order.orderId,
      ]),
    ).toBe(1);
  });
});

describe('email content', () => {
  it('renders the approval notice with the order data, escaped, and a wa.me link', async () => {
    const order = await createOrder(t.database, {
      first_name: '<b>Eve</b>',
      phone_code: '1',
      telephone_number: '2125550100',
    });
    const res = await t.as('Team', { method: 'GET', url: `/api/admin/get-email-content/${order.orderId}` });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(data.html).not.toContain('<b>Eve</b>');
    expect(data.text).toContain(`Order ID: ${order.orderId}`);
    expect(data.text).toContain(`Username: ${order.email}`);
    expect(data.text).toContain(`/track-order/${order.orderId}`);
    expect(data.whatsappUrl).toMatch(/^https:\/\/wa\.me\/12125550100\?text=/);
  });

  it('the WhatsApp text follows the status: Contact Customer asks to get in touch, Completed sends the card', async () => {
    const order = await createOrder(t.database, { phone_code: '1', telephone_number: '2125550100' });
    const content = async () =>
      (await t.as('Team', { method: 'GET', url: `/api/admin/get-email-content/${order.orderId}` })).json()
        .data;
    await t.database.sql.query(`update orders set process_status = 'Contact Customer' where order_id = $1`, [
      order.orderId,
    ]);
    const contact = await content();
    expect(contact.whatsappTemplate).toBe('contact-customer');
    expect(contact.whatsappText).toContain('We need to speak with you');
    expect(contact.whatsappText).not.toContain('Username:');
    // The e-mail content stays the approval notice (View Email Content).
    expect(contact.text).toContain(`Username: ${order.email}`);
    expect(decodeURIComponent(contact.whatsappUrl.split('?text=')[1])).toBe(contact.whatsappText);
    await t.database.sql.query(`update orders set process_status = 'Completed' where order_id = $1`, [
      order.orderId,
    ]);
    const completed = await content();
    expect(completed.whatsappTemplate).toBe('approval-notice');
    expect(completed.whatsappText).toContain(`Username: ${order.email}`);
  });
});

describe('access', () => {
  it('every order-detail route needs a signed-in staff member and is open to every role', async () => {
    const order = await createOrder(t.database);
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/admin/get-orders-details/${order.orderId}`],
      ['GET', `/api/admin/get-email-content/${order.orderId}`],
      ['PUT', '/api/admin/move-order-status', { orderId: order.orderId, updatingStatus: 'Awaiting' }],
      ['POST', '/api/admin/add-new-remark', { orderId: order.orderId, remark: 'x' }],
      [
        'POST',
        '/api/admin/save-transaction-details',
        { orderId: order.orderId, transactionId: 't', merchantName: 'm' },
      ],
      ['POST', '/api/admin/defence-pack-details', { orderId: order.orderId }],
      ['POST', '/api/admin/send-invoice', { orderId: String(order.orderId) }],
    ];
    for (const [method, url, payload] of routes) {
      const anon = await t.app.inject({
        method: method as 'GET',
        url,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(anon.statusCode, `${method} ${url}`).toBe(401);
      expect(anon.json().status).toBe(401);
    }
    for (const role of ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'] as const) {
      const res = await t.as(role, { method: 'GET', url: `/api/admin/get-orders-details/${order.orderId}` });
      expect(res.statusCode, role).toBe(200);
    }
    expect(await count(`select count(*) n from order_remarks where order_id = $1`, [order.orderId])).toBe(0);
  });
});
