import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../shared/contracts/common.js';
import { countryReportRow, processedByRow, reportRangeBody } from '../../shared/contracts/reports.js';
import { ok } from '../http/envelope.js';
import { countryReport, processedByReport } from './queries.js';

/** Country Order List and Order Processed reports (decision 060). */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/get-country-order-count',
    {
      config: { permission: 'reports.country' },
      schema: {
        tags: ['reports'],
        summary: 'Orders created in a range (service time zone days), per nationality, Deleted excluded',
        security: [{ staffToken: [] }],
        body: reportRangeBody,
        response: { 200: envelope(z.array(countryReportRow)) },
      },
    },
    async (request) => {
      const rows = await countryReport(app.ctx.database.sql, request.body);
      return ok(rows, rows.length ? 'Country order details loaded' : 'No records found');
    },
  );

  app.post(
    '/admin/get-processed-by-count',
    {
      config: { permission: 'reports.processedBy' },
      schema: {
        tags: ['reports'],
        summary: 'Orders each staff member moved to Completed in a range (from the order events)',
        security: [{ staffToken: [] }],
        body: reportRangeBody,
        response: { 200: envelope(z.array(processedByRow)) },
      },
    },
    async (request) => {
      const rows = await processedByReport(app.ctx.database.sql, request.body);
      return ok(rows, rows.length ? 'Processed orders loaded' : 'No records found');
    },
  );
};
