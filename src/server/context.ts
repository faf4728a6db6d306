import type { Config } from './config.js';
import type { Role } from '../shared/constants.js';
import type { Database, Db } from './db/client.js';

/**
 * What every route module gets: configuration, the database and what the order lists keep (`lists`,
 * added by order-lists/read-list.ts, so this floor module imports no feature).
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
}

export interface StaffIdentity {
  id: number;
  name: string;
  type: Role;
  email: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** The signed-in staff member, set by the auth guard from the token (never from the body). */
    staff?: StaffIdentity;
  }
  interface FastifyContextConfig {
    /** Permission of the shared table this route needs; `public` routes need none. */
    permission?: import('../shared/permissions.js').Permission;
    public?: boolean;
  }
}
