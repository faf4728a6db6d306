import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../shared/constants.js';
import { PERMISSIONS, type Permission } from '../../shared/permissions.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';
import { hashPassword } from './passwords.js';
import { createSession, endSession } from './sessions.js';
import { type StaffTokenClaims, signStaffToken } from './tokens.js';

/**
 * The authorisation matrix: every guarded /api route, read from app.routeTable (filled by the guard as
 * routes register, so a route added later is covered without touching this file), against
 * every kind of caller. Broken identities must get 401; roles outside PERMISSIONS[permission] 403;
 * roles inside anything but 401/403.
 */

/** Staff sign-in, team, gateway and password endpoints: they must exist and be guarded. */
const STAFF_ACCESS_ENDPOINTS = [
  'GET /api/user_info',
  'POST /api/admin/change-password',
  'GET /api/admin/get-team-member-list',
  'POST /api/admin/add-team-member',
  'GET /api/admin/team-member-info/:id',
  'POST /api/admin/update-team-member',
  'PUT /api/admin/delete-team-member',
  'GET /api/admin/get-team-member-type',
  'GET /api/admin/payment-gateways',
  'POST /api/admin/payment-gateway-setting',
];

/** Routes that answer with a long-lived text/event-stream. */
const STREAMS = ['/api/admin/events'];

/** Public routes on purpose; anything else under /api must declare a permission. */
const PUBLIC_ALLOWED = [
  /^\/api\/admin\/admin-login$/,
  /^\/api\/health(\/live|\/ready)?$/,
  /^\/api\/intake\//,
  /^\/api\/front\//,
  /^\/api\/docs/,
  /^\/api\/webhooks\//,
  // The inbound webhook checks its own bearer token; the track-page answer its customer token.
  /^\/api\/inbound\/mail$/,
  /^\/api\/customer\/orders\/:orderId\/replies$/,
  // The customer's self-service checks the customer token of that order (the rating also a signed link).
  /^\/api\/customer\/orders\/:orderId(\/(self-service|cancel|rating))?$/,
  // The job API checks a machine's API key (src/server/api-keys/keys.ts).
  /^\/api\/submission-jobs\//,
];

/** A plausible value for a path parameter, so the request reaches the handler. */
function paramValue(name: string): string {
  if (/folder|ordername/i.test(name)) return 'newOrder';
  if (/^\*$|file|name/i.test(name)) return 'x';
  return '100001';
}
const fillPath = (url: string) =>
  url.replace(/:(\w+)/g, (_, name: string) => paramValue(name)).replace(/\*$/, 'x');

let t: TestApp;
const bad: Record<string, string | undefined> = {};

async function insertAdmin(email: string): Promise<{ id: number; tv: number }> {
  const { rows } = await t.database.sql.query<{ id: number; token_version: number }>(
    "insert into staff_users (name, email, password_hash, role) values ('Matrix Admin', $1, $2, 'Admin') returning id, token_version",
    [email, await hashPassword('matrix-password')],
  );
  return { id: rows[0]!.id, tv: rows[0]!.token_version };
}

beforeAll(async () => {
  t = await createTestApp();
  const secret = new TextEncoder().encode(t.config.JWT_SECRET);
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const admin = await insertAdmin('matrix-live@example.com');
  const sessionOf = async (userId: number) =>
    (await createSession(t.database.db, { userId, ip: null, userAgent: null })).id;
  const claims: StaffTokenClaims = {
    user: { id: admin.id, name: 'Matrix Admin', type: 'Admin' },
    tv: admin.tv,
    sid: await sessionOf(admin.id),
  };
  const now = Math.floor(Date.now() / 1000);

  bad.anonymous = undefined;
  bad['garbage token'] = 'not-a-jwt';
  bad['wrong signature'] = await signStaffToken('some-other-secret-of-sufficient-length-000', claims);
  bad['alg none'] =
    `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ ...claims, aud: 'staff', sub: String(admin.id), iat: now, exp: now + 3600 })}.`;
  bad.expired = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience('staff')
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 60)
    .sign(secret);
  // Revoked: a valid Admin token issued before the token version moved on (password change).
  const revoked = await insertAdmin('matrix-revoked@example.com');
  bad.revoked = await signStaffToken(t.config.JWT_SECRET, {
    user: { id: revoked.id, name: 'Matrix Admin', type: 'Admin' },
    tv: revoked.tv,
    sid: await sessionOf(revoked.id),
  });
  await t.database.sql.query('update staff_users set token_version = token_version + 1 where id = $1', [
    revoked.id,
  ]);
  // Deleted: a valid Admin token of a member who was soft-deleted afterwards.
  const deleted = await insertAdmin('matrix-deleted@example.com');
  bad['deleted user'] = await signStaffToken(t.config.JWT_SECRET, {
    user: { id: deleted.id, name: 'Matrix Admin', type: 'Admin' },
    tv: deleted.tv,
    sid: await sessionOf(deleted.id),
  });
  await t.database.sql.query('update staff_users set deleted_at = now() where id = $1', [deleted.id]);
  // Ended: a valid token whose server-side session was ended (logout).
  const endedSid = await sessionOf(admin.id);
  bad['ended session'] = await signStaffToken(t.config.JWT_SECRET, { ...claims, sid: endedSid });
  await endSession(t.database.db, endedSid, 'logout');
  // Another user's session id in an otherwise valid token.
  bad['foreign session'] = await signStaffToken(t.config.JWT_SECRET, {
    ...claims,
    sid: await sessionOf(deleted.id),
  });
  // Sanity: the same admin's good token passes, so a 401 below is the token's fault, not the route's.
  const good = await signStaffToken(t.config.JWT_SECRET, claims);
  const me = await t.app.inject({ method: 'GET', url: '/api/user_info', headers: { authorization: good } });
  expect(me.statusCode).toBe(200);
});
afterAll(() => t.close());

