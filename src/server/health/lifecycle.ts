import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Where an instance is in its life: `migrating` (listening, database not ready yet), `ready`, or
 * `draining` (SIGTERM received: the load balancer should stop sending, requests in flight finish).
 * An app built by tests is ready at once; main.ts walks it through the phases.
 */
export type Phase = 'migrating' | 'ready' | 'draining';

export interface Lifecycle {
  phase: Phase;
}

/** Keyed by the app's context object, which the root app and every plugin scope share. */
const lifecycles = new WeakMap<object, Lifecycle>();

export function lifecycleOf(app: FastifyInstance): Lifecycle {
  const known = lifecycles.get(app.ctx);
  if (known) return known;
  const life: Lifecycle = { phase: 'ready' };
  lifecycles.set(app.ctx, life);
  return life;
}

export const STARTING_MESSAGE = 'The service is starting. Please try again in a moment.';

/**
 * While migrating, every request but the health checks and metrics answers 503: the tables it needs may
 * not exist yet. Draining keeps serving (in-flight work and stragglers) while readiness reports false.
 */
export const lifecycleGate = fp(async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    if (lifecycleOf(app).phase !== 'migrating') return;
    const url = request.url;
    if (url.startsWith('/api/health') || url === '/metrics' || url.startsWith('/metrics?')) return;
    return reply.code(503).header('retry-after', '5').send({ status: 0, message: STARTING_MESSAGE });
  });
});
