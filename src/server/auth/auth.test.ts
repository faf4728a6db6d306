import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MSG } from '../../shared/contracts/auth.js';
import { MSG } from '../../shared/messages.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { setClockForTests } from './clock.js';
import { hashPassword } from './passwords.js';
import { LOGIN_FAILURE_LIMIT, LOGIN_IP_LIMIT } from './routes.js';
import { createSession } from './sessions.js';
import { type StaffTokenClaims, signStaffToken } from './tokens.js';

let t: TestApp;
let ipCounter = 0;
/** Each login call comes from its own address unless told, so the per-IP limit stays out of the way. */
const nextIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function createStaff(email: string, password: string, role = 'Team', name = 'Test Person') {
  const { rows } = await t.database.sql.query<{ id: number }>(
    'insert into staff_users (name, email, password_hash, role) values ($1, $2, $3, $4) returning id',
    [name, email, await hashPassword(password), role],
  );
  return rows[0]!.id;
}

const login = (body: unknown, ip = nextIp()) =>
  t.app.inject({ method: 'POST', url: '/api/admin/admin-login', payload: body as object, remoteAddress: ip });

const userInfo = (authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/api/user_info', headers: authorization ? { authorization } : {} });

async function auditRows(action: string, email: string) {
  const { rows } = await t.database.sql.query<{ actor_id: number | null; ip: string }>(
    'select actor_id, ip from audit_log where action = $1 and actor_email = $2 order by id',
    [action, email],
  );
  return rows;
}

describe('POST /api/admin/admin-login', () => {
  it('signs in and answers the token, name, type and e-mail, never a hash', async () => {
    await createStaff('Login.Ok@Example.com', 'right-password', 'Manager', 'Lena Login');
    const res = await login({ email: ' login.ok@example.COM ', password: 'right-password' }, '10.9.0.1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 1,
      message: AUTH_MSG.loginSuccess,
      data: { name: 'Lena Login', type: 'Manager', email: 'Login.Ok@Example.com' },
    });
    expect(res.body).not.toMatch(/argon2|password_hash|passwordHash/);
    const payload = JSON.parse(Buffer.from(body.jwtToken.split('.')[1], 'base64url').toString());
    expect(payload.user).toMatchObject({ name: 'Lena Login', type: 'Manager' });
    expect(payload.exp - payload.iat).toBe(12 * 3600);
    const me = await userInfo(body.jwtToken);
    expect(me.json().data).toMatchObject({
      name: 'Lena Login',
      type: 'Manager',
      email: 'Login.Ok@Example.com',
    });
    const rows = await auditRows('login.success', 'login.ok@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ip).toBe('10.9.0.1');
  });

  it('answers a wrong password and an unknown e-mail identically, in about the same time', async () => {
    await createStaff('same.answer@example.com', 'right-password');
    const time = async (body: object) => {
      const started = process.hrtime.bigint();
      const res = await login(body);
      return { res, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    const wrong: number[] = [];
    const unknown: number[] = [];
    let a: Awaited<ReturnType<typeof time>> | undefined;
    let b: Awaited<ReturnType<typeof time>> | undefined;
    for (let i = 0; i < 3; i++) {
      a = await time({ email: 'same.answer@example.com', password: 'wrong-password' });
      b = await time({ email: 'nobody-here@example.com', password: 'wrong-password' });
      wrong.push(a.ms);
      unknown.push(b.ms);
    }
    expect(a!.res.statusCode).toBe(401);
    expect(b!.res.statusCode).toBe(a!.res.statusCode);
    expect(b!.res.body).toBe(a!.res.body);
    expect(a!.res.json()).toEqual({ status: 401, message: AUTH_MSG.invalidCredentials });
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1]!;
    // Both paths run one argon2id verification (tens of ms); a skipped hash would be ~1 ms.
    const ratio = median(unknown) / median(wrong);
    expect(ratio).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
    expect(await auditRows('login.failure', 'nobody-here@example.com')).toHaveLength(3);
    const failures = await auditRows('login.failure', 'same.answer@example.com');
    expect(failures).toHaveLength(3);
    expect(failures[0]!.actor_id).not.toBeNull();
  });

  it('validates with the product messages and names the field', async () => {
    const empty = await login({ email: '', password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(MSG.emailRequired);
    expect(empty.json().data.errors).toEqual(
      expect.arrayContaining([
        { field: 'email', message: MSG.emailRequired },
        { field: 'password', message: MSG.passwordRequired },
      ]),
    );
    const bad = await login({ email: 'not-an-email', password: 'x' });
    expect(bad.json().message).toBe(MSG.emailInvalid);
    const missing = await login({});
    expect(missing.statusCode).toBe(400);
    const huge = await login({ email: 'a@b.co', password: 'x'.repeat(5000) });
    expect(huge.statusCode).toBe(400);
  });

  it('throttles per IP with 429 and a message, other addresses still pass', async () => {
    const ip = '10.77.0.1';
    let last = await login({}, ip);
    for (let i = 1; i < LOGIN_IP_LIMIT.max; i++) last = await login({}, ip);
    expect(last.statusCode).toBe(400);
    const blocked = await login({ email: 'a@b.co', password: 'x' }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ status: 0, message: expect.stringMatching(/Too many requests/) });
    expect((await login({}, '10.77.0.2')).statusCode).toBe(400);
  });

  it('throttles one account from one address after repeated failures, for a while only', async () => {
    const id = await createStaff('throttled@example.com', 'right-password');
    const attacker = '10.66.0.1';
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const res = await login({ email: 'throttled@example.com', password: `guess-${i}` }, attacker);
      expect(res.statusCode).toBe(401);
    }
    // Even the right password waits there: the attacker cannot tell a hit from a miss.
    const blocked = await login({ email: 'THROTTLED@example.com', password: 'right-password' }, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(
      /Too many failed sign-in attempts for this account\. Please try again in 1[45] minutes\./,
    );
    // Other accounts are not affected.
    await createStaff('bystander@example.com', 'right-password');
    const bystander = await login({ email: 'bystander@example.com', password: 'right-password' }, attacker);
    expect(bystander.statusCode).toBe(200);
    // When the window has passed the real user gets in from there too (no permanent lock-out).
    setClockForTests(() => new Date(Date.now() + 16 * 60_000));
    const after = await login({ email: 'throttled@example.com', password: 'right-password' }, attacker);
    setClockForTests(null);
    expect(after.statusCode).toBe(200);
    expect((await auditRows('login.success', 'throttled@example.com'))[0]!.actor_id).toBe(id);
  });

  it('a success clears the failure count', async () => {
    await createStaff('clears@example.com', 'right-password');
    const ip = '10.66.0.2';
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++)
      await login({ email: 'clears@example.com', password: 'nope' }, ip);
    expect((await login({ email: 'clears@example.com', password: 'right-password' }, ip)).statusCode).toBe(
      200,
    );
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++)
      await login({ email: 'clears@example.com', password: 'nope' }, ip);
    expect((await login({ email: 'clears@example.com', password: 'right-password' }, ip)).statusCode).toBe(
      200,
    );
  });

  it('refuses a deleted member with the same answer as a wrong password', async () => {
    const id = await createStaff('gone@example.com', 'right-password');
    await t.database.sql.query('update staff_users set deleted_at = now() where id = $1', [id]);
    const res = await login({ email: 'gone@example.com', password: 'right-password' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 401, message: AUTH_MSG.invalidCredentials });
  });
});

describe('tokens', () => {
  const secret = () => t.config.JWT_SECRET;
  async function adminClaims(): Promise<StaffTokenClaims> {
    const { rows } = await t.database.sql.query<{ id: number; token_version: number }>(
      "select id, token_version from staff_users where email = 'admin@demo.test'",
    );
    const { id: sid } = await createSession(t.database.db, {
      userId: rows[0]!.id,
      ip: null,
      userAgent: null,
    });
    return {
      user: { id: rows[0]!.id, name: 'Demo Admin', type: 'Admin' },
      tv: rows[0]!.token_version,
      sid,
    };
  }

  it('accepts the raw token and the Bearer form', async () => {
    const token = await t.tokenFor('Admin');
    expect((await userInfo(token)).statusCode).toBe(200);
    expect((await userInfo(`Bearer ${token}`)).statusCode).toBe(200);
    const body = (await userInfo(token)).json();
    expect(body).toEqual({
      status: 1,
      message: 'Success',
      data: { id: expect.any(Number), name: 'Demo Admin', email: 'admin@demo.test', type: 'Admin' },
    });
  });

  it('answers 401 with body status 401 without a token', async () => {
    const res = await userInfo();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 401, message: expect.any(String) });
  });

  it('refuses alg none', async () => {
    const claims = await adminClaims();
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const body = { ...claims, sub: String(claims.user.id), aud: 'staff', iat: now, exp: now + 3600 };
    for (const alg of ['none', 'None', 'NONE']) {
      const token = `${enc({ alg, typ: 'JWT' })}.${enc(body)}.`;
      expect((await userInfo(token)).statusCode).toBe(401);
    }
  });

  it('refuses a wrong signature, a tampered payload and another algorithm', async () => {
    const claims = await adminClaims();
    const other = await signStaffToken('another-secret-that-is-also-long-enough-1234', claims);
    expect((await userInfo(other)).statusCode).toBe(401);
    const good = await signStaffToken(secret(), { ...claims, user: { ...claims.user, type: 'Team' } });
    const [h, , s] = good.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, aud: 'staff', exp: 9_999_999_999 })).toString(
      'base64url',
    );
    expect((await userInfo(`${h}.${forged}.${s}`)).statusCode).toBe(401);
    const hs512 = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS512' })
      .setAudience('staff')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret()));
    expect((await userInfo(hs512)).statusCode).toBe(401);
  });

  it('refuses an expired token', async () => {
    const claims = await adminClaims();
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('staff')
      .setIssuedAt(past - 3600)
      .setExpirationTime(past)
      .sign(new TextEncoder().encode(secret()));
    expect((await userInfo(expired)).statusCode).toBe(401);
  });

  it('refuses the token of a deleted user', async () => {
    const id = await createStaff('deleted.token@example.com', 'pw-123456', 'Admin');
    const { id: sid } = await createSession(t.database.db, { userId: id, ip: null, userAgent: null });
    const token = await signStaffToken(secret(), { user: { id, name: 'X', type: 'Admin' }, tv: 0, sid });
    expect((await userInfo(token)).statusCode).toBe(200);
    await t.database.sql.query('update staff_users set deleted_at = now() where id = $1', [id]);
    // Written outside the app: the instance hears it as a notification (decision 221), within
    // milliseconds on PostgreSQL, so the answer is polled for up to 1 s.
    const started = Date.now();
    let status = (await userInfo(token)).statusCode;
    while (status !== 401 && Date.now() - started < 1_000) {
      await new Promise((r) => setTimeout(r, 10));
      status = (await userInfo(token)).statusCode;
    }
    expect(status).toBe(401);
  });

  it('takes the role from the database, not from the token', async () => {
    const id = await createStaff('role.check@example.com', 'pw-123456', 'Night Staff');
    const { id: sid } = await createSession(t.database.db, { userId: id, ip: null, userAgent: null });
    const lying = await signStaffToken(secret(), { user: { id, name: 'X', type: 'Admin' }, tv: 0, sid });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/get-team-member-list',
      headers: { authorization: lying },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 0, message: expect.any(String) });
  });
});

