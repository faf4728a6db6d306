import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can } from '../../shared/permissions.js';
import { staffSessions, staffUsers } from '../db/schema.js';
import { onCacheEvent } from '../db/cache-events.js';
import { sessionProblem, touchSession } from './sessions.js';
import { StaffCache, type StaffRow } from './staff-cache.js';
import { forbidden, unauthorized } from '../http/errors.js';
import { tokenFromHeader, verifyStaffToken } from './tokens.js';

/** Every /api route must say who may call it: a permission of the shared table, or `public`. */
export interface RouteEntry {
  method: string;
  url: string;
  permission?: string | undefined;
  public?: boolean | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its permission: the authorisation matrix test walks this. */
    routeTable: RouteEntry[];
    /** The staff lookups of this instance, cached for a few seconds (decision 221). */
    staffCache: StaffCache;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The server-side session of the request's token (set by the guard). */
    sessionId?: string;
  }
  interface FastifyContextConfig {
    /** Reachable by a session that still has a required step to finish (password change, 2FA setup). */
    allowPending?: boolean;
  }
}

const SESSION_GONE = 'Your session has expired or is invalid. Please sign in again.';

/** What a session with a required step hears from every other route. */
export const PENDING_MSG: Record<string, string> = {
  password: 'Please change your password before you continue.',
  'two-factor-setup': 'Please set up two-factor sign-in before you continue.',
};

const uncached = new StaffCache(0);

function staffCacheOf(app: FastifyInstance): StaffCache {
  return app.hasDecorator('staffCache') ? app.staffCache : uncached;
}

/**
 * Resolves the staff member of a request from its token and its server-side session; throws 401 for any
 * bad, expired or revoked token and for a session that was ended, went idle or passed its absolute end.
 */
export async function authenticate(app: FastifyInstance, request: FastifyRequest) {
  const token = tokenFromHeader(request.headers.authorization);
  if (!token) throw unauthorized('Unauthorized: please sign in.');
  const cache = staffCacheOf(app);
  const claims = await cache.verify(token, () => verifyStaffToken(app.ctx.config.JWT_SECRET, token));
  if (!claims) throw unauthorized(SESSION_GONE);
  const row = await cache.get(claims.sid, claims.user.id, () => lookupStaff(app, claims));
  if (!row || row.tokenVersion !== claims.tv) throw unauthorized(SESSION_GONE);
  if (sessionProblem(row.session, app.ctx.config.SESSION_IDLE_HOURS)) throw unauthorized(SESSION_GONE);
  await touchSession(app.ctx.db, row.session);
  return {
    staff: { id: row.id, name: row.name, type: row.role, email: row.email },
    sessionId: row.session.id,
    pending: row.session.pending,
  };
}

/** The staff member and session of a token, from the database. */
async function lookupStaff(
  app: FastifyInstance,
  claims: NonNullable<Awaited<ReturnType<typeof verifyStaffToken>>>,
): Promise<StaffRow | undefined> {
  const [row] = await app.ctx.db
    .select({
      id: staffUsers.id,
      name: staffUsers.name,
      role: staffUsers.role,
      email: staffUsers.email,
      tokenVersion: staffUsers.tokenVersion,
      session: {
        id: staffSessions.id,
        userId: staffSessions.userId,
        lastSeenAt: staffSessions.lastSeenAt,
        expiresAt: staffSessions.expiresAt,
        endedAt: staffSessions.endedAt,
        pending: staffSessions.pending,
      },
    })
    .from(staffUsers)
    .innerJoin(staffSessions, eq(staffSessions.userId, staffUsers.id))
    .where(
      and(eq(staffUsers.id, claims.user.id), isNull(staffUsers.deletedAt), eq(staffSessions.id, claims.sid)),
    )
    .limit(1);
  return row;
}

export const authGuard = fp(async (app: FastifyInstance) => {
  app.decorate('routeTable', [] as RouteEntry[]);
  // The staff lookup cached per session for a few seconds, dropped on every change (decision 221).
  const cache = new StaffCache();
  app.decorate('staffCache', cache);
  const unlisten = await onCacheEvent(app.ctx.database, (payload) => {
    if (payload.startsWith('staff:')) cache.forgetUser(Number(payload.slice(6)));
  });
  app.addHook('onClose', async () => {
    await unlisten();
    cache.close();
  });
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!url.startsWith('/api/')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const config = route.config as { permission?: string; public?: boolean } | undefined;
      if (!config?.permission && !config?.public) {
        throw new Error(`Route ${method} ${url} declares neither a permission nor public: true`);
      }
      app.routeTable.push({ method, url, permission: config.permission, public: config.public });
    }
  });

  // onRequest: authorisation comes before body parsing and validation, so strangers learn nothing.
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!config?.permission) return;
    const { staff, sessionId, pending } = await authenticate(app, request);
    request.staff = staff;
    request.sessionId = sessionId;
    if (pending && !config.allowPending) throw forbidden(PENDING_MSG[pending] ?? PENDING_MSG.password);
    if (!can(staff.type, config.permission)) throw forbidden();
  });
});

/** The session of a guarded route's token (set by the guard). */
export function sessionIdOf(request: FastifyRequest): string {
  if (!request.sessionId) throw unauthorized();
  return request.sessionId;
}

/** The signed-in staff member of a guarded route (set by the guard). */
export function staffOf(request: FastifyRequest) {
  if (!request.staff) throw unauthorized();
  return request.staff;
}
