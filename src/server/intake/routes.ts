import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { INTAKE_PASSPORT_MAX_BYTES, intakeOrderBody } from '../../shared/contracts/intake.js';
import { scanIntakePassport } from '../flows/passport-scan.js';
import { badRequest } from '../http/errors.js';
import { acceptLanguageTags, CUSTOMER_LANGUAGES, firstCustomerLanguage } from '../../shared/languages.js';
import { notFound, unauthorized } from '../http/errors.js';
import { takeOrderIn } from '../flows/intake.js';
import { checkItem } from '../orders/order-checks.js';
import { checkSettingsOf } from '../checks/queries.js';

/** The first bytes of each picture type the intake's passport scan takes. */
const MAGIC: Record<string, (b: Buffer) => boolean> = {
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
};
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
      // An order and, when sent, its passport picture (at most 5 MB, in base64).
      bodyLimit: 8 * 1024 * 1024,
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
      const { passport_scan: scan, ...body } = request.body;
      // The picture is checked before anything is written: its size and that its bytes are its type.
      let picture: { bytes: Buffer; mimeType: string; name: string } | null = null;
      if (scan) {
        const bytes = Buffer.from(scan.content_base64, 'base64');
        if (bytes.length > INTAKE_PASSPORT_MAX_BYTES) throw badRequest('passport_scan: must be at most 5 MB');
        if (!MAGIC[scan.mime_type]!(bytes))
          throw badRequest(`passport_scan: the file is not a ${scan.mime_type} file`);
        picture = { bytes, mimeType: scan.mime_type, name: scan.file_name };
      }
      // ?lang= first; else the traveller's Accept-Language when the site passes it on; else unknown.
      const language =
        request.query.lang ?? firstCustomerLanguage(acceptLanguageTags(request.headers['accept-language']));
      const settings = checkSettingsOf(app.ctx.config);
      const { orderId, checks } = await takeOrderIn(app.ctx.db, settings, body, language);
      // The passport picture is read off the request (OCR on its worker); the order is answered now.
      if (picture) void scanIntakePassport(app.ctx, orderId, picture, request.log);
      return {
        status: 1 as const,
        message: 'Order received',
        data: { order_id: orderId, checks: checks.map((c) => checkItem(c, language ?? 'en')) },
      };
    },
  );
};
