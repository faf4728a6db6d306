import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orderDetails } from '../../shared/contracts/order-detail.js';
import { usDateTime } from '../../shared/dates.js';
import { loadOrder } from '../orders/repository.js';
import { saveDueTimePolicy, setDueClockForTests } from '../due-time/policy.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import {
  loadDocuments,
  loadDownloads,
  loadEvents,
  loadMailHistory,
  loadOrderDetail,
  loadRemarks,
} from './queries.js';

/**
 * The detail answer is one statement (loadOrderDetail). These tests hold it to the section loaders it
 * replaced (still used by the Defence Packs): every part of the answer — order fields, uploadDoc,
 * mailHistory, downloadHistory, remarks, events — must be the same, value for value.
 */

let t: TestApp;
const DOMAIN = 'apps.example';
beforeAll(async () => {
  t = await createTestApp({ APP_MAIL_DOMAIN: DOMAIN });
});
afterAll(() => t.close());
afterEach(() => setDueClockForTests(null));

const q = (text: string, params: unknown[] = []) => t.database.sql.query(text, params);

/** The answer as the section loaders assembled it before one statement did. */
async function bySections(orderId: number) {
  const db = t.database.db;
  const order = await loadOrder(db, orderId, DOMAIN);
  if (!order) return null;
  return {
    ...order,
    uploadDoc: await loadDocuments(db, orderId),
    mailHistory: await loadMailHistory(db, orderId),
    downloadHistory: await loadDownloads(db, orderId),
    remarks: await loadRemarks(db, orderId),
    events: await loadEvents(db, orderId),
    // The "Customer replied" mark (docs/product.md, "Customers answer back").
    customer_replied: (
      await q('select customer_replied_at is not null as replied from orders where order_id = $1', [orderId])
    ).rows.map((r) => (r as { replied: boolean }).replied)[0],
    // The "Customer edited" mark (docs/product.md, "Customers help themselves").
    customer_edited: (
      await q('select customer_edited_at is not null as edited from orders where order_id = $1', [orderId])
    ).rows.map((r) => (r as { edited: boolean }).edited)[0],
    // The failing-address mark of the order's address (the header's badge), its bounce reason.
    failing_address: (
      await q(
        'select f.reason from orders o left join failing_addresses f on f.email = lower(btrim(o.email)) where o.order_id = $1',
        [orderId],
      )
    ).rows.map((r) => (r as { reason: string | null }).reason)[0],
  };
}

async function staffIds(): Promise<[number, number]> {
  const { rows } = await q('select id from staff_users order by id limit 2');
  return [Number((rows[0] as { id: number }).id), Number((rows[1] as { id: number }).id)];
}

