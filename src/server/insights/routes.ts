import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../shared/contracts/common.js';
import { insightsData, insightsQuery, myDayData } from '../../shared/contracts/insights.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { paymentInsights } from '../payments/queries.js';
import { insights, myDay } from './queries.js';

const security = [{ staffToken: [] }];

/** The insights dashboard and the "My day" card. */
export const insightsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.ctx.database;

  app.get(
    '/admin/insights',
    {
      config: { permission: 'insights.read' },
      schema: {
        tags: ['insights'],
        summary:
          'Backlog now; throughput, time to complete, staff, on time, chargebacks and mail for a period',
        security,
        querystring: insightsQuery,
        response: { 200: envelope(insightsData) },
      },
    },
    async (request) => {
      const [figures, payments] = await Promise.all([
        insights(sql, request.query),
        paymentInsights(app.ctx.db, request.query.from, request.query.to),
      ]);
      return ok({ ...figures, payments, disputes: payments.disputes }, 'Insights loaded');
    },
  );

  app.get(
    '/admin/insights/my-day',
    {
      config: { permission: 'insights.myDay' },
      schema: {
        tags: ['insights'],
        summary: 'The caller’s completions today and open assigned orders',
        security,
        response: { 200: envelope(myDayData) },
      },
    },
    async (request) => ok(await myDay(sql, staffOf(request).id), 'My day loaded'),
  );
};