const guarded = () => t.app.routeTable.filter((r) => r.permission);

function request(method: string, url: string, authorization?: string) {
  const write = !['GET', 'DELETE'].includes(method);
  return t.app.inject({
    method: method as 'GET',
    url: fillPath(url),
    headers: {
      ...(authorization ? { authorization } : {}),
      ...(write ? { 'content-type': 'application/json' } : {}),
    },
    ...(write ? { payload: '{}' } : {}),
  });
}

describe('authorisation matrix', () => {
  it('knows every staff-access endpoint and nothing under /api is public by accident', () => {
    const table = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    for (const endpoint of STAFF_ACCESS_ENDPOINTS) expect(table).toContain(endpoint);
    for (const r of guarded()) expect(Object.keys(PERMISSIONS)).toContain(r.permission);
    const strayPublic = t.app.routeTable
      .filter((r) => !r.permission && !PUBLIC_ALLOWED.some((re) => re.test(r.url)))
      .map((r) => `${r.method} ${r.url}`);
    expect(strayPublic).toEqual([]);
  });

  it('answers 401 to every broken identity on every guarded route', async () => {
    const failures: string[] = [];
    for (const route of guarded()) {
      for (const [label, token] of Object.entries(bad)) {
        const res = await request(route.method, route.url, token);
        const body = res.headers['content-type']?.toString().includes('json') ? res.json() : {};
        if (res.statusCode !== 401 || body.status !== 401) {
          failures.push(
            `${label} -> ${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('answers 403 to roles outside the permission table and lets the others through', async () => {
    const failures: string[] = [];
    let allowedChecks = 0;
    // One session per role for the whole walk (each token is a session row).
    const tokens = new Map<string, string>();
    for (const role of ROLES) tokens.set(role, await t.tokenFor(role as DemoRole));
    for (const route of guarded()) {
      const allowed = PERMISSIONS[route.permission as Permission] as readonly string[];
      for (const role of ROLES) {
        // An allowed event stream stays open (it never answers): its 401/403 cases are checked above.
        if (STREAMS.includes(route.url) && allowed.includes(role)) continue;
        // Logout ends the session it is called with: give it a session of its own.
        const token = route.url.endsWith('/logout') ? await t.tokenFor(role as DemoRole) : tokens.get(role)!;
        const res = await request(route.method, route.url, token);
        const where = `${role} -> ${route.method} ${route.url} [${route.permission}]: ${res.statusCode}`;
        if (allowed.includes(role)) {
          allowedChecks += 1;
          if (res.statusCode === 401 || res.statusCode === 403)
            failures.push(`${where} but the role is allowed`);
        } else if (res.statusCode !== 403 || res.json().status !== 0) {
          failures.push(`${where}, expected 403 with status 0`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(allowedChecks).toBeGreaterThanOrEqual(STAFF_ACCESS_ENDPOINTS.length);
  });

  it('the matrix reflects the table: Night Staff is refused team and gateways, Telecaller may read them', async () => {
    const night = await t.tokenFor('Night Staff');
    const tele = await t.tokenFor('Telecaller');
    expect((await request('GET', '/api/admin/get-team-member-list', night)).statusCode).toBe(403);
    expect((await request('GET', '/api/admin/get-team-member-list', tele)).statusCode).toBe(200);
    expect((await request('POST', '/api/admin/payment-gateway-setting', tele)).statusCode).toBe(403);
    expect((await request('POST', '/api/admin/payment-gateway-setting', night)).statusCode).toBe(403);
  });
});
