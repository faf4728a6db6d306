import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MSG } from '../../shared/contracts/auth.js';
import { TEAM_MSG } from '../../shared/contracts/team.js';
import { hashPassword } from '../auth/passwords.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const update = (role: DemoRole, body: object) =>
  t.as(role, { method: 'POST', url: '/api/admin/update-team-member', payload: body });

async function member(email: string) {
  const { rows } = await t.database.sql.query<{
    id: number;
    name: string;
    email: string;
    role: string;
    password_hash: string;
    token_version: number;
  }>('select id, name, email, role, password_hash, token_version from staff_users where email = $1', [email]);
  return rows[0]!;
}

async function createStaff(email: string, role: string) {
  await t.database.sql.query(
    "insert into staff_users (name, email, password_hash, role) values ('Re Auth', $1, $2, $3)",
    [email, await hashPassword('their-own-password'), role],
  );
  return member(email);
}

const bodyOf = (m: { id: number; name: string; email: string; role: string }, extra: object = {}) => ({
  tmId: m.id,
  name: m.name,
  email: m.email,
  type: m.role,
  password: '',
  ...extra,
});

describe('credentials change only with re-authentication', () => {
  it('nobody sets their own password through update-team-member', async () => {
    for (const role of ['Admin', 'Manager'] as const) {
      const me = await member(role === 'Admin' ? 'admin@demo.test' : 'manager@demo.test');
      const res = await update(
        role,
        bodyOf(me, { password: 'a-new-password-1', currentPassword: 'demo-password' }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status: 0, message: TEAM_MSG.ownPasswordHere });
      expect((await member(me.email)).password_hash).toBe(me.password_hash);
    }
  });

  it('a Manager resets another Manager’s password only with their own current password', async () => {
    const other = await createStaff('other.manager@example.com', 'Manager');
    const without = await update('Manager', bodyOf(other, { password: 'reset-by-manager-1' }));
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toBe(TEAM_MSG.currentPasswordNeeded);
    const wrong = await update(
      'Manager',
      bodyOf(other, { password: 'reset-by-manager-1', currentPassword: 'nope' }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(AUTH_MSG.currentPasswordWrong);
    expect((await member(other.email)).password_hash).toBe(other.password_hash);
    const right = await update(
      'Manager',
      bodyOf(other, { password: 'reset-by-manager-1', currentPassword: 'demo-password' }),
    );
    expect(right.statusCode).toBe(200);
    const after = await member(other.email);
    expect(after.password_hash).not.toBe(other.password_hash);
    expect(after.token_version).toBe(other.token_version + 1);
  });

  it('an Admin changes another Admin’s e-mail only with their current password', async () => {
    const other = await createStaff('second.admin@example.com', 'Admin');
    const without = await update('Admin', bodyOf(other, { email: 'attacker@evil.example' }));
    expect(without.statusCode).toBe(400);
    expect(without.json().message).toBe(TEAM_MSG.currentPasswordNeeded);
    expect((await member('second.admin@example.com')).email).toBe('second.admin@example.com');
    const right = await update(
      'Admin',
      bodyOf(other, { email: 'second.admin2@example.com', currentPassword: 'demo-password' }),
    );
    expect(right.statusCode).toBe(200);
    expect((await member('second.admin2@example.com')).id).toBe(other.id);
  });

  it('a Team member’s password or a name needs no re-authentication', async () => {
    const team = await createStaff('plain.team@example.com', 'Team');
    const res = await update('Manager', bodyOf(team, { password: 'reset-for-team-1' }));
    expect(res.statusCode).toBe(200);
    const manager = await createStaff('renamed.manager@example.com', 'Manager');
    const renamed = await update('Admin', bodyOf(manager, { name: 'New Name' }));
    expect(renamed.statusCode).toBe(200);
  });

  it('wrong current passwords are throttled; hostile fields are refused with 400 and nothing changes', async () => {
    const victim = await createStaff('victim.manager@example.com', 'Manager');
    const huge = await update(
      'Admin',
      bodyOf(victim, { password: 'x-new-pass-1', currentPassword: 'x'.repeat(5000) }),
    );
    expect(huge.statusCode).toBe(400);
    const typed = await update('Admin', bodyOf(victim, { password: 'x-new-pass-1', currentPassword: 12345 }));
    expect(typed.statusCode).toBe(400);
    let last = huge;
    for (let i = 0; i < 11; i++) {
      last = await update(
        'Admin',
        bodyOf(victim, { password: 'x-new-pass-1', currentPassword: `guess-${i}` }),
      );
    }
    expect(last.statusCode).toBe(429);
    expect(last.body).not.toMatch(/stack|\.ts:/);
    expect((await member(victim.email)).password_hash).toBe(victim.password_hash);
  });
});
