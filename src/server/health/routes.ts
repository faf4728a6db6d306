import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        response: {
          200: z.object({
            status: z.literal(1),
            message: z.string(),
            data: z.object({ db: z.literal('ok') }),
          }),
          503: z.object({
            status: z.literal(0),
            message: z.string(),
            data: z.object({ db: z.literal('down') }),
          }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await Promise.race([
          app.ctx.database.ping(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
        ]);
        return { status: 1 as const, message: 'OK', data: { db: 'ok' as const } };
      } catch {
        return reply
          .code(503)
          .send({ status: 0 as const, message: 'Database unreachable', data: { db: 'down' as const } });
      }
    },
  );
};