describe('POST /api/admin/change-password', () => {
  const change = (token: string, body: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: token },
      payload: body,
    });

  it('validates with the product messages and changes nothing', async () => {
    await createStaff('pw.validate@example.com', 'old-password');
    const token = (await login({ email: 'pw.validate@example.com', password: 'old-password' })).json()
      .jwtToken;
    const empty = await change(token, { currentPassword: 'old-password', newPassword: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(MSG.newPasswordRequired);
    const short = await change(token, { currentPassword: 'old-password', newPassword: '12345' });
    expect(short.json().message).toBe(MSG.newPasswordMin);
    const noCurrent = await change(token, { newPassword: 'new-password' });
    expect(noCurrent.json().message).toBe(`currentPassword: ${AUTH_MSG.currentPasswordRequired}`);
    const same = await change(token, { currentPassword: 'old-password', newPassword: 'old-password' });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe(AUTH_MSG.newPasswordSame);
    expect((await userInfo(token)).statusCode).toBe(200);
  });

  it('refuses a wrong current password and keeps the session', async () => {
    await createStaff('pw.wrong@example.com', 'old-password');
    const token = (await login({ email: 'pw.wrong@example.com', password: 'old-password' })).json().jwtToken;
    const res = await change(token, { currentPassword: 'not-it', newPassword: 'new-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 0, message: AUTH_MSG.currentPasswordWrong });
    expect((await userInfo(token)).statusCode).toBe(200);
    expect((await login({ email: 'pw.wrong@example.com', password: 'old-password' })).statusCode).toBe(200);
  });

  it('changes the password and revokes every older token at once', async () => {
    const id = await createStaff('pw.change@example.com', 'old-password');
    const first = (await login({ email: 'pw.change@example.com', password: 'old-password' })).json().jwtToken;
    const second = (await login({ email: 'pw.change@example.com', password: 'old-password' })).json()
      .jwtToken;
    const res = await change(`Bearer ${first}`, {
      currentPassword: 'old-password',
      newPassword: 'brand-new-pw',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 1, message: AUTH_MSG.passwordChanged });
    for (const token of [first, second]) {
      const after = await userInfo(token);
      expect(after.statusCode).toBe(401);
      expect(after.json().status).toBe(401);
    }
    expect((await login({ email: 'pw.change@example.com', password: 'old-password' })).statusCode).toBe(401);
    const fresh = await login({ email: 'pw.change@example.com', password: 'brand-new-pw' });
    expect(fresh.statusCode).toBe(200);
    expect((await userInfo(fresh.json().jwtToken)).statusCode).toBe(200);
    const { rows } = await t.database.sql.query<{ to_value: unknown; actor_id: number }>(
      "select to_value, actor_id from audit_log where action = 'password.change' and actor_id = $1",
      [id],
    );
    expect(rows).toEqual([{ actor_id: id, to_value: { result: 'changed', tokensRevoked: true } }]);
    expect(JSON.stringify(rows)).not.toContain('brand-new-pw');
  });
});
