import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  eraseOrderBody,
  eraseOrderParams,
  erasureResult,
  retentionSettings,
} from '../../shared/contracts/retention.js';
import { envelope } from '../../shared/contracts/common.js';
import { recordAudit } from '../audit/audit.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { eraseOrder } from '../flows/erase-order.js';
import { getRetentionSettings, saveRetentionSettings } from './settings.js';

const security = [{ staffToken: [] }];

/** Retention of personal data: the Admin's policy setting and erasure of one order on request. */
export const retentionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/retention-settings',
    {
      config: { permission: 'settings.retention' },
      schema: {
        tags: ['retention'],
        summary: 'Days after the end of travel before personal data is erased',
        security,
        response: { 200: envelope(retentionSettings) },
      },
    },
    async () => ok(await getRetentionSettings(db)),
  );

  app.put(
    '/admin/retention-settings',
    {
      config: { permission: 'settings.retention' },
      schema: {
        tags: ['retention'],
        summary: 'Change the retention period (30–3650 days); the daily job applies it',
        security,
        body: retentionSettings,
        response: { 200: envelope(retentionSettings) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      await db.transaction(async (tx) => {
        const before = await getRetentionSettings(tx);
        await saveRetentionSettings(tx, request.body, staff.id);
        await recordAudit(tx, {
          action: 'settings.update',
          actorId: staff.id,
          actorEmail: staff.email,
          target: 'settings:retention',
          from: before,
          to: request.body,
          ip: request.ip,
        });
      });
      return ok(request.body, 'The retention period has been saved.');
    },
  );

  app.post(
    '/admin/orders/:id/erase',
    {
      config: { permission: 'orders.erase' },
      schema: {
        tags: ['retention'],
        summary:
          'Erase the personal data of one order now (names to initials, passport, contact, documents); 409 under chargeback or when already erased',
        security,
        params: eraseOrderParams,
        body: eraseOrderBody,
        response: { 200: envelope(erasureResult) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const result = await eraseOrder(db, config, Number(request.params.id), {
        actorId: staff.id,
        actorEmail: staff.email,
        reason: request.body.reason,
        ip: request.ip,
      });
      return ok(result, 'The personal data of the order has been erased.');
    },
  );
};
