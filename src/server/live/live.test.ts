import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { readSse, type SseEvent } from '../test/sse.js';

/**
 * The live queues over real HTTP: an event stream opened on a listening server, changes made through
 * the API, the events read back as the browser would read them.
 */

interface Stream {
  events: SseEvent[];
  status: number;
  contentType: string;
  close(): void;
}

function openStream(port: number, token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const req = http.get(
      { host: '127.0.0.1', port, path: '/api/admin/events', headers: { authorization: token } },
      (res) => {
        readSse(res, (e) => events.push(e));
        res.on('error', () => {});
        resolve({
          events,
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
  });
}

/** Retries an assertion until it holds (events arrive asynchronously). */
async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return (t.app.server.address() as AddressInfo).port;
}

/** Order events of one order, without the one the test factory's insert publishes. */
const orderEvents = (s: Stream, orderId: number) =>
  s.events.filter((e) => e.event === 'order' && e.data.orderId === orderId && e.data.action !== 'created');

let t: TestApp;
let port: number;
const staff = new Map<DemoRole, { id: number; name: string }>();

beforeAll(async () => {
  t = await createTestApp();
  port = await listen(t);
  const { rows } = await t.database.sql.query<{ id: number; name: string; role: DemoRole }>(
    'select id, name, role from staff_users where deleted_at is null order by id',
  );
  for (const r of rows) if (!staff.has(r.role)) staff.set(r.role, { id: r.id, name: r.name });
});
afterAll(() => t.close());

const put = (role: DemoRole, url: string, payload: object) => t.as(role, { method: 'PUT', url, payload });
const post = (role: DemoRole, url: string, payload: object) => t.as(role, { method: 'POST', url, payload });
const versionOf = async (orderId: number) =>
  (
    await t.database.sql.query<{ version: number }>('select version from orders where order_id = $1', [
      orderId,
    ])
  ).rows[0]!.version;

describe('the event stream', () => {
  it('needs a staff token in the Authorization header, and answers text/event-stream', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/events' });
    expect(anonymous.statusCode).toBe(401);
    const tokenInUrl = await t.app.inject({
      method: 'GET',
      url: `/api/admin/events?token=${await t.tokenFor('Team')}`,
    });
    expect(tokenInUrl.statusCode).toBe(401);
    const s = await openStream(port, await t.tokenFor('Team'));
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    // The user's counts arrive at once, the same object get-folder-count answers.
    await eventually(() => expect(s.events.some((e) => e.event === 'counts')).toBe(true));
    const counts = (await t.as('Team', { method: 'GET', url: '/api/admin/get-folder-count' })).json().data;
    expect(s.events.find((e) => e.event === 'counts')!.data).toEqual(counts);
    s.close();
  });

  it('sends an order event for each kind of change, with the new version, who and what', async () => {
    const s = await openStream(port, await t.tokenFor('Telecaller'));
    const order = await createOrder(t.database, { merchant_name: 'PayPal' });
    const id = order.orderId;
    const start = await versionOf(id);

    expect(
      (await put('Team', '/api/admin/assign-order-status', { orderId: [id], assignto: 'me' })).statusCode,
    ).toBe(200);
    expect(
      (await post('Team', '/api/admin/add-new-remark', { orderId: id, remark: 'Called the traveller' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await put('Team', '/api/admin/move-order-status', { orderId: id, updatingStatus: 'AwaitingGovt' }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await post('Team', '/api/admin/save-transaction-details', {
          orderId: id,
          transactionId: 'PAYID-42',
          merchantName: 'PayPal',
        })
      ).statusCode,
    ).toBe(200);

    await eventually(() =>
      expect(orderEvents(s, id).map((e) => e.data.action)).toEqual([
        'assign',
        'remark',
        'status',
        'transaction',
      ]),
    );
    const [assign, , move] = orderEvents(s, id).map((e) => e.data);
    expect(assign).toEqual({
      orderId: id,
      processStatus: 'New',
      assignTo: staff.get('Team')!.name,
      version: start + 1,
      by: staff.get('Team')!.name,
      action: 'assign',
    });
    expect(move).toMatchObject({ processStatus: 'AwaitingGovt', version: start + 3 });
    expect(await versionOf(id)).toBe(start + 4);
    // Counts follow on their own (coalesced).
    await eventually(() => {
      const last = s.events.filter((e) => e.event === 'counts').at(-1)!.data;
      expect(last.awaitingGovtCount).toBeGreaterThan(0);
    });
    s.close();
  });

  it('tells the streams of those viewing an order who is on it, and when they leave; nobody else', async () => {
    const a = await openStream(port, await t.tokenFor('Admin'));
    const elsewhere = await openStream(port, await t.tokenFor('Telecaller'));
    const order = await createOrder(t.database);
    const id = order.orderId;
    expect((await put('Admin', '/api/admin/presence', { orderId: id, editing: false })).statusCode).toBe(200);
    const res = await put('Team', '/api/admin/presence', { orderId: id, editing: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.viewers).toContainEqual({
      staffId: staff.get('Team')!.id,
      name: staff.get('Team')!.name,
      editing: true,
    });
    const presenceOf = (s: Stream) => s.events.filter((e) => e.event === 'presence' && e.data.orderId === id);
    await eventually(() => expect(presenceOf(a).at(-1)?.data.viewers).toHaveLength(2));
    // A heartbeat that changes nothing tells nobody.
    const before = presenceOf(a).length;
    await put('Team', '/api/admin/presence', { orderId: id, editing: true });
    const gone = await t.as('Team', { method: 'DELETE', url: `/api/admin/presence/${id}` });
    expect(gone.json().data.viewers).toHaveLength(1);
    await eventually(() => {
      expect(
        presenceOf(a)
          .slice(before)
          .map((e) => (e.data.viewers as unknown[]).length),
      ).toEqual([1]);
    });
    // A burst of changes on the order reaches its viewer as a few events, the last one the latest state.
    const burstStart = presenceOf(a).length;
    for (let i = 0; i < 20; i++)
      await put('Team', '/api/admin/presence', { orderId: id, editing: i % 2 === 0 });
    await eventually(() => {
      const last = presenceOf(a).at(-1)!.data.viewers as { staffId: number; editing: boolean }[];
      expect(last.find((v) => v.staffId === staff.get('Team')!.id)?.editing).toBe(false);
    });
    expect(presenceOf(a).length - burstStart).toBeLessThanOrEqual(10);
    // A stream whose user is not on the order hears none of it.
    expect(presenceOf(elsewhere)).toEqual([]);
    a.close();
    elsewhere.close();
  });

  it('refuses hostile presence and claim bodies with a clear 4xx', async () => {
    const order = await createOrder(t.database);
    for (const body of [
      { orderId: `${order.orderId}\u0000`, editing: true },
      { orderId: order.orderId, editing: 'yes' },
      { orderId: 999_999_997, editing: false },
      { orderId: Number.MAX_SAFE_INTEGER + 9, editing: false },
      { orderId: order.orderId, editing: false, staffId: 1 },
    ]) {
      const res = await put('Team', '/api/admin/presence', body);
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    for (const body of [
      { folderName: 'newOrder\u0000' },
      { folderName: 'nope' },
      {},
      { folderName: 'newOrder', x: 1 },
    ]) {
      const res = await post('Team', '/api/admin/claim-next-order', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const { rows } = await t.database.sql.query('select 1 from order_presence where order_id = $1', [
      order.orderId,
    ]);
    expect(rows).toHaveLength(0);
    // Order History is not a Telecaller's list.
    expect(
      (await post('Telecaller', '/api/admin/claim-next-order', { folderName: 'allOrder' })).statusCode,
    ).toBe(403);
  });
});

describe('optimistic concurrency', () => {
  it('refuses a stale change with 409 naming who changed the order, what and when; nothing changes', async () => {
    const order = await createOrder(t.database, { merchant_name: 'PayPal' });
    const id = order.orderId;
    const seen = await versionOf(id);
    expect(
      (
        await put('Team', '/api/admin/move-order-status', {
          orderId: id,
          updatingStatus: 'AwaitingGovt',
          expectedVersion: seen,
        })
      ).statusCode,
    ).toBe(200);
    const stale = await put('Telecaller', '/api/admin/move-order-status', {
      orderId: id,
      updatingStatus: 'Customer Called',
      expectedVersion: seen,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(
      new RegExp(
        `^This order changed since you opened it: ${staff.get('Team')!.name} moved it to Awaiting Govt at \\d{2}:\\d{2}\\.`,
      ),
    );
    const stalePaths: [string, string, object][] = [
      ['POST', '/api/admin/add-new-remark', { orderId: id, remark: 'late', expectedVersion: seen }],
      [
        'POST',
        '/api/admin/save-transaction-details',
        { orderId: id, transactionId: 'x', merchantName: 'PayPal', expectedVersion: seen },
      ],
      [
        'POST',
        '/api/admin/resend-mail',
        { orderId: id, email: 'a@example.com', mailServiceProvider: 'AWS', expectedVersion: seen },
      ],
      ['PUT', '/api/admin/assign-order-status', { orderId: [id], assignto: 'me', expectedVersion: seen }],
    ];
    for (const [method, url, payload] of stalePaths) {
      const res = await t.as('Telecaller', { method: method as 'POST', url, payload });
      expect(res.statusCode, url).toBe(409);
    }
    const { rows } = await t.database.sql.query<{ process_status: string; assigned_to: number | null }>(
      'select process_status, assigned_to from orders where order_id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ process_status: 'AwaitingGovt', assigned_to: null });
    const remarks = await t.database.sql.query('select 1 from order_remarks where order_id = $1', [id]);
    expect(remarks.rows).toHaveLength(0);
    // The current version works, and no version at all behaves as before.
    const fresh = await versionOf(id);
    expect(
      (
        await post('Telecaller', '/api/admin/add-new-remark', {
          orderId: id,
          remark: 'now',
          expectedVersion: fresh,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await post('Telecaller', '/api/admin/add-new-remark', { orderId: id, remark: 'api' })).statusCode,
    ).toBe(200);
    // The detail answer carries the version.
    const detail = await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${id}` });
    expect(detail.json().data.version).toBe(await versionOf(id));
  });

  it('refuses hostile versions with 400', async () => {
    const order = await createOrder(t.database);
    for (const expectedVersion of [0, -1, 1.5, 'x', 2 ** 40, '1\u0000']) {
      const res = await put('Team', '/api/admin/move-order-status', {
        orderId: order.orderId,
        updatingStatus: 'Completed',
        expectedVersion,
      });
      expect(res.statusCode, String(expectedVersion)).toBe(400);
    }
    const two = await createOrder(t.database);
    const multi = await put('Team', '/api/admin/assign-order-status', {
      orderId: [order.orderId, two.orderId],
      assignto: 'me',
      expectedVersion: 1,
    });
    expect(multi.statusCode).toBe(400);
  });
});

describe('holder rule', () => {
  it('only the holder moves an order; Admin and Manager may take it over, with its event', async () => {
    const order = await createOrder(t.database, { process_status: 'Awaiting' });
    const id = order.orderId;
    await put('Team', '/api/admin/assign-order-status', { orderId: [id], assignto: 'me' });
    for (const role of ['Telecaller', 'Night Staff', 'Admin', 'Manager'] as const) {
      const res = await put(role, '/api/admin/move-order-status', {
        orderId: id,
        updatingStatus: 'AwaitingGovt',
      });
      expect(res.statusCode, role).toBe(409);
      expect(res.json().message).toContain(staff.get('Team')!.name);
      const flag = await post(role, '/api/admin/add-new-remark', {
        orderId: id,
        remark: 'refund',
        statusRefund: 'Y',
      });
      expect(flag.statusCode, role).toBe(409);
    }
    // takeOver is not for Team, Telecaller or Night Staff.
    const sneaky = await put('Telecaller', '/api/admin/move-order-status', {
      orderId: id,
      updatingStatus: 'AwaitingGovt',
      takeOver: true,
    });
    expect(sneaky.statusCode).toBe(409);
    // The holder moves it; a plain remark by anyone is still fine.
    expect(
      (await put('Team', '/api/admin/move-order-status', { orderId: id, updatingStatus: 'AwaitingGovt' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post('Night Staff', '/api/admin/add-new-remark', { orderId: id, remark: 'note' })).statusCode,
    ).toBe(200);

    const taken = await put('Manager', '/api/admin/move-order-status', {
      orderId: id,
      updatingStatus: 'Customer Called',
      takeOver: true,
      // Team moved it a moment ago: the Manager has been asked and continues (decision 298).
      confirmRecent: true,
    });
    expect(taken.statusCode).toBe(200);
    const { rows } = await t.database.sql.query<{ assigned_to: number; process_status: string }>(
      'select assigned_to, process_status from orders where order_id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ assigned_to: staff.get('Manager')!.id, process_status: 'Customer Called' });
    const events = await t.database.sql.query<{ action: string; from_value: string; to_value: string }>(
      `select action, from_value, to_value from order_events where order_id = $1 and action = 'takeover'`,
      [id],
    );
    expect(events.rows).toEqual([
      {
        action: 'takeover',
        from_value: String(staff.get('Team')!.id),
        to_value: String(staff.get('Manager')!.id),
      },
    ]);
    const audit = await t.database.sql.query(
      `select 1 from audit_log where action = 'order.takeover' and target = $1`,
      [`order ${id}`],
    );
    expect(audit.rows).toHaveLength(1);
  });
});

describe('claim next order', () => {
  it('gives two users claiming at once 20 distinct orders, most urgent first, then 404', async () => {
    // A folder of its own: Contact Customer orders arriving on distinct days.
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const arrival = new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10);
      ids.push(
        (await createOrder(t.database, { process_status: 'Contact Customer', arrival_date: arrival }))
          .orderId,
      );
    }
    const claims = await Promise.all(
      Array.from({ length: 22 }, (_, i) =>
        post(i % 2 ? 'Team' : 'Telecaller', '/api/admin/claim-next-order', {
          folderName: 'contactCustomerOrder',
        }),
      ),
    );
    const won = claims.filter((r) => r.statusCode === 200).map((r) => r.json().data.orderId as number);
    expect(won).toHaveLength(20);
    expect(new Set(won).size).toBe(20);
    expect(new Set(won)).toEqual(new Set(ids));
    const empty = claims.filter((r) => r.statusCode !== 200);
    expect(empty.map((r) => r.statusCode)).toEqual([404, 404]);
    expect(empty[0]!.json().message).toBe('No unassigned order is waiting in this folder.');
  });

  it('takes the earliest arrival first', async () => {
    const late = await createOrder(t.database, {
      process_status: 'Customer Called',
      arrival_date: '2031-06-02',
    });
    const soon = await createOrder(t.database, {
      process_status: 'Customer Called',
      arrival_date: '2031-06-01',
    });
    const first = await post('Night Staff', '/api/admin/claim-next-order', {
      folderName: 'customerCalledOrder',
    });
    expect(first.json().data.orderId).toBe(soon.orderId);
    const second = await post('Night Staff', '/api/admin/claim-next-order', {
      folderName: 'customerCalledOrder',
    });
    expect(second.json().data.orderId).toBe(late.orderId);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server instances on one PostgreSQL', () => {
  it('an assignment made through one reaches a stream opened on the other within 1 s', async () => {
    const b = await createTestApp({}, { sameDatabaseAs: t });
    try {
      const portB = await listen(b);
      const s = await openStream(portB, await b.tokenFor('Telecaller'));
      await eventually(() => expect(s.events.some((e) => e.event === 'counts')).toBe(true));
      const order = await createOrder(t.database);
      const sent = Date.now();
      const res = await put('Team', '/api/admin/assign-order-status', {
        orderId: [order.orderId],
        assignto: 'me',
      });
      expect(res.statusCode).toBe(200);
      await eventually(() => expect(orderEvents(s, order.orderId)).toHaveLength(1), 1000);
      expect(orderEvents(s, order.orderId)[0]!.at - sent).toBeLessThan(1000);
      expect(orderEvents(s, order.orderId)[0]!.data).toMatchObject({
        action: 'assign',
        assignTo: staff.get('Team')!.name,
      });
      s.close();
    } finally {
      await b.close();
    }
  });
});
