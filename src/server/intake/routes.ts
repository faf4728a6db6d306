import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { intakeOrderBody } from '../../shared/contracts/intake.js';
import { acceptLanguageTags, CUSTOMER_LANGUAGES, firstCustomerLanguage } from '../../shared/languages.js';
import { notFound, unauthorized } from '../http/errors.js';
import { takeOrderIn } from '../flows/intake.js';
import { checkItem } from '../orders/order-checks.js';
import { checkSettingsOf } from '../checks/queries.js';
import { orderCheckItem } from '../../shared/contracts/checks.js';

function keyMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Orders arrive from the public application site (docs/product.md); off when INTAKE_API_KEY is unset. */
export const intakeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/intake/orders',
    {
      config: { public: true, rateLimit: { max: 3000, timeWindow: '1 minute' } },
      // The key is checked before the body is validated, so a stranger learns nothing about the contract.
      onRequest: async (request) => {
        const key = app.ctx.config.INTAKE_API_KEY;
        if (!key) throw notFound('Not found');
        const given = request.headers['x-intake-key'];
        if (!keyMatches(key, Array.isArray(given) ? given[0] : given))
          throw unauthorized('Invalid intake key');
      },
      schema: {
        tags: ['intake'],
        headers: z.object({ 'x-intake-key': z.string().optional() }).loose(),
        // The traveller's language on the application site (docs/decisions/210); unknown values are refused.
        querystring: z.object({ lang: z.enum(CUSTOMER_LANGUAGES).optional() }),
        body: intakeOrderBody,
        response: {
          200: z.object({
            status: z.literal(1),
            message: z.string(),
            data: z.object({
              order_id: z.number(),
              /** The failing checks, in the traveller's language, for the site to ask about at once. */
              checks: z.array(orderCheckItem),
            }),
          }),
        },
      },
    },
    async (request) => {
      const body = request.body;
      // ?lang= first; else the traveller's Accept-Language when the site passes it on; else unknown.
      const language =
        request.query.lang ?? firstCustomerLanguage(acceptLanguageTags(request.headers['accept-language']));
      const settings = checkSettingsOf(app.ctx.config);
      const { orderId, checks } = await takeOrderIn(app.ctx.db, settings, body, language);
      return {
        status: 1 as const,
        message: 'Order received',
        data: { order_id: orderId, checks: checks.map((c) => checkItem(c, language ?? 'en')) },
      };
    },
  );
};
