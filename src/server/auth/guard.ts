import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { can } from '../../shared/permissions.js';
import { staffUsers } from '../db/schema.js';
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
  }
}

/** Resolves the staff member of a request from its token; throws 401 for any bad, expired or revoked token. */
export async function authenticate(app: FastifyInstance, request: FastifyRequest) {
  const token = tokenFromHeader(request.headers.authorization);
  if (!token) throw unauthorized('Unauthorized: please sign in.');
  const claims = await verifyStaffToken(app.ctx.config.JWT_SECRET, token);
  if (!claims) throw unauthorized('Your session has expired or is invalid. Please sign in again.');
  const [row] = await app.ctx.db
    .select({
      id: staffUsers.id,
      name: staffUsers.name,
      role: staffUsers.role,
      email: staffUsers.email,
      tokenVersion: staffUsers.tokenVersion,
    })
    .from(staffUsers)
    .where(and(eq(staffUsers.id, claims.user.id), isNull(staffUsers.deletedAt)))
    .limit(1);
  if (!row || row.tokenVersion !== claims.tv) {
    throw unauthorized('Your session has expired or is invalid. Please sign in again.');
  }
  return { id: row.id, name: row.name, type: row.role, email: row.email };
}

export const authGuard = fp(async (app: FastifyInstance) => {
  app.decorate('routeTable', [] as RouteEntry[]);
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
    const staff = await authenticate(app, request);
    request.staff = staff;
    if (!can(staff.type, config.permission)) throw forbidden();
  });
});

/** The signed-in staff member of a guarded route (set by the guard). */
export function staffOf(request: FastifyRequest) {
  if (!request.staff) throw unauthorized();
  return request.staff;
}
