import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { setClockForTests } from './clock.js';
import { hashPassword } from './passwords.js';
import { LOGIN_ACCOUNT_LIMIT, LOGIN_FAILURE_LIMIT } from './routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => setClockForTests(null));

async function createStaff(email: string, password: string, role = 'Team') {
  const { rows } = await t.database.sql.query<{ id: number }>(
    "insert into staff_users (name, email, password_hash, role) values ('Sec Test', $1, $2, $3) returning id",
    [email, await hashPassword(password), role],
  );
  return rows[0]!.id;
}

const login = (app: TestApp, body: object, ip: string, headers: Record<string, string> = {}) =>
  app.app.inject({
    method: 'POST',
    url: '/api/admin/admin-login',
    payload: body,
    remoteAddress: ip,
    headers,
  });

async function failures(app: TestApp, email: string) {
  const { rows } = await app.database.sql.query<{ ip: string }>(
    "select ip from audit_log where action = 'login.failure' and actor_email = $1 order by id",
    [email],
  );
  return rows;
}

describe('login throttle counts attempts before the password check', () => {
  it('40 parallel wrong logins and the right one get at most the limit of password checks', async () => {
    await createStaff('race@example.com', 'the-right-password');
    const ip = '10.50.0.1';
    const wrong = Array.from({ length: 40 }, (_, i) =>
      login(t, { email: 'race@example.com', password: `wrong-${i}` }, ip),
    );
    const right = login(t, { email: 'race@example.com', password: 'the-right-password' }, ip);
    const answers = await Promise.all([...wrong, right]);
    const checked = answers.filter((r) => r.statusCode === 401 || r.statusCode === 200);
    expect(checked.length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
    expect(answers.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(
      41 - LOGIN_FAILURE_LIMIT,
    );
    expect((await failures(t, 'race@example.com')).length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
    // The right password came last in the burst: past the limit, it is not even checked.
    expect(answers.at(-1)!.statusCode).toBe(429);
  });
});

describe('account lockout cannot be used as a weapon', () => {
  it('failures from one address do not lock the owner out on another', async () => {
    await createStaff('victim@example.com', 'owner-password');
    for (let i = 0; i < LOGIN_FAILURE_LIMIT + 3; i++) {
      await login(t, { email: 'victim@example.com', password: `guess-${i}` }, '203.0.113.66');
    }
    const attacker = await login(
      t,
      { email: 'victim@example.com', password: 'owner-password' },
      '203.0.113.66',
    );
    expect(attacker.statusCode).toBe(429);
    const owner = await login(
      t,
      { email: 'victim@example.com', password: 'owner-password' },
      '198.51.100.20',
    );
    expect(owner.statusCode).toBe(200);
    expect(owner.json().status).toBe(1);
  });

  it('a slower per-account ceiling stops guessing spread over many addresses', async () => {
    await createStaff('spread@example.com', 'owner-password');
    const perIp = LOGIN_FAILURE_LIMIT;
    const addresses = Math.ceil(LOGIN_ACCOUNT_LIMIT / perIp);
    for (let a = 0; a < addresses; a++) {
      await Promise.all(
        Array.from({ length: perIp }, (_, i) =>
          login(t, { email: 'spread@example.com', password: `g-${a}-${i}` }, `192.0.2.${a + 1}`),
        ),
      );
    }
    expect((await failures(t, 'spread@example.com')).length).toBe(LOGIN_ACCOUNT_LIMIT);
    const next = await login(t, { email: 'spread@example.com', password: 'owner-password' }, '192.0.2.200');
    expect(next.statusCode).toBe(429);
    // The ceiling is an hour: afterwards the owner signs in again.
    setClockForTests(() => new Date(Date.now() + 61 * 60_000));
    const later = await login(t, { email: 'spread@example.com', password: 'owner-password' }, '192.0.2.200');
    expect(later.statusCode).toBe(200);
  });
});

describe('TRUST_PROXY takes a hop count or proxy addresses, never any X-Forwarded-For', () => {
  it('with one trusted hop the client is the entry the proxy added, not a forged one', async () => {
    for (const value of ['1', 'true']) {
      const app = await createTestApp({ TRUST_PROXY: value });
      try {
        await login(app, { email: 'nobody@example.com', password: 'x' }, '10.0.0.5', {
          'x-forwarded-for': '6.6.6.6, 203.0.113.9',
        });
        expect((await failures(app, 'nobody@example.com')).map((r) => r.ip)).toEqual(['203.0.113.9']);
      } finally {
        await app.close();
      }
    }
  });

  it('with a proxy list only listed proxies are believed', async () => {
    const app = await createTestApp({ TRUST_PROXY: '10.0.0.0/8, 203.0.113.9' });
    try {
      // Through the listed proxies: the first address they did not add themselves.
      await login(app, { email: 'list@example.com', password: 'x' }, '10.1.2.3', {
        'x-forwarded-for': '6.6.6.6, 198.51.100.7, 203.0.113.9',
      });
      // Straight from an unlisted address: its header is ignored.
      await login(app, { email: 'list@example.com', password: 'x' }, '192.0.2.50', {
        'x-forwarded-for': '6.6.6.6',
      });
      expect((await failures(app, 'list@example.com')).map((r) => r.ip)).toEqual([
        '198.51.100.7',
        '192.0.2.50',
      ]);
    } finally {
      await app.close();
    }
  });

  it('by default the header is ignored, and a wrong value stops start-up naming the variable', async () => {
    await login(t, { email: 'direct@example.com', password: 'x' }, '192.0.2.77', {
      'x-forwarded-for': '6.6.6.6',
    });
    expect((await failures(t, 'direct@example.com')).map((r) => r.ip)).toEqual(['192.0.2.77']);
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0.1,not-an-ip', '1.2.3']) {
      expect(() => loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), TRUST_PROXY: bad })).toThrow(
        ConfigError,
      );
      expect(() => loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), TRUST_PROXY: bad })).toThrow(
        /TRUST_PROXY/,
      );
    }
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), TRUST_PROXY: '2' }).TRUST_PROXY).toBe(
      2,
    );
  });
});

describe('logout ends the session on the server', () => {
  it('a token used after POST /api/admin/logout answers 401', async () => {
    await createStaff('leaver@example.com', 'leaver-password');
    const res = await login(t, { email: 'leaver@example.com', password: 'leaver-password' }, '10.60.0.1');
    const token = res.json().jwtToken as string;
    const me = () =>
      t.app.inject({ method: 'GET', url: '/api/user_info', headers: { authorization: token } });
    expect((await me()).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { authorization: token },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ status: 1, message: 'You have been signed out.' });
    const after = await me();
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ status: 401, message: expect.stringMatching(/sign in again/) });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { authorization: token },
    });
    expect(again.statusCode).toBe(401);
    const { rows } = await t.database.sql.query<{ end_reason: string }>(
      "select s.end_reason from staff_sessions s join staff_users u on u.id = s.user_id where u.email = 'leaver@example.com'",
    );
    expect(rows).toEqual([{ end_reason: 'logout' }]);
  });

  it('refuses a logout without a token or with a forged one, and ends nothing', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/admin/logout' });
    expect(none.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { authorization: `${await t.tokenFor('Admin')}x` },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.body).not.toMatch(/stack|at .*\.ts/);
  });
});