/** An order with every section filled, timestamps with microseconds and a daylight-saving edge. */
async function fullOrder(): Promise<number> {
  const [a, b] = await staffIds();
  const order = await createOrder(t.database, { first_name: 'Zoë', last_name: 'O"Brien\\n' });
  const id = order.orderId;
  await q(
    `update orders set assigned_to = $2, refund_date = '2026-03-08 06:59:59.999999+00',
       transaction_id = 'tx "1"', merchant_name = e'line\\nbreak', amount = 1234.5 where order_id = $1`,
    [id, a],
  );
  await q(
    `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256,
       mail_service_provider, uploaded_by, created_at, withdrawn_at, withdrawn_by, withdraw_reason) values
     ($1, 'k1', 'first.pdf', 'application/pdf', 10, 's1', 'AWS', $2, '2026-01-01 10:00:00.123456+00', null, null, null),
     ($1, 'k2', 'second ü.pdf', 'application/pdf', 20, 's2', 'Sendgrid', null, '2026-01-02 10:00:00.000999+00', null, null, null),
     ($1, 'k3', 'third.pdf', 'application/pdf', 30, 's3', null, $2, '2026-01-03 10:00:00+00', '2026-01-04 11:12:13.456789+00', $2, 'wrong file')`,
    [id, a],
  );
  const { rows: docs } = await q('select id from documents where order_id = $1 order by id', [id]);
  const docId = Number((docs[0] as { id: number }).id);
  await q(
    `insert into mail_log (order_id, kind, to_email, provider, document_id, is_reminder, status, attempts,
       message_id, error, requested_by, created_at, updated_at) values
     ($1, 'approval', ' Customer@Example.com ', 'AWS', $2, false, 'sent', 1, '<m1@x>', null, $3,
      '2026-01-01 10:05:00.5+00', '2026-01-01 10:06:07.891011+00'),
     ($1, 'reminder', 'someone.else@example.com', 'Sendgrid', $2, true, 'failed', 3, null, 'bounced', null,
      '2026-01-05 10:05:00+00', '2026-01-05 10:06:00+00'),
     ($1, 'invoice', 'customer@example.com', 'AWS', null, false, 'queued', 0, null, null, null,
      '2026-01-06 10:05:00+00', '2026-01-06 10:06:00+00')`,
    [id, docId, b],
  );
  await q(`update orders set email = 'customer@example.com' where order_id = $1`, [id]);
  await q(
    `insert into download_log (order_id, document_id, file_name, ip, user_agent, device, device_type, browser,
       os, location, timezone, created_at) values
     ($1, $2, 'first.pdf', '203.0.113.9', 'ua', 'iPhone', 'mobile', 'Safari-17', 'iOS', 'Oranjestad', 'America/Aruba', '2026-01-07 00:00:00.000001+00'),
     ($1, null, null, '2001:db8::1', null, null, null, null, null, null, null, '2026-01-07 00:00:00.000002+00')`,
    [id, docId],
  );
  // Remarks around midnight, noon and the spring-forward and fall-back hours of the service time zone.
  await q(
    `insert into order_remarks (order_id, author_id, remark, whatsapp, telephone, status_refund, voided,
       chargeback, report_error, created_at) values
     ($1, $2, 'first <b>"quoted"</b>', 'Y', 'N', 'N', 'Y', 'N', 'Y', '2026-03-08 06:59:59.999999+00'),
     ($1, null, e'tab\\tand\\nline', 'N', 'Y', 'Y', 'N', 'Y', 'N', '2026-03-08 07:00:00+00'),
     ($1, $2, 'noon', 'N', 'N', 'N', 'N', 'N', 'N', '2026-07-15 16:00:00+00'),
     ($1, $2, 'midnight', 'N', 'N', 'N', 'N', 'N', 'N', '2026-01-15 05:00:00.5+00'),
     ($1, $2, 'fall back', 'N', 'N', 'N', 'N', 'N', 'N', '2026-11-01 05:30:00+00'),
     ($1, $2, 'fall back again', 'N', 'N', 'N', 'N', 'N', 'N', '2026-11-01 06:30:00+00')`,
    [id, b],
  );
  await q(
    `insert into order_events (order_id, actor_id, action, from_value, to_value, created_at) values
     ($1, $2::int, 'assign', null, $2::text, '2026-01-08 00:00:00+00'),
     ($1, null, 'assign', $2::text, $3::text, '2026-01-08 00:00:00+00'),
     ($1, $3::int, 'assign', $3::text, '999999', '2026-01-09 00:00:00+00'),
     ($1, $2::int, 'status', 'New', $2::text, '2026-01-10 00:00:00.000500+00')`,
    [id, a, b],
  );
  return id;
}

