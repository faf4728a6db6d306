import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { lifecycleOf, STARTING_MESSAGE } from './lifecycle.js';

const PING_TIMEOUT_MS = 2000;

const readiness = z.object({
  ready: z.boolean(),
  phase: z.enum(['migrating', 'ready', 'draining']),
  db: z.enum(['ok', 'down', 'unchecked']),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const dbUp = async () => {
    try {
      await Promise.race([
        app.ctx.database.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), PING_TIMEOUT_MS).unref()),
      ]);
      return true;
    } catch {
      return false;
    }
  };

  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary:
          'OK when this instance serves and its database answers; 503 while it starts (migrating, seeding) or when the database is unreachable',
        response: {
          200: z.object({
            status: z.literal(1),
            message: z.string(),
            data: z.object({ db: z.literal('ok') }),
          }),
          503: z.object({
            status: z.literal(0),
            message: z.string(),
            data: z.object({ db: z.enum(['down', 'starting']) }),
          }),
        },
      },
    },
    async (_request, reply) => {
      // Until the instance serves (migrations, the demo seed, the jobs), OK would send clients to 503s.
      if (lifecycleOf(app).phase === 'migrating') {
        return reply
          .code(503)
          .header('retry-after', '5')
          .send({ status: 0 as const, message: STARTING_MESSAGE, data: { db: 'starting' as const } });
      }
      if (await dbUp()) return { status: 1 as const, message: 'OK', data: { db: 'ok' as const } };
      return reply
        .code(503)
        .send({ status: 0 as const, message: 'Database unreachable', data: { db: 'down' as const } });
    },
  );

  app.get(
    '/health/live',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process answers (restart it when this fails)',
        response: { 200: z.object({ status: z.literal(1), message: z.string() }) },
      },
    },
    async () => ({ status: 1 as const, message: 'Live' }),
  );

  app.get(
    '/health/ready',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary:
          'Readiness: 200 when this instance should get traffic; 503 while migrating, when the database is unreachable, or while draining after SIGTERM',
        response: {
          200: z.object({ status: z.literal(1), message: z.string(), data: readiness }),
          503: z.object({ status: z.literal(0), message: z.string(), data: readiness }),
        },
      },
    },
    async (_request, reply) => {
      const { phase } = lifecycleOf(app);
      if (phase !== 'ready') {
        const message = phase === 'migrating' ? 'Migrating the database' : 'Shutting down';
        return reply
          .code(503)
          .send({ status: 0 as const, message, data: { ready: false, phase, db: 'unchecked' as const } });
      }
      if (!(await dbUp())) {
        return reply.code(503).send({
          status: 0 as const,
          message: 'Database unreachable',
          data: { ready: false, phase, db: 'down' as const },
        });
      }
      return { status: 1 as const, message: 'Ready', data: { ready: true, phase, db: 'ok' as const } };
    },
  );
};
