import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './health/routes.js';
import { intakeRoutes } from './intake/routes.js';
import { reportRoutes } from './reports/routes.js';

/** Every area's routes, registered under /api by app.ts. One line per area. */
export const areaRoutes: FastifyPluginAsync[] = [healthRoutes, intakeRoutes, reportRoutes];
