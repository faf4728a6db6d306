import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MailProvider } from '../../shared/constants.js';

/**
 * Prometheus metrics of this process (prom-client). One registry per process: a scrape reads one
 * instance; Prometheus sums the instances. Values that live in the database (outbox depth, job lag) are
 * read at scrape time.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  registers: [registry],
});

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

const openStreams = new Gauge({
  name: 'event_streams_open',
  help: 'Live event streams (server-sent events) open on this instance',
  registers: [registry],
});

const mailFailures = new Counter({
  name: 'mail_delivery_failures_total',
  help: 'Failed mail delivery attempts, by provider and whether the failure was final',
  labelNames: ['provider', 'final'] as const,
  registers: [registry],
});

const mailSent = new Counter({
  name: 'mail_delivered_total',
  help: 'Mails delivered, by provider',
  labelNames: ['provider'] as const,
  registers: [registry],
});

const mailLatency = new Histogram({
  name: 'mail_delivery_latency_seconds',
  help: 'From the mail being queued (mail_log row written) to its delivery, by provider',
  labelNames: ['provider'] as const,
  buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [registry],
});

const outbox = new Gauge({
  name: 'mail_outbox_messages',
  help: 'Mails in the outbox not yet delivered, by status (queued, sending, retrying)',
  labelNames: ['status'] as const,
  registers: [registry],
});

const jobLag = new Gauge({
  name: 'job_queue_lag_seconds',
  help: 'Age of the oldest due job waiting in each pg-boss queue (0 when none waits)',
  labelNames: ['queue'] as const,
  registers: [registry],
});

const jobWaiting = new Gauge({
  name: 'job_queue_waiting',
  help: 'Due jobs waiting in each pg-boss queue',
  labelNames: ['queue'] as const,
  registers: [registry],
});

const dbPool = new Gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL pool connections by state (total, idle, waiting clients, max)',
  labelNames: ['state'] as const,
  registers: [registry],
});

/** Call when a live event stream opens; call the answer when it closes (once). */
export function trackEventStream(): () => void {
  openStreams.inc();
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    openStreams.dec();
  };
}

/** A delivered mail: its provider and when it was queued. */
export function recordMailDelivered(provider: MailProvider, queuedAt: Date): void {
  mailSent.inc({ provider });
  mailLatency.observe({ provider }, Math.max(0, (Date.now() - queuedAt.getTime()) / 1000));
}

export function recordMailFailure(provider: MailProvider, final: boolean): void {
  mailFailures.inc({ provider, final: String(final) });
}

/** Reads the database-held values of one app into the gauges (at scrape time). */
async function collectFromDatabase(app: FastifyInstance): Promise<void> {
  const { database } = app.ctx;
  const pool = database.poolStats?.();
  if (pool) for (const [state, value] of Object.entries(pool)) dbPool.set({ state }, value);

  outbox.reset();
  for (const status of ['queued', 'sending', 'retrying']) outbox.set({ status }, 0);
  const { rows } = await database.sql.query<{ status: string; n: number }>(
    `select status, count(*)::int n from mail_log where status in ('queued', 'sending', 'retrying') group by status`,
  );
  for (const r of rows) outbox.set({ status: r.status }, r.n);

  jobLag.reset();
  jobWaiting.reset();
  try {
    const jobs = await database.sql.query<{ name: string; waiting: number; lag: number }>(
      `select name, count(*)::int waiting,
              coalesce(extract(epoch from now() - min(start_after)), 0)::float8 lag
         from pgboss.job where state in ('created', 'retry') and start_after <= now() group by name`,
    );
    for (const j of jobs.rows) {
      jobLag.set({ queue: j.name }, j.lag);
      jobWaiting.set({ queue: j.name }, j.waiting);
    }
  } catch {
    // No job queue schema yet (the background jobs have not started on this database).
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Request metrics for every route and GET /metrics. Without METRICS_TOKEN the endpoint does not exist
 * (404 like any unknown path); with it, only `Authorization: Bearer <METRICS_TOKEN>` reads it (401).
 */
export const metricsPlugin = fp(async (app) => {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
  });

  const token = app.ctx.config.METRICS_TOKEN;
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    // Off: the same 404 as any unknown path (not the web app's page).
    if (!token) return reply.code(404).send({ status: 0, message: 'Not found' });
    if (!tokenMatches(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ status: 0, message: 'Unauthorized' });
    }
    await collectFromDatabase(app);
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
});
