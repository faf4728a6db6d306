import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { softDeleteMember, updateMember } from '../team/queries.js';
import { endUserSessions } from './sessions.js';
import { STAFF_CACHE_TTL_MS } from './staff-cache.js';

/**
 * The guard's staff lookup is cached per session for a few seconds (decision 221). Every change that
 * matters takes effect on the next request: role, deactivation, session end, password (token version).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const TEAM_ONLY_FORBIDDEN = '/api/admin/audit-log';

async function teamUser(): Promise<{ id: number; role: string }> {
  const { rows } = await t.database.sql.query<{ id: number; role: string }>(
    `select id, role from staff_users where role = 'Team' and deleted_at is null order by id limit 1`,
  );
  return rows[0]!;
}

const call = (app: TestApp, token: string, url = TEAM_ONLY_FORBIDDEN) =>
  app.app.inject({ method: 'GET', url, headers: { authorization: token } });

/**
 * A change written outside this process reaches the cache as a notification: at once on PGlite, within
 * milliseconds on PostgreSQL (the listening connection), so the answer is polled for up to 1 s.
 */
async function eventually(app: TestApp, token: string, url: string, status: number): Promise<number> {
  const started = Date.now();
  let got = (await call(app, token, url)).statusCode;
  while (got !== status && Date.now() - started < 1_000) {
    await new Promise((r) => setTimeout(r, 10));
    got = (await call(app, token, url)).statusCode;
  }
  return got;
}

describe('staff lookup cache', () => {
  it('answers from the cache within the TTL (a change not announced is not seen)', async () => {
    const u = await teamUser();
    const token = await t.tokenFor('Team');
    expect((await call(t, token)).statusCode).toBe(403);
    // Without the trigger nobody hears the change: the cached row (Team) still answers.
    await t.database.sql.query('alter table staff_users disable trigger staff_users_cache_notify');
    try {
      await t.database.sql.query(`update staff_users set role = 'Admin' where id = $1`, [u.id]);
      expect((await call(t, token)).statusCode).toBe(403);
    } finally {
      await t.database.sql.query(`update staff_users set role = 'Team' where id = $1`, [u.id]);
      await t.database.sql.query('alter table staff_users enable trigger staff_users_cache_notify');
    }
    expect(STAFF_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
  });

  it('a role change through the app takes effect on the next request on this instance', async () => {
    const u = await teamUser();
    const token = await t.tokenFor('Team');
    expect((await call(t, token)).statusCode).toBe(403);
    const { rows } = await t.database.sql.query<{ name: string; email: string }>(
      'select name, email from staff_users where id = $1',
      [u.id],
    );
    const member = rows[0]!;
    // Without revoking the sessions, so the same token shows the new role at once.
    await updateMember(t.database.db, u.id, { ...member, role: 'Admin' }, false);
    try {
      expect((await call(t, token)).statusCode).toBe(200);
    } finally {
      await updateMember(t.database.db, u.id, { ...member, role: 'Team' }, false);
    }
    expect((await call(t, token)).statusCode).toBe(403);
  });

  it('a role change written outside the app is heard through the cache channel', async () => {
    const u = await teamUser();
    const token = await t.tokenFor('Team');
    expect((await call(t, token)).statusCode).toBe(403);
    await t.database.sql.query(`update staff_users set role = 'Admin' where id = $1`, [u.id]);
    try {
      expect(await eventually(t, token, TEAM_ONLY_FORBIDDEN, 200)).toBe(200);
    } finally {
      await t.database.sql.query(`update staff_users set role = 'Team' where id = $1`, [u.id]);
    }
    expect(await eventually(t, token, TEAM_ONLY_FORBIDDEN, 403)).toBe(403);
  });

  it('deactivation and an ended session take effect on the next request; a token version raised outside, once heard', async () => {
    const u = await teamUser();
    const ok = '/api/admin/get-folder-count';
    let token = await t.tokenFor('Team');
    expect((await call(t, token, ok)).statusCode).toBe(200);
    await softDeleteMember(t.database.db, u.id);
    try {
      expect((await call(t, token, ok)).statusCode).toBe(401);
    } finally {
      // Back as it was, token version included (the test's tokens are signed with the first one).
      await t.database.sql.query(
        'update staff_users set deleted_at = null, token_version = token_version - 1 where id = $1',
        [u.id],
      );
    }

    token = await t.tokenFor('Team');
    expect((await call(t, token, ok)).statusCode).toBe(200);
    await endUserSessions(t.database.db, u.id, 'test');
    expect((await call(t, token, ok)).statusCode).toBe(401);

    token = await t.tokenFor('Team');
    expect((await call(t, token, ok)).statusCode).toBe(200);
    await t.database.sql.query('update staff_users set token_version = token_version + 1 where id = $1', [
      u.id,
    ]);
    try {
      expect(await eventually(t, token, ok, 401)).toBe(401);
    } finally {
      await t.database.sql.query('update staff_users set token_version = token_version - 1 where id = $1', [
        u.id,
      ]);
    }
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    'another instance on the same database drops its cached row when it hears the change',
    async () => {
      const other = await createTestApp({}, { sameDatabaseAs: t });
      try {
        const u = await teamUser();
        const token = await t.tokenFor('Team');
        expect((await call(other, token)).statusCode).toBe(403);
        await t.database.sql.query(`update staff_users set role = 'Admin' where id = $1`, [u.id]);
        try {
          // The notification travels through PostgreSQL: milliseconds, always well within the TTL.
          const started = Date.now();
          let status = 403;
          while (status !== 200 && Date.now() - started < STAFF_CACHE_TTL_MS) {
            await new Promise((r) => setTimeout(r, 20));
            status = (await call(other, token)).statusCode;
          }
          expect(status).toBe(200);
          expect(Date.now() - started).toBeLessThan(1_000);
        } finally {
          await t.database.sql.query(`update staff_users set role = 'Team' where id = $1`, [u.id]);
        }
      } finally {
        await other.close();
      }
    },
  );
});
