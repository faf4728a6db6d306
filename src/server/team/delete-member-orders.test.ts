import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrdersText, TEAM_MSG_ORDERS } from '../../shared/contracts/team.js';
import { MSG } from '../../shared/messages.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';

// Deleting a member never leaves their open orders with an account nobody can sign in to: the Delete
// dialog says how many, and the server refuses until they are released or reassigned (decision 317).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const as = (role: DemoRole, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  t.as(role, { method, url: `/api/admin/${url}`, ...(payload ? { payload } : {}) });

let n = 0;
/** A Team member holding two open orders and one completed order. */
async function memberWithOrders() {
  n += 1;
  const res = await as('Admin', 'POST', 'add-team-member', {
    name: `Leaving Member ${n}`,
    email: `leaving${n}.${Date.now()}@demo.test`,
    password: 'a-long-enough-password',
    type: 'Team',
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.id as number;
  const open = [(await createOrder(t.database)).orderId, (await createOrder(t.database)).orderId];
  const closed = (await createOrder(t.database)).orderId;
  await t.database.sql.query('update orders set assigned_to = $1 where order_id = any($2::bigint[])', [
    id,
    [...open, closed],
  ]);
  await t.database.sql.query(`update orders set process_status = 'Completed' where order_id = $1`, [closed]);
  return { id, name: `Leaving Member ${n}`, open, closed };
}

async function assignees(ids: number[]) {
  const { rows } = await t.database.sql.query<{ assigned_to: number | null }>(
    'select assigned_to from orders where order_id = any($1::bigint[]) order by order_id',
    [ids],
  );
  return rows.map((r) => r.assigned_to);
}

async function deleted(id: number) {
  const { rows } = await t.database.sql.query<{ deleted_at: Date | null }>(
    'select deleted_at from staff_users where id = $1',
    [id],
  );
  return rows[0]!.deleted_at !== null;
}

describe('deleting a member who holds open orders', () => {
  it('says how many, and refuses without a choice (nothing changes)', async () => {
    const m = await memberWithOrders();
    const count = await as('Manager', 'GET', `team-member-open-orders/${m.id}`);
    expect(count.statusCode).toBe(200);
    expect(count.json().data).toEqual({ openOrders: 2 });
    const res = await as('Manager', 'PUT', 'delete-team-member', { teamMemberId: m.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(openOrdersText(m.name, 2));
    expect(res.json().data).toEqual({ openOrders: 2 });
    expect(await deleted(m.id)).toBe(false);
    expect(await assignees(m.open)).toEqual([m.id, m.id]);
  });

  it('release: the open orders go back to their queues, each with its assign event; closed ones stay', async () => {
    const m = await memberWithOrders();
    const res = await as('Manager', 'PUT', 'delete-team-member', {
      teamMemberId: m.id,
      openOrders: 'release',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(MSG.teamDeleted);
    expect(await deleted(m.id)).toBe(true);
    expect(await assignees(m.open)).toEqual([null, null]);
    expect(await assignees([m.closed])).toEqual([m.id]);
    const { rows } = await t.database.sql.query<{ n: string }>(
      `select count(*) n from order_events where order_id = any($1::bigint[]) and action = 'assign' and from_value = $2 and to_value is null`,
      [m.open, String(m.id)],
    );
    expect(Number(rows[0]!.n)).toBe(2);
    const audit = await t.database.sql.query<{ detail: string }>(
      `select to_value::text as detail from audit_log where action = 'team.delete' and target = $1`,
      [`staff:${m.id}`],
    );
    expect(audit.rows[0]?.detail).toContain('2 released');
  });

  it('reassign: the open orders go to the chosen member; a missing, deleted or same member is a 400', async () => {
    const m = await memberWithOrders();
    const heir = await memberWithOrders();
    const missing = await as('Manager', 'PUT', 'delete-team-member', {
      teamMemberId: m.id,
      openOrders: 'reassign',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain(TEAM_MSG_ORDERS.chooseMember);
    const self = await as('Manager', 'PUT', 'delete-team-member', {
      teamMemberId: m.id,
      openOrders: 'reassign',
      reassignTo: m.id,
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(TEAM_MSG_ORDERS.reassignToSelfOrGone);
    const hostile = await as('Manager', 'PUT', 'delete-team-member', {
      teamMemberId: m.id,
      openOrders: 'reassign\u0000',
      reassignTo: heir.id,
    });
    expect(hostile.statusCode).toBe(400);
    expect(await deleted(m.id)).toBe(false);

    const res = await as('Manager', 'PUT', 'delete-team-member', {
      teamMemberId: m.id,
      openOrders: 'reassign',
      reassignTo: heir.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await assignees(m.open)).toEqual([heir.id, heir.id]);
    expect(await deleted(m.id)).toBe(true);
    // The count is for managers of the team only.
    expect((await as('Team', 'GET', `team-member-open-orders/${heir.id}`)).statusCode).toBe(403);
  });

  it('a whole valid body with one hostile part is refused with a 4xx and changes nothing', async () => {
    const m = await memberWithOrders();
    const heir = await memberWithOrders();
    const valid = { teamMemberId: m.id, openOrders: 'reassign', reassignTo: heir.id };
    const refused = [
      // A field the route does not take (an assignee of the caller's choosing).
      await as('Manager', 'PUT', 'delete-team-member', { ...valid, assignedTo: 1 }),
      // Control characters in an id.
      await as('Manager', 'PUT', 'delete-team-member', { ...valid, reassignTo: `${heir.id}\u0007` }),
      // An id no member has.
      await as('Manager', 'PUT', 'delete-team-member', { ...valid, reassignTo: 2_000_000_000 }),
      // A role that may not manage the team.
      await as('Team', 'PUT', 'delete-team-member', valid),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([400, 400, 400, 403]);
    for (const r of refused) expect(r.json().message).toBeTruthy();
    expect(await deleted(m.id)).toBe(false);
    expect(await assignees(m.open)).toEqual([m.id, m.id]);
    const { rows } = await t.database.sql.query<{ n: string }>(
      `select count(*)::text as n from audit_log where action = 'team.delete' and target = $1`,
      [`staff:${m.id}`],
    );
    expect(rows[0]!.n).toBe('0');
  });

  it('a member without open orders is deleted as before', async () => {
    const res = await as('Admin', 'POST', 'add-team-member', {
      name: 'Quiet Member',
      email: `quiet.${Date.now()}@demo.test`,
      password: 'a-long-enough-password',
      type: 'Team',
    });
    const id = res.json().data.id as number;
    expect((await as('Manager', 'PUT', 'delete-team-member', { teamMemberId: id })).statusCode).toBe(200);
    expect(await deleted(id)).toBe(true);
  });
});
