import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callBacksDueResponse } from '../../shared/contracts/call-backs.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { callBacksDue } from '../orders/contacts.js';

const security = [{ staffToken: [] }];

/** The call-backs due for the signed-in member: their held orders', and the customers' after a low rating. */
export const callBackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/call-backs-due',
    {
      config: { permission: 'orders.remark' },
      schema: {
        tags: ['conversation'],
        summary:
          'Call-backs whose time has come: on open orders the member holds, and (Telecallers) the call-backs a customer asked for by rating 1 or 2',
        security,
        response: { 200: callBacksDueResponse },
      },
    },
    async (request) => ok(await callBacksDue(app.ctx.db, staffOf(request).id), 'Call-backs due'),
  );
};
