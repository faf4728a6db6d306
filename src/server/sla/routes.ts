import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../shared/contracts/common.js';
import { slaPolicy, slaPolicyAnswer } from '../../shared/contracts/sla.js';
import { recordAudit } from '../audit/audit.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { getSlaPolicy, saveSlaPolicy } from './policy.js';

const security = [{ staffToken: [] }];

/** The due-time policy per processing mode (Settings screen). */
export const slaRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;

  app.get(
    '/admin/sla-policy',
    {
      config: { permission: 'sla.read' },
      schema: {
        tags: ['orders'],
        summary:
          'The due-time policy: hours from payment and before arrival per processing mode, and the at-risk margin',
        security,
        response: { 200: envelope(slaPolicyAnswer) },
      },
    },
    async () => ok(await getSlaPolicy(db), 'Due-time policy'),
  );

  app.put(
    '/admin/sla-policy',
    {
      config: { permission: 'sla.write' },
      schema: {
        tags: ['orders'],
        summary:
          'Change the due-time policy (Admin, Manager); every open order gets its new due time in the same transaction; audited',
        security,
        body: slaPolicy,
        response: { 200: envelope(slaPolicyAnswer) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const next = request.body;
      await db.transaction(async (tx) => {
        const { updatedAt: _a, updatedBy: _b, ...before } = await getSlaPolicy(tx);
        await saveSlaPolicy(tx, next, staff.id);
        await recordAudit(tx, {
          action: 'sla.update',
          actorId: staff.id,
          actorEmail: staff.email,
          target: 'settings:sla',
          from: before,
          to: next,
          ip: request.ip,
        });
      });
      return ok(await getSlaPolicy(db), 'The due-time policy has been saved.');
    },
  );
};
