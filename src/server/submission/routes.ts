import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, orderIdField } from '../../shared/contracts/common.js';
import {
  markSubmittedAnswer,
  markSubmittedBody,
  orderFileItem,
  submissionPacket,
  submissionPolicy,
  submissionPolicyAnswer,
} from '../../shared/contracts/submission.js';
import { staffOf } from '../auth/guard.js';
import { changeSubmissionPolicy } from '../flows/submission-window.js';
import { markSubmitted, submissionPacketOf } from '../flows/submit-order.js';
import { openStored, storedExists } from '../documents/storage.js';
import { ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { contentDisposition } from '../http/content-disposition.js';
import { listOrderFiles, orderFileOf } from './order-files.js';
import { getSubmissionPolicy } from './policy.js';

const security = [{ staffToken: [] }];
const orderIdParams = z.object({ orderId: orderIdField });
const orderFileParams = z.object({
  orderId: orderIdField,
  fileId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** The government step (docs/product.md, "Submitting to the government"): the packet and the reference. */
export const submissionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const settings = { minPassportValidityDays: config.PASSPORT_MIN_VALIDITY_DAYS };

  app.get(
    '/admin/orders/:orderId/submission-packet',
    {
      config: { permission: 'orders.move' },
      schema: {
        tags: ['submission'],
        summary:
          "The government form's fields in its order and format (names in capital Latin letters, DD-MM-YYYY, E.164), with what it cannot fill and the order's failing checks",
        security,
        params: orderIdParams,
        response: { 200: envelope(submissionPacket) },
      },
    },
    async (request) =>
      ok(await submissionPacketOf(db, request.params.orderId, settings), 'Submission packet'),
  );

  app.get(
    '/admin/orders/:orderId/files',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['submission'],
        summary: "The order's files that are not its card (a machine's screenshot of a failed submission)",
        security,
        params: orderIdParams,
        response: { 200: envelope(z.array(orderFileItem)) },
      },
    },
    async (request) => ok(await listOrderFiles(db, request.params.orderId), 'Order files'),
  );

  app.get(
    '/admin/orders/:orderId/files/:fileId',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['submission'],
        summary:
          "One of the order's files (a screenshot), served as an attachment; another order's file is 404",
        security,
        params: orderFileParams,
      },
    },
    async (request, reply) => {
      const file = await orderFileOf(db, request.params.orderId, request.params.fileId);
      if (!file || !(await storedExists(config, file.storageKey))) throw notFound('File not found');
      return reply
        .header('content-type', file.mimeType)
        .header('content-length', String(file.sizeBytes))
        .header('content-disposition', contentDisposition(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(await openStored(config, file.storageKey));
    },
  );

  app.post(
    '/admin/orders/:orderId/submitted',
    {
      config: { permission: 'orders.move' },
      schema: {
        tags: ['submission'],
        summary:
          "Mark the order submitted to the government: moves it to Awaiting Govt (the order rules of a move) and stores the government's reference",
        security,
        params: orderIdParams,
        body: markSubmittedBody,
        response: { 200: envelope(markSubmittedAnswer) },
      },
    },
    async (request) => {
      const answer = await markSubmitted(db, staffOf(request), request.params.orderId, request.body);
      return ok(answer, `Order marked submitted with reference ${answer.government_reference}.`);
    },
  );

  app.get(
    '/admin/submission-policy',
    {
      config: { permission: 'submission.policy' },
      schema: {
        tags: ['submission'],
        summary:
          'The submission policy: the window before arrival (null: none), the job minutes and the auto-send of government cards',
        security,
        response: { 200: envelope(submissionPolicyAnswer) },
      },
    },
    async () => ok(await getSubmissionPolicy(db), 'Submission policy'),
  );

  app.put(
    '/admin/submission-policy',
    {
      config: { permission: 'submission.policy' },
      schema: {
        tags: ['submission'],
        summary:
          'Change the submission policy (Admin, Manager; audited): New orders move into or out of Future Orders at once',
        security,
        body: submissionPolicy,
        response: { 200: envelope(submissionPolicyAnswer) },
      },
    },
    async (request) => {
      const moved = await changeSubmissionPolicy(db, staffOf(request), request.body, request.ip);
      return ok({ ...(await getSubmissionPolicy(db)), moved }, 'The submission policy has been saved.');
    },
  );
};
