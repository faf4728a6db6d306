// The customer's answer on the track page (customer token): a message and up to five files, multipart.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Attachment } from 'mailparser';
import { z } from 'zod';
import { orderIdField } from '../../shared/contracts/common.js';
import {
  CUSTOMER_REPLY_MAX_FILES,
  customerReplyMessage,
  customerReplyResponse,
} from '../../shared/contracts/conversation.js';
import { CUSTOMER_MSG } from '../../shared/contracts/customer.js';
import { tokenFromHeader } from '../auth/tokens.js';
import { verifyCustomerToken } from '../customer/tokens.js';
import { receiveTrackReply, trackReplyRefusal } from '../flows/track-reply.js';
import { clientNetwork } from '../http/client-network.js';
import { ok } from '../http/envelope.js';
import {
  badRequest,
  HttpError,
  payloadTooLarge,
  unauthorized,
  unsupportedMediaType,
} from '../http/errors.js';
import { malformedForm } from './multipart.js';
import { INBOUND_LIMITS } from './parse.js';

const orderParams = z.object({ orderId: orderIdField });

/** The customer's answer on the track page, with the effects of a customer answer. */
export const trackReplyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.post(
    '/customer/orders/:orderId/replies',
    {
      config: {
        public: true,
        rateLimit: {
          max: 10,
          timeWindow: 10 * 60_000,
          keyGenerator: (r) => `customer-reply:${clientNetwork(r.ip)}`,
        },
      },
      bodyLimit: (CUSTOMER_REPLY_MAX_FILES + 1) * INBOUND_LIMITS.maxAttachmentBytes,
      onRequest: async (request) => {
        const token = tokenFromHeader(request.headers.authorization);
        const orderId = token ? await verifyCustomerToken(config.JWT_SECRET, token) : null;
        const asked = Number(
          String((request.params as { orderId?: unknown }).orderId ?? '').replace(/^0+(?=\d)/, ''),
        );
        if (orderId === null || orderId !== asked) throw unauthorized(CUSTOMER_MSG.sessionExpired);
        // Before any of the body is read: an erased order takes nothing, a Deleted one is cancelled.
        const refusal = await trackReplyRefusal(db, orderId);
        if (refusal) throw refusal;
      },
      schema: {
        tags: ['customer'],
        summary:
          'The customer answers on the track page (customer token): multipart `message` and up to 5 `files`',
        params: orderParams,
        consumes: ['multipart/form-data'],
        response: { 200: customerReplyResponse },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw unsupportedMediaType('Send the answer as multipart/form-data.');
      let message = '';
      const files: Attachment[] = [];
      try {
        for await (const part of request.parts({
          limits: {
            files: CUSTOMER_REPLY_MAX_FILES,
            fileSize: INBOUND_LIMITS.maxAttachmentBytes,
            fields: 4,
            parts: CUSTOMER_REPLY_MAX_FILES + 4,
            fieldSize: 64 * 1024,
          },
        })) {
          if (part.type === 'field') {
            if (part.fieldname === 'message') message = String(part.value);
            continue;
          }
          const file = part as MultipartFile;
          if (file.fieldname !== 'files') {
            file.file.resume();
            throw badRequest('Send files in the field files.');
          }
          const content = await file.toBuffer();
          files.push({
            content,
            filename: file.filename,
            contentType: file.mimetype,
            size: content.length,
          } as Attachment);
        }
      } catch (err) {
        if (err instanceof HttpError) throw err;
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw payloadTooLarge('A file is too large. The maximum size is 10 MB.');
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
          throw badRequest(`Send a message and at most ${CUSTOMER_REPLY_MAX_FILES} files.`);
        throw malformedForm(err);
      }
      const parsed = customerReplyMessage.safeParse(message);
      if (!parsed.success) throw badRequest(`message: ${parsed.error.issues[0]?.message ?? 'is required'}`);
      await receiveTrackReply({ db, config }, request.params.orderId, parsed.data, files);
      return ok({ received: true as const }, 'Your answer has been received.');
    },
  );
};
