import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  correctOrderAnswer,
  correctOrderBody,
  duplicateDecisionBody,
  orderChecksAnswer,
} from '../../shared/contracts/checks.js';
import { envelope, orderIdField } from '../../shared/contracts/common.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { checkSettingsOf, orderChecks } from './queries.js';
import { correctOrder, decideDuplicate } from '../orders/corrections.js';
import { statusMail } from '../flows/status-mail.js';
import { now } from '../clock.js';

const security = [{ staffToken: [] }];
const orderIdParams = z.object({ orderId: orderIdField });

/** Order checks, duplicate decisions and corrections (docs/product.md, "Order checks"). */
export const checkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const settings = checkSettingsOf(config);

  app.get(
    '/admin/orders/:orderId/checks',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['order-checks'],
        summary: 'The failing data checks of an order and its possible duplicates',
        security,
        params: orderIdParams,
        response: { 200: envelope(orderChecksAnswer) },
      },
    },
    async (request) => ok(await orderChecks(db, request.params.orderId, settings, now()), 'Order checks'),
  );

  app.post(
    '/admin/orders/:orderId/duplicate-decision',
    {
      config: { permission: 'orders.correct' },
      schema: {
        tags: ['order-checks'],
        summary:
          "Decide on a possible duplicate: 'not_duplicate' silences the pair; 'duplicate' moves the newer order to Refunds",
        security,
        params: orderIdParams,
        body: duplicateDecisionBody,
        response: {
          200: envelope(orderChecksAnswer.extend({ movedOrderId: z.number().int().nullable() })),
        },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const { movedOrderId } = await decideDuplicate(
        db,
        staffOf(request),
        orderId,
        request.body,
        settings,
        now(),
        request.ip,
        statusMail,
      );
      const answer = await orderChecks(db, orderId, settings, now());
      return ok(
        { ...answer, movedOrderId },
        movedOrderId ? `Order ${movedOrderId} moved to Refunds as a duplicate.` : 'Decision saved.',
      );
    },
  );

  app.patch(
    '/admin/orders/:orderId',
    {
      config: { permission: 'orders.correct' },
      schema: {
        tags: ['order-checks'],
        summary:
          'Correct traveller and trip fields (validated as at intake) with expectedVersion; 409 when stale or closed',
        security,
        params: orderIdParams,
        body: correctOrderBody,
        response: { 200: envelope(correctOrderAnswer) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const result = await correctOrder(
        db,
        staffOf(request),
        orderId,
        request.body,
        settings,
        now(),
        request.ip,
      );
      const answer = await orderChecks(db, orderId, settings, now());
      return ok({ ...answer, ...result }, result.changes.length ? 'Order corrected.' : 'Nothing changed.');
    },
  );
};
