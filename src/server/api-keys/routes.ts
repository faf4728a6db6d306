import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiKeyView,
  claimedJob,
  createApiKeyBody,
  createdApiKey,
  jobResultAnswer,
  SCREENSHOT_MAX_BYTES,
  submissionJobResultBody,
} from '../../shared/contracts/api-keys.js';
import { envelope } from '../../shared/contracts/common.js';
import { staffOf } from '../auth/guard.js';
import { answerSubmissionJob, claimSubmissionJob } from '../flows/submission-jobs.js';
import { ok } from '../http/envelope.js';
import { badRequest } from '../http/errors.js';
import { authenticateMachine, createApiKey, listApiKeys, revokeApiKey } from './keys.js';

const staffSecurity = [{ staffToken: [] }];
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** API keys (Admin) and the job API for machines (docs/product.md, "Machines that submit"). */
export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const settings = { minPassportValidityDays: config.PASSPORT_MIN_VALIDITY_DAYS };

  app.post(
    '/admin/api-keys',
    {
      config: { permission: 'apiKeys.manage' },
      schema: {
        tags: ['api-keys'],
        summary: 'Create an API key for a machine (Admin; audited): the key is answered this once',
        security: staffSecurity,
        body: createApiKeyBody,
        response: { 200: envelope(createdApiKey) },
      },
    },
    async (request) =>
      ok(
        await createApiKey(db, staffOf(request), request.body, request.ip),
        'API key created: copy it now, it is not shown again.',
      ),
  );

  app.get(
    '/admin/api-keys',
    {
      config: { permission: 'apiKeys.manage' },
      schema: {
        tags: ['api-keys'],
        summary: 'The API keys (never their secret)',
        security: staffSecurity,
        response: { 200: envelope(z.array(apiKeyView)) },
      },
    },
    async () => ok(await listApiKeys(db), 'API keys'),
  );

  app.delete(
    '/admin/api-keys/:id',
    {
      config: { permission: 'apiKeys.manage' },
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke an API key (Admin; audited): it is refused from now on',
        security: staffSecurity,
        params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
        response: { 200: envelope(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      await revokeApiKey(db, staffOf(request), request.params.id, request.ip);
      return ok({ id: request.params.id }, 'API key revoked.');
    },
  );

  // The job API: `public` to the staff guard, authenticated by the key (before the body is read).
  const machineSecurity = [{ apiKey: [] }];
  app.post(
    '/submission-jobs/claim',
    {
      config: { public: true },
      onRequest: async (request) => {
        await authenticateMachine(db, request, 'submission');
      },
      schema: {
        tags: ['submission-jobs'],
        summary:
          'Claim the next order to submit (API key with the submission scope): held by the machine, with its packet; 204 when none',
        security: machineSecurity,
        response: { 200: envelope(claimedJob), 204: z.null() },
      },
    },
    async (request, reply) => {
      const job = await claimSubmissionJob(db, request.machine!, settings);
      if (!job) return reply.code(204).send(null);
      return ok(job, `Order ${job.orderId} claimed.`);
    },
  );

  app.post(
    '/submission-jobs/:jobId/result',
    {
      config: { public: true },
      // A screenshot of at most 2 MB, in base64, and the rest of the body.
      bodyLimit: 3 * 1024 * 1024,
      onRequest: async (request) => {
        await authenticateMachine(db, request, 'submission');
      },
      schema: {
        tags: ['submission-jobs'],
        summary:
          "The machine's result for its job: the government's reference (the order moves to Awaiting Govt), or the error and a screenshot (the order goes back to its queue)",
        security: machineSecurity,
        params: z.object({ jobId: z.uuid('must be a job id') }),
        body: submissionJobResultBody,
        response: { 200: envelope(jobResultAnswer) },
      },
    },
    async (request) => {
      const body = request.body;
      let screenshot: Buffer | undefined;
      if (!body.ok && body.screenshot !== undefined) {
        screenshot = Buffer.from(body.screenshot, 'base64');
        if (screenshot.length > SCREENSHOT_MAX_BYTES)
          throw badRequest('screenshot: must be a PNG of at most 2 MB');
        if (screenshot.length < PNG_MAGIC.length || !screenshot.subarray(0, 8).equals(PNG_MAGIC)) {
          throw badRequest('screenshot: must be a PNG of at most 2 MB');
        }
      }
      const answer = await answerSubmissionJob(
        db,
        config,
        request.machine!,
        request.params.jobId,
        body.ok
          ? { ok: true, governmentReference: body.governmentReference }
          : { ok: false, error: body.error, screenshot },
        settings,
      );
      return ok(
        answer,
        answer.state === 'submitted' ? 'Order marked submitted.' : 'Order returned to its queue.',
      );
    },
  );
};
