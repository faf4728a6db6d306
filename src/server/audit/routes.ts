import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  auditExportQuery,
  auditLogPage as auditLogPageSchema,
  auditLogQuery,
  exportEventBody,
} from '../../shared/contracts/audit.js';
import { envelope, messageOnly } from '../../shared/contracts/common.js';
import { staffOf } from '../auth/guard.js';
import { done, ok } from '../http/envelope.js';
import { serviceToday } from '../../shared/dates.js';
import { recordAudit } from './audit.js';
import { auditExportSnapshot } from './export.js';
import { auditLogPage } from './queries.js';

const security = [{ staffToken: [] }];

/** The audit trail (read only: no route changes or deletes its rows) and the CSV export record. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.ctx.database;

  app.get(
    '/admin/audit-log',
    {
      config: { permission: 'audit.read' },
      schema: {
        tags: ['audit'],
        summary: 'Audit entries, newest first, 50 a page; a Manager does not see Admin accounts’ sign-ins',
        security,
        querystring: auditLogQuery,
        response: { 200: envelope(auditLogPageSchema) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const page = await auditLogPage(sql, request.query, { role: staff.type });
      return ok(page, page.total ? 'Audit log loaded' : 'No records found');
    },
  );

  app.get(
    '/admin/audit-log/export',
    {
      config: { permission: 'audit.read' },
      schema: {
        tags: ['audit'],
        summary:
          'The whole filtered audit log as CSV, newest first (streamed); the same role rules as the list; recorded in the audit log',
        security,
        querystring: auditExportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const { total, lines } = await auditExportSnapshot(sql, request.query, { role: staff.type });
      // An export of personal data (names, e-mail and IP addresses): recorded before the first byte.
      await recordAudit(app.ctx.database.db, {
        action: 'export.csv',
        actorId: staff.id,
        actorEmail: staff.email,
        target: 'screen:audit-log',
        to: { rows: total, detail: JSON.stringify(request.query).slice(0, 500) },
        ip: request.ip,
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${serviceToday()}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    },
  );

  app.post(
    '/admin/audit/export-event',
    {
      config: { permission: 'audit.exportEvent' },
      schema: {
        tags: ['audit'],
        summary: 'Records a CSV export of personal data before the browser builds the file',
        security,
        body: exportEventBody,
        response: { 200: messageOnly },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { screen, rows, detail } = request.body;
      await recordAudit(app.ctx.database.db, {
        action: 'export.csv',
        actorId: staff.id,
        actorEmail: staff.email,
        target: `screen:${screen}`,
        to: { rows, detail },
        ip: request.ip,
      });
      return done('Export recorded');
    },
  );
};
