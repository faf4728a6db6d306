import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../shared/constants.js';
import { TEAM_MSG } from '../../shared/contracts/team.js';
import { MSG } from '../../shared/messages.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const as = (role: DemoRole, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.as(role, { method, url: `/api/admin/${url}`, ...(payload ? { payload } : {}) });
const add = (role: DemoRole, body: object) => as(role, 'POST', 'add-team-member', body);
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/admin/admin-login', payload: { email, password } });

async function staffRow(id: number) {
  const { rows } = await t.database.sql.query<{
    token_version: number;
    deleted_at: Date | null;
    role: string;
  }>('select token_version, deleted_at, role from staff_users where id = $1', [id]);
  return rows[0]!;
}
async function audit(action: string, target: string) {
  const { rows } = await t.database.sql.query<{ from_value: unknown; to_value: unknown; actor_id: number }>(
    'select from_value, to_value, actor_id from audit_log where action = $1 and target = $2 order by id',
    [action, target],
  );
  return rows;
}
async function idOf(role: DemoRole) {
  const res = await as('Admin', 'GET', 'get-team-member-list');
  return res.json().data.find((m: { type: string }) => m.type === role).id as number;
}

describe('team list, info and types', () => {
  it('lists live members with memberRole and no password', async () => {
    const res = await as('Team', 'GET', 'get-team-member-list');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe(1);
    expect(body.data.map((m: { email: string }) => m.email)).toEqual(
      expect.arrayContaining(['admin@demo.test', 'night@demo.test']),
    );
    for (const m of body.data) {
      expect(Object.keys(m).sort()).toEqual([
        'away',
        'awayUntil',
        'capacity',
        'email',
        'id',
        'languages',
        'memberRole',
        'name',
        'shift',
        'type',
      ]);
      expect(m.memberRole).toBe(m.type);
    }
    expect(res.body).not.toMatch(/password|argon2/i);
  });

  it('answers the five types', async () => {
    const res = await as('Manager', 'GET', 'get-team-member-type');
    expect(res.json()).toEqual({ status: 1, message: 'Success', data: [...ROLES] });
  });

  it('shows one member and 404 for a missing one', async () => {
    const id = await idOf('Telecaller');
    const res = await as('Telecaller', 'GET', `team-member-info/${id}`);
    expect(res.json().data).toEqual({
      id,
      name: 'Demo Telecaller',
      email: 'telecaller@demo.test',
      type: 'Telecaller',
      memberRole: 'Telecaller',
      capacity: 25,
      languages: [],
      shift: null,
      away: false,
      awayUntil: null,
    });
    const missing = await as('Admin', 'GET', 'team-member-info/99999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ status: 0, message: TEAM_MSG.notFound });
    expect((await as('Admin', 'GET', 'team-member-info/abc')).statusCode).toBe(400);
  });

  it('keeps Night Staff out', async () => {
    expect((await as('Night Staff', 'GET', 'get-team-member-list')).statusCode).toBe(403);
  });
});

describe('add-team-member', () => {
  it('validates with the product messages and writes nothing', async () => {
    const before = (await as('Admin', 'GET', 'get-team-member-list')).json().data.length;
    const res = await add('Admin', { name: '', email: '', password: '', type: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.errors).toEqual([
      { field: 'name', message: MSG.teamNameRequired },
      { field: 'email', message: MSG.teamEmailRequired },
      { field: 'password', message: MSG.teamPasswordRequired },
      { field: 'type', message: MSG.teamTypeRequired },
    ]);
    const other = await add('Admin', { name: 'A', email: 'nope', password: '123', type: 'Boss' });
    expect(other.json().data.errors.map((e: { message: string }) => e.message)).toEqual([
      MSG.emailInvalid,
      TEAM_MSG.passwordMin,
      MSG.teamTypeRequired,
    ]);
    expect((await as('Admin', 'GET', 'get-team-member-list')).json().data.length).toBe(before);
  });

  it('adds a member who can sign in, audited without the password', async () => {
    const res = await add('Manager', {
      name: ' Alice Agent ',
      email: 'Alice.Agent@Example.com',
      password: 'alice-secret',
      type: 'Team',
    });
    expect(res.statusCode).toBe(200);
    const member = res.json().data;
    expect(member).toMatchObject({ name: 'Alice Agent', email: 'Alice.Agent@Example.com', type: 'Team' });
    expect(res.json().message).toBe(TEAM_MSG.added);
    const signed = await login('alice.agent@example.com', 'alice-secret');
    expect(signed.json().data.type).toBe('Team');
    const rows = await audit('team.add', `staff:${member.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.to_value).toEqual({
      name: 'Alice Agent',
      email: 'Alice.Agent@Example.com',
      type: 'Team',
    });
    expect(JSON.stringify(rows)).not.toContain('alice-secret');
  });

  it('refuses a duplicate e-mail whatever its case with 409', async () => {
    const res = await add('Admin', {
      name: 'Dup',
      email: 'ADMIN@demo.test',
      password: 'secret-1',
      type: 'Team',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ status: 0, message: TEAM_MSG.emailTaken });
  });

  it('lets only an Admin create an Admin', async () => {
    const body = { name: 'New Boss', email: 'boss@example.com', password: 'secret-1', type: 'Admin' };
    const res = await add('Manager', body);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 0, message: TEAM_MSG.adminOnly });
    expect((await login('boss@example.com', 'secret-1')).statusCode).toBe(401);
    expect((await add('Admin', body)).statusCode).toBe(200);
  });

  it('is closed to Team and Telecaller', async () => {
    for (const role of ['Team', 'Telecaller', 'Night Staff'] as const) {
      const res = await add(role, {
        name: 'X',
        email: `x-${role.length}@example.com`,
        password: 'secret-1',
        type: 'Team',
      });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('update-team-member', () => {
  async function newMember(email: string, type = 'Team') {
    const res = await add('Admin', { name: 'Edit Me', email, password: 'first-pass', type });
    return res.json().data.id as number;
  }

  it('keeps the password when it is left empty, and the sessions', async () => {
    const id = await newMember('keep.pw@example.com');
    const token = (await login('keep.pw@example.com', 'first-pass')).json().jwtToken;
    const res = await as('Manager', 'POST', 'update-team-member', {
      tmId: String(id),
      name: 'Edited Name',
      email: 'keep.pw@example.com',
      password: '',
      type: 'Team',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe('Edited Name');
    expect((await login('keep.pw@example.com', 'first-pass')).statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user_info',
      headers: { authorization: token },
    });
    expect(me.statusCode).toBe(200);
    const rows = await audit('team.update', `staff:${id}`);
    expect(rows[0]!.from_value).toMatchObject({ name: 'Edit Me' });
    expect(rows[0]!.to_value).toMatchObject({
      name: 'Edited Name',
      passwordChanged: false,
      tokensRevoked: false,
    });
  });

  it('sets a new password and ends the old sessions', async () => {
    const id = await newMember('new.pw@example.com');
    const token = (await login('new.pw@example.com', 'first-pass')).json().jwtToken;
    const body = {
      tmId: id,
      name: 'Edit Me',
      email: 'new.pw@example.com',
      password: 'second-pass',
      type: 'Team',
    };
    expect((await as('Admin', 'POST', 'update-team-member', body)).statusCode).toBe(200);
    expect((await login('new.pw@example.com', 'first-pass')).statusCode).toBe(401);
    expect((await login('new.pw@example.com', 'second-pass')).statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user_info',
      headers: { authorization: token },
    });
    expect(me.statusCode).toBe(401);
  });

  it('validates: short password, duplicate e-mail, unknown id', async () => {
    const id = await newMember('validate.edit@example.com');
    const base = {
      tmId: id,
      name: 'Edit Me',
      email: 'validate.edit@example.com',
      password: '',
      type: 'Team',
    };
    const short = await as('Admin', 'POST', 'update-team-member', { ...base, password: '123' });
    expect(short.json().message).toBe(TEAM_MSG.passwordMin);
    const dup = await as('Admin', 'POST', 'update-team-member', { ...base, email: 'Manager@Demo.test' });
    expect(dup.statusCode).toBe(409);
    const missing = await as('Admin', 'POST', 'update-team-member', { ...base, tmId: 99999 });
    expect(missing.statusCode).toBe(404);
    const row = await staffRow(id);
    expect(row.token_version).toBe(0);
  });

  it('lets only an Admin edit an Admin or promote to Admin', async () => {
    const adminId = await idOf('Admin');
    const editAdmin = await as('Manager', 'POST', 'update-team-member', {
      tmId: adminId,
      name: 'Hacked',
      email: 'admin@demo.test',
      password: 'taken-over',
      type: 'Admin',
    });
    expect(editAdmin.statusCode).toBe(403);
    const id = await newMember('promote@example.com');
    const promote = await as('Manager', 'POST', 'update-team-member', {
      tmId: id,
      name: 'Edit Me',
      email: 'promote@example.com',
      type: 'Admin',
    });
    expect(promote.statusCode).toBe(403);
    expect((await staffRow(id)).role).toBe('Team');
    expect((await login('admin@demo.test', 'taken-over')).statusCode).toBe(401);
  });

  it('does not let anyone change their own type', async () => {
    const managerId = await idOf('Manager');
    const res = await as('Manager', 'POST', 'update-team-member', {
      tmId: managerId,
      name: 'Demo Manager',
      email: 'manager@demo.test',
      type: 'Team',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(TEAM_MSG.changeOwnType);
  });

  it('changing the type ends the sessions (the token carries the type)', async () => {
    const id = await newMember('retyped@example.com');
    const token = (await login('retyped@example.com', 'first-pass')).json().jwtToken;
    await as('Admin', 'POST', 'update-team-member', {
      tmId: id,
      name: 'Edit Me',
      email: 'retyped@example.com',
      type: 'Telecaller',
    });
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user_info',
      headers: { authorization: token },
    });
    expect(me.statusCode).toBe(401);
    expect((await login('retyped@example.com', 'first-pass')).json().data.type).toBe('Telecaller');
  });
});

describe('delete-team-member', () => {
  it('soft-deletes: the member disappears, cannot sign in, tokens die, the row stays', async () => {
    const created = await add('Admin', {
      name: 'Leaver',
      email: 'leaver@example.com',
      password: 'leaver-pw',
      type: 'Team',
    });
    const id = created.json().data.id as number;
    const token = (await login('leaver@example.com', 'leaver-pw')).json().jwtToken;
    const res = await as('Manager', 'PUT', 'delete-team-member', { teamMemberId: id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1, message: MSG.teamDeleted });
    const list = (await as('Admin', 'GET', 'get-team-member-list')).json().data;
    expect(list.find((m: { id: number }) => m.id === id)).toBeUndefined();
    expect((await as('Admin', 'GET', `team-member-info/${id}`)).statusCode).toBe(404);
    expect((await login('leaver@example.com', 'leaver-pw')).statusCode).toBe(401);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/user_info',
      headers: { authorization: token },
    });
    expect(me.statusCode).toBe(401);
    expect((await staffRow(id)).deleted_at).not.toBeNull();
    expect((await audit('team.delete', `staff:${id}`))[0]!.from_value).toMatchObject({
      email: 'leaver@example.com',
    });
    // The e-mail is free again for a new member; deleting twice is a 404.
    expect(
      (await add('Admin', { name: 'Back', email: 'LEAVER@example.com', password: 'leaver-pw', type: 'Team' }))
        .statusCode,
    ).toBe(200);
    expect((await as('Admin', 'PUT', 'delete-team-member', { teamMemberId: id })).statusCode).toBe(404);
  });

  it('nobody deletes themselves; a Manager cannot delete an Admin', async () => {
    const self = await as('Admin', 'PUT', 'delete-team-member', { teamMemberId: await idOf('Admin') });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(TEAM_MSG.deleteSelf);
    const admin = await as('Manager', 'PUT', 'delete-team-member', { teamMemberId: await idOf('Admin') });
    expect(admin.statusCode).toBe(403);
    expect((await staffRow(await idOf('Admin'))).deleted_at).toBeNull();
    expect((await as('Admin', 'PUT', 'delete-team-member', {})).statusCode).toBe(400);
  });
});
