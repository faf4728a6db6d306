import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  defencePackBody,
  defencePackDetailsBody,
  defencePackDetailsResponse,
} from '../../shared/contracts/defence-pack.js';
import { ok } from '../http/envelope.js';
import { buildDefencePackPdf } from '../pdf/build.js';
import { loadErasure } from '../retention/erasure-record.js';
import { documentBytes, gatherEvidence } from './evidence.js';
import { contentDisposition } from '../http/content-disposition.js';

const security = [{ staffToken: [] }];

/** Defence Packs (docs/product.md): the chargeback evidence as a PDF, and the same evidence as JSON. */
export const defencePackRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.post(
    '/admin/get-defence-pack-pdf',
    {
      config: { permission: 'orders.defencePack' },
      schema: {
        tags: ['order-detail'],
        summary: 'Defence Pack 1 (proof of delivery) or 2 (full case file) as application/pdf',
        security,
        body: defencePackBody,
      },
    },
    async (request, reply) => {
      const { orderId, defencePackType } = request.body;
      const evidence = {
        ...(await gatherEvidence(db, config, orderId, defencePackType)),
        erasure: await loadErasure(db, orderId),
      };
      const doc = await documentBytes(db, config, evidence.document?.id);
      const pdf = await buildDefencePackPdf(config, evidence, doc);
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          contentDisposition(`defence-pack-${defencePackType}-${orderId}.pdf`, 'inline'),
        )
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(pdf));
    },
  );

  app.post(
    '/admin/defence-pack-details',
    {
      config: { permission: 'orders.defencePack' },
      schema: {
        tags: ['order-detail'],
        summary: 'The evidence of a Defence Pack as JSON (defencePackType 1 or 2; default 2 = everything)',
        security,
        body: defencePackDetailsBody,
        response: { 200: defencePackDetailsResponse },
      },
    },
    async (request) => {
      const { orderId, defencePackType } = request.body;
      const evidence = await gatherEvidence(db, config, orderId, defencePackType ?? 2);
      return ok({ ...evidence, erasure: await loadErasure(db, orderId) }, 'Defence pack details');
    },
  );
};
