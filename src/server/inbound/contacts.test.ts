import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

/** Calls and WhatsApp contacts logged in the conversation with their outcome (decision 331). */
describe('logged contacts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
  const log = (orderId: number, payload: Record<string, unknown>, role: DemoRole = 'Telecaller') =>
    t.as(role, { method: 'POST', url: `/api/admin/orders/${orderId}/contacts`, payload });
  const staffId = async (role: string) =>
    (
      await t.database.sql.query<{ id: number }>(
        'select id from staff_users where role = $1 and deleted_at is null order by id limit 1',
        [role],
      )
    ).rows[0]!.id;
  const contactRows = async (orderId: number) =>
    (await t.database.sql.query('select * from order_contacts where order_id = $1', [orderId])).rows;
  const counts = async (role: DemoRole) =>
    (await t.as(role, { method: 'GET', url: '/api/admin/get-folder-count' })).json().data;
  const conversation = async (orderId: number) =>
    (await t.as('Telecaller', { method: 'GET', url: `/api/admin/orders/${orderId}/conversation` })).json()
      .data.items;

  it('logs each outcome by call and WhatsApp, with its event, in the conversation in time order', async () => {
    const order = await createOrder(t.database, { process_status: 'Contact Customer' });
    for (const [channel, outcome] of [
      ['call', 'reached'],
      ['whatsapp', 'no_answer'],
      ['call', 'wrong_number'],
    ] as const) {
      const res = await log(order.orderId, { channel, outcome, note: `${outcome}\nsecond line` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ callBackAt: null });
    }
    const at = inAnHour();
    const res = await log(order.orderId, { channel: 'call', outcome: 'call_back', callBackAt: at });
    expect(res.statusCode, res.body).toBe(200);
    const items = (await conversation(order.orderId)).filter(
      (i: { direction: string }) => i.direction === 'contact',
    );
    expect(items.map((i: { kind: string; outcome: string }) => `${i.kind} ${i.outcome}`)).toEqual([
      'call reached',
      'whatsapp no_answer',
      'call wrong_number',
      'call call_back',
    ]);
    expect(items[0]).toMatchObject({ note: 'reached\nsecond line', callBackAt: null });
    expect(items[0].staffName).toBeTruthy();
    expect(new Date(items[3].callBackAt).getTime()).toBe(new Date(at).getTime());
    const { rows: events } = await t.database.sql.query<{ n: number }>(
      "select count(*)::int as n from order_events where order_id = $1 and action = 'contact'",
      [order.orderId],
    );
    expect(events[0]!.n).toBe(4);
  });

  it('a call-back assigns the order to the caller and counts once its time has come', async () => {
    const me = await staffId('Telecaller');
    const before = (await counts('Telecaller')).callBackDueCount;
    const order = await createOrder(t.database, { process_status: 'Contact Customer' });
    const res = await log(order.orderId, {
      channel: 'whatsapp',
      outcome: 'call_back',
      callBackAt: inAnHour(),
      note: 'After lunch',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.assignedTo).toBe(me);
    const { rows } = await t.database.sql.query<{ assigned_to: number }>(
      'select assigned_to from orders where order_id = $1',
      [order.orderId],
    );
    expect(rows[0]!.assigned_to).toBe(me);
    // Not yet due.
    expect((await counts('Telecaller')).callBackDueCount).toBe(before);
    // The time comes.
    await t.database.sql.query(
      "update order_contacts set call_back_at = now() - interval '1 minute' where order_id = $1",
      [order.orderId],
    );
    expect((await counts('Telecaller')).callBackDueCount).toBe(before + 1);
    // A later contact that reached the customer settles it.
    expect((await log(order.orderId, { channel: 'call', outcome: 'reached' })).statusCode).toBe(200);
    expect((await counts('Telecaller')).callBackDueCount).toBe(before);
  });

  it('keeps the holder rule: a call-back on an order someone else holds is refused', async () => {
    const team = await staffId('Team');
    const order = await createOrder(t.database, { process_status: 'Contact Customer' });
    await t.database.sql.query('update orders set assigned_to = $1 where order_id = $2', [
      team,
      order.orderId,
    ]);
    const res = await log(order.orderId, { channel: 'call', outcome: 'call_back', callBackAt: inAnHour() });
    expect(res.statusCode, res.body).toBe(409);
    expect(await contactRows(order.orderId)).toHaveLength(0);
  });

  describe('refuses a hostile field of a whole valid body, changing nothing', () => {
    const valid = () => ({
      channel: 'call',
      outcome: 'call_back',
      callBackAt: inAnHour(),
      note: 'Call back after lunch',
    });
    const cases: [string, Record<string, unknown>][] = [
      ['NUL in note', { note: 'a\u0000b' }],
      ['a control character in note', { note: 'a\u001bb' }],
      ['a huge note', { note: 'x'.repeat(1001) }],
      ['callBackAt in the past', { callBackAt: new Date(Date.now() - 60_000).toISOString() }],
      ['callBackAt too far ahead', { callBackAt: new Date(Date.now() + 31 * 86_400_000).toISOString() }],
      ['callBackAt not a date', { callBackAt: 'tomorrow' }],
      ['callBackAt missing for a call-back', { callBackAt: undefined }],
      ['callBackAt with another outcome', { outcome: 'reached' }],
      ['an unknown outcome', { outcome: 'hung_up' }],
      ['an unknown channel', { channel: 'fax' }],
      ['an unknown field', { flag: 'Y' }],
    ];
    for (const [label, change] of cases) {
      it(label, async () => {
        const order = await createOrder(t.database, { process_status: 'Contact Customer' });
        const res = await log(order.orderId, { ...valid(), ...change });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.body).not.toMatch(/stack|at .*\.ts:/);
        expect(await contactRows(order.orderId)).toHaveLength(0);
      });
    }
  });

  it('answers 404 for an unknown order, 409 for a Deleted one, 401 without a session', async () => {
    const missing = await log(999_999_999, { channel: 'call', outcome: 'reached' });
    expect(missing.statusCode).toBe(404);
    const deleted = await createOrder(t.database, { process_status: 'Deleted' });
    const res = await log(deleted.orderId, { channel: 'call', outcome: 'reached', note: 'x' });
    expect(res.statusCode, res.body).toBe(409);
    expect(await contactRows(deleted.orderId)).toHaveLength(0);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${deleted.orderId}/contacts`,
      payload: { channel: 'call', outcome: 'reached' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('every role that may remark may log a contact', async () => {
    for (const role of ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'] as const) {
      const order = await createOrder(t.database, { process_status: 'Contact Customer' });
      const res = await log(order.orderId, { channel: 'whatsapp', outcome: 'no_answer' }, role);
      expect(res.statusCode, `${role}: ${res.body}`).toBe(200);
    }
  });
  it('"Reached" moves the order to Customer Called in the same step when asked; refused for another outcome, nothing logged', async () => {
    const order = await createOrder(t.database, { process_status: 'Contact Customer' });
    const wrong = await log(order.orderId, {
      channel: 'call',
      outcome: 'no_answer',
      moveToCustomerCalled: true,
    });
    expect(wrong.statusCode).toBe(400);
    const hostile = await log(order.orderId, {
      channel: 'call',
      outcome: 'reached',
      moveToCustomerCalled: 'y\u0000',
    });
    expect(hostile.statusCode).toBe(400);
    expect(await contactRows(order.orderId)).toHaveLength(0);
    const res = await log(order.orderId, { channel: 'call', outcome: 'reached', moveToCustomerCalled: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.processStatus).toBe('Customer Called');
    expect(res.json().message).toBe('The contact has been logged and the order moved to Customer Called.');
    const { rows } = await t.database.sql.query<{ action: string; to_value: string }>(
      "select action, to_value from order_events where order_id = $1 and action in ('contact', 'status') order by id",
      [order.orderId],
    );
    expect(rows).toEqual([
      { action: 'contact', to_value: 'call reached' },
      { action: 'status', to_value: 'Customer Called' },
    ]);
    // Without the choice, "Reached" logs the call alone.
    const other = await createOrder(t.database, { process_status: 'Contact Customer' });
    const alone = await log(other.orderId, { channel: 'call', outcome: 'reached' });
    expect(alone.json().data.processStatus).toBe('Contact Customer');
  });
});
