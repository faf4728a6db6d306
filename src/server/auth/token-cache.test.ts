import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { hashPassword } from './passwords.js';
import { endSession } from './sessions.js';
import { MAX_VERIFIED_TOKENS, StaffCache } from './staff-cache.js';
import type { VerifiedStaffToken } from './tokens.js';

/**
 * Verified tokens are kept per process (decision 341): bounded, least recently used out first, and
 * dropped — on every instance — when their session ends (logout, revocation) or their user changes
 * (password change, deactivation). A dropped token is verified again, and refused when revoked.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const OK_URL = '/api/admin/get-folder-count';
const get = (app: TestApp, token: string) =>
  app.app.inject({ method: 'GET', url: OK_URL, headers: { authorization: token } });

let ipCounter = 0;
async function signIn(email: string, password: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/admin-login',
    payload: { email, password },
    remoteAddress: `10.9.0.${++ipCounter}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json().jwtToken as string;
}

async function newStaff(email: string, password: string): Promise<number> {
  const { rows } = await t.database.sql.query<{ id: number }>(
    `insert into staff_users (name, email, password_hash, role) values ('Token Cache', $1, $2, 'Team') returning id`,
    [email, await hashPassword(password)],
  );
  return rows[0]!.id;
}

function sessionOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string };
  return payload.sid;
}

/** The change reaches a cache through PostgreSQL's notification on another instance: poll briefly. */
async function until(check: () => boolean | Promise<boolean>, ms = 1_000): Promise<boolean> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

describe('the verified-token cache', () => {
  it('keeps a token after its first request and drops it at logout; the token is refused after', async () => {
    await newStaff('token.logout@example.com', 'first-password');
    const token = await signIn('token.logout@example.com', 'first-password');
    const before = t.app.staffCache.tokenCount;
    expect((await get(t, token)).statusCode).toBe(200);
    expect((await get(t, token)).statusCode).toBe(200);
    expect(t.app.staffCache.tokenCount).toBe(before + 1);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { authorization: token },
    });
    expect(out.statusCode).toBe(200);
    expect(t.app.staffCache.tokenCount).toBe(before);
    expect((await get(t, token)).statusCode).toBe(401);
  });

  it('drops every token of a user whose password changes', async () => {
    await newStaff('token.password@example.com', 'first-password');
    const first = await signIn('token.password@example.com', 'first-password');
    const second = await signIn('token.password@example.com', 'first-password');
    expect((await get(t, first)).statusCode).toBe(200);
    expect((await get(t, second)).statusCode).toBe(200);
    const before = t.app.staffCache.tokenCount;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: first },
      payload: { currentPassword: 'first-password', newPassword: 'second-password' },
    });
    expect(res.statusCode).toBe(200);
    expect(await until(() => t.app.staffCache.tokenCount <= before - 2)).toBe(true);
    expect((await get(t, first)).statusCode).toBe(401);
    expect((await get(t, second)).statusCode).toBe(401);
  });

  it('drops a token whose session is ended outside a request (revocation, session end)', async () => {
    await newStaff('token.ended@example.com', 'first-password');
    const token = await signIn('token.ended@example.com', 'first-password');
    expect((await get(t, token)).statusCode).toBe(200);
    const before = t.app.staffCache.tokenCount;
    await endSession(t.database.db, sessionOf(token), 'revoked');
    expect(t.app.staffCache.tokenCount).toBe(before - 1);
    expect((await get(t, token)).statusCode).toBe(401);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'another instance drops its kept token when a session ends or a password changes elsewhere',
    async () => {
      const other = await createTestApp({}, { sameDatabaseAs: t });
      try {
        await newStaff('token.other@example.com', 'first-password');
        const ended = await signIn('token.other@example.com', 'first-password');
        const changed = await signIn('token.other@example.com', 'first-password');
        expect((await get(other, ended)).statusCode).toBe(200);
        expect((await get(other, changed)).statusCode).toBe(200);
        const kept = other.app.staffCache.tokenCount;
        // Ended by a direct write, as another instance would commit it: only the notification tells.
        await t.database.sql.query(`update staff_sessions set ended_at = now() where id = $1`, [
          sessionOf(ended),
        ]);
        expect(await until(() => other.app.staffCache.tokenCount <= kept - 2)).toBe(true);
        expect((await get(other, ended)).statusCode).toBe(401);
        expect((await get(other, changed)).statusCode).toBe(200);
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/change-password',
          headers: { authorization: changed },
          payload: { currentPassword: 'first-password', newPassword: 'second-password' },
        });
        expect(await until(async () => (await get(other, changed)).statusCode === 401)).toBe(true);
      } finally {
        await other.close();
      }
    },
  );
});

describe('StaffCache.verify', () => {
  const claims = (n: number, expInS = 3_600): VerifiedStaffToken => ({
    user: { id: n, name: `u${n}`, type: 'Team' },
    tv: 1,
    sid: `s${n}`,
    exp: Math.floor(Date.now() / 1000) + expInS,
  });

  it('verifies a token once, again after it expires, and never keeps an invalid one', async () => {
    const cache = new StaffCache();
    try {
      let calls = 0;
      const verify = (c: VerifiedStaffToken | null) => async () => {
        calls++;
        return c;
      };
      await cache.verify('a', verify(claims(1)));
      await cache.verify('a', verify(claims(1)));
      expect(calls).toBe(1);
      await cache.verify('expired', verify(claims(2, -1)));
      await cache.verify('expired', verify(claims(2, -1)));
      expect(calls).toBe(3);
      expect(await cache.verify('bad', verify(null))).toBeNull();
      expect(await cache.verify('bad', verify(null))).toBeNull();
      expect(calls).toBe(5);
      cache.forgetUser(1);
      await cache.verify('a', verify(claims(1)));
      expect(calls).toBe(6);
    } finally {
      cache.close();
    }
  });

  it('holds at most MAX_VERIFIED_TOKENS, dropping the least recently used', async () => {
    const cache = new StaffCache();
    try {
      let calls = 0;
      const verify = (n: number) => async () => {
        calls++;
        return claims(n);
      };
      for (let i = 0; i < MAX_VERIFIED_TOKENS; i++) await cache.verify(`t${i}`, verify(i));
      await cache.verify('t0', verify(0)); // used again: now the most recent
      await cache.verify('one-more', verify(-1));
      expect(cache.tokenCount).toBe(MAX_VERIFIED_TOKENS);
      calls = 0;
      await cache.verify('t0', verify(0));
      expect(calls).toBe(0);
      await cache.verify('t1', verify(1));
      expect(calls).toBe(1);
    } finally {
      cache.close();
    }
  });
});
