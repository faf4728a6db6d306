import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '../../shared/contracts/common.js';
import { dueTimePolicy, dueTimePolicyAnswer } from '../../shared/contracts/due-time.js';
import { recordAudit } from '../audit/audit.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { getDueTimePolicy, saveDueTimePolicy } from './policy.js';

const security = [{ staffToken: [] }];

/** The due-time policy per processing mode (Settings screen). */
export const dueTimeRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;

  app.get(
    '/admin/due-time-policy',
    {
      config: { permission: 'dueTime.read' },
      schema: {
        tags: ['orders'],
        summary:
          'The due-time policy: hours from payment and before arrival per processing mode, and the at-risk margin',
        security,
        response: { 200: envelope(dueTimePolicyAnswer) },
      },
    },
    async () => ok(await getDueTimePolicy(db), 'Due-time policy'),
  );

  app.put(
    '/admin/due-time-policy',
    {
      config: { permission: 'dueTime.write' },
      schema: {
        tags: ['orders'],
        summary:
          'Change the due-time policy (Admin, Manager); every open order gets its new due time in the same transaction; audited',
        security,
        body: dueTimePolicy,
        response: { 200: envelope(dueTimePolicyAnswer) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const next = request.body;
      await db.transaction(async (tx) => {
        const { updatedAt: _a, updatedBy: _b, ...before } = await getDueTimePolicy(tx);
        await saveDueTimePolicy(tx, next, staff.id);
        await recordAudit(tx, {
          action: 'due-time-policy.update',
          actorId: staff.id,
          actorEmail: staff.email,
          target: 'settings:dueTimePolicy',
          from: before,
          to: next,
          ip: request.ip,
        });
      });
      return ok(await getDueTimePolicy(db), 'The due-time policy has been saved.');
    },
  );
};
