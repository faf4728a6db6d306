import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, messageOnly } from '../../shared/contracts/common.js';
import { gatewayChange } from '../../shared/contracts/audit.js';
import { GATEWAY_MSG, gatewaySettingBody, paymentGateway } from '../../shared/contracts/gateways.js';
import { recordAudit } from '../audit/audit.js';
import { gatewayChanges } from '../audit/queries.js';
import { staffOf } from '../auth/guard.js';
import { paymentGateways } from '../db/schema.js';
import { done, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';

const security = [{ staffToken: [] }];

export const gatewayRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/admin/payment-gateways',
    {
      config: { permission: 'gateways.read' },
      schema: {
        tags: ['gateways'],
        security,
        response: { 200: envelope(z.array(paymentGateway)) },
      },
    },
    async () => {
      const rows = await db.select().from(paymentGateways).orderBy(asc(paymentGateways.id));
      return ok(
        rows.map((g) => ({
          id: g.id,
          gateway_name: g.gatewayName,
          is_active: g.isActive ? ('1' as const) : ('0' as const),
        })),
      );
    },
  );

  app.get(
    '/admin/payment-gateway-changes',
    {
      config: { permission: 'gateways.read' },
      schema: {
        tags: ['gateways'],
        summary: 'The last switches of the active gateway: who, when, from and to',
        security,
        response: { 200: envelope(z.array(gatewayChange)) },
      },
    },
    async () => ok(await gatewayChanges(app.ctx.database.sql)),
  );

  app.post(
    '/admin/payment-gateway-setting',
    {
      config: { permission: 'gateways.write' },
      schema: { tags: ['gateways'], security, body: gatewaySettingBody, response: { 200: messageOnly } },
    },
    async (request) => {
      const actor = staffOf(request);
      const { gatewayId } = request.body;
      const name = await db.transaction(async (tx) => {
        // Lock every gateway row: concurrent switches queue up and exactly one stays active.
        const rows = await tx.select().from(paymentGateways).orderBy(asc(paymentGateways.id)).for('update');
        const target = rows.find((g) => g.id === gatewayId);
        if (!target) throw notFound(GATEWAY_MSG.notFound);
        const before = rows.filter((g) => g.isActive).map((g) => g.gatewayName);
        await tx
          .update(paymentGateways)
          .set({ isActive: sql`${paymentGateways.id} = ${gatewayId}`, updatedAt: new Date() })
          .where(sql`${paymentGateways.isActive} or ${eq(paymentGateways.id, gatewayId)}`);
        await recordAudit(tx, {
          action: 'gateway.activate',
          actorId: actor.id,
          actorEmail: actor.email,
          target: `gateway:${gatewayId}`,
          from: { active: before },
          to: { active: [target.gatewayName] },
          ip: request.ip,
        });
        return target.gatewayName;
      });
      return done(GATEWAY_MSG.activated(name));
    },
  );
};
