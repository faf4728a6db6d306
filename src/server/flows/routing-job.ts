import type { FastifyInstance } from 'fastify';
import { releaseIdleOrders } from './idle-release.js';
import { routeOrders } from './route-orders.js';

/** How often each instance runs the idle release and a routing pass: well within the promised 60 s. */
const ROUTING_INTERVAL_MS = 15_000;
/** The idle release runs on every this many passes (once a minute). */
const IDLE_EVERY = 4;

/** The routing worker of one instance: idle release, then routing, every few seconds. */
export async function startRouting(app: FastifyInstance): Promise<() => Promise<void>> {
  let running: Promise<unknown> | null = null;
  let tick = 0;
  const timer = setInterval(() => {
    if (running) return;
    const now = new Date();
    // The idle release once a minute (it reads every held order), routing every pass.
    const release = tick++ % IDLE_EVERY === 0 ? releaseIdleOrders(app.ctx.db, now) : Promise.resolve([]);
    running = release
      .then(() => routeOrders(app.ctx.db, now))
      .catch((err) => app.log.warn({ err }, 'routing pass failed'))
      .finally(() => {
        running = null;
      });
  }, ROUTING_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