describe('the detail read (one statement)', () => {
  it('answers exactly what the section loaders answer, every part filled', async () => {
    const id = await fullOrder();
    const one = await loadOrderDetail(t.database, id, DOMAIN);
    const old = await bySections(id);
    expect(one).toEqual(old);
    const data = orderDetails.parse(one);
    expect(data.uploadDoc.map((d) => [d.file1, d.current])).toEqual([
      ['first.pdf', false],
      ['second ü.pdf', true],
      ['third.pdf', false],
    ]);
    expect(data.mailHistory.map((m) => [m.kind, m.other_recipient, m.download_url !== null])).toEqual([
      ['approval', false, true],
      ['reminder', true, true],
      ['invoice', false, false],
    ]);
    expect(data.downloadHistory).toHaveLength(2);
    expect(data.remarks).toHaveLength(6);
    expect(data.events.length).toBeGreaterThanOrEqual(4);
    expect(data.assign_to).not.toBeNull();
    expect(data.refund_date).toBe('2026-03-08T06:59:59.999Z');
    expect(data.amount).toBe('1234.50');
  });

  it('writes remark times as the service time zone does, across daylight-saving edges', async () => {
    const id = await fullOrder();
    const one = (await loadOrderDetail(t.database, id, DOMAIN))!;
    for (const r of one.remarks) {
      expect({ us_date: r.us_date, us_time: r.us_time }).toEqual(usDateTime(r.create_ts));
    }
    expect(one.remarks.map((r) => `${r.us_date} ${r.us_time}`)).toEqual([
      '01-15-2026 12:00:00 AM',
      '03-08-2026 1:59:59 AM',
      '03-08-2026 3:00:00 AM',
      '07-15-2026 12:00:00 PM',
      '11-01-2026 1:30:00 AM',
      '11-01-2026 1:30:00 AM',
    ]);
  });

  it('answers an order with no related rows, and null for an unknown order', async () => {
    const order = await createOrder(t.database);
    await q('delete from order_events where order_id = $1', [order.orderId]);
    const one = await loadOrderDetail(t.database, order.orderId, DOMAIN);
    expect(one).toEqual(await bySections(order.orderId));
    expect(one).toMatchObject({
      uploadDoc: [],
      mailHistory: [],
      downloadHistory: [],
      remarks: [],
      events: [],
    });
    expect(await loadOrderDetail(t.database, 999_999_999, DOMAIN)).toBeNull();
  });

  it('is planned once per session: a prepared statement on both engines', async () => {
    const order = await createOrder(t.database);
    const first = await loadOrderDetail(t.database, order.orderId, DOMAIN);
    expect(await loadOrderDetail(t.database, order.orderId, DOMAIN)).toEqual(first);
    if (t.database.kind === 'pglite') {
      // One session: the statement PGlite prepared is visible to the next query.
      const { rows } = await q(`select name from pg_prepared_statements where name = 'order_detail_read'`);
      expect(rows).toHaveLength(1);
    }
    // An id beyond the integers refuses itself before any SQL.
    expect(await loadOrderDetail(t.database, 2 ** 60, DOMAIN)).toBeNull();
  });

  it('reads the due state at the service clock with the stored margin', async () => {
    const order = await createOrder(t.database, { process_status: 'New' });
    await saveDueTimePolicy(
      t.database.db,
      {
        modes: {
          Standard: { fromPaymentHours: 72, beforeArrivalHours: 24 },
          Priority: { fromPaymentHours: 24, beforeArrivalHours: 24 },
        },
        atRiskMarginHours: 5,
      },
      (await staffIds())[0],
    );
    const { rows } = await q('select due_at from orders where order_id = $1', [order.orderId]);
    const due = new Date((rows[0] as { due_at: Date | string }).due_at).getTime();
    expect(Number.isFinite(due)).toBe(true);
    const stateAt = async (now: number) => {
      setDueClockForTests(() => new Date(now));
      const one = await loadOrderDetail(t.database, order.orderId, DOMAIN);
      expect(one).toEqual(await bySections(order.orderId));
      return one!.due_state;
    };
    const hour = 3_600_000;
    expect(await stateAt(due - 6 * hour)).toBe('on_track');
    expect(await stateAt(due - 4 * hour)).toBe('at_risk');
    expect(await stateAt(due)).toBe('breached');
  });

  it('the route answers the same detail', async () => {
    const id = await fullOrder();
    const res = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 1,
      message: 'Order details',
      data: {
        ...JSON.parse(JSON.stringify(orderDetails.parse(await bySections(id)))),
        // The order's checks, duplicates and dispute ride along (src/server/checks, payments): their own
        // tests cover them.
        checks: expect.any(Array),
        duplicates: expect.any(Array),
        dispute: null,
      },
    });
  });
});
