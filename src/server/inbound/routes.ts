import { timingSafeEqual } from 'node:crypto';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  badRequest,
  HttpError,
  notFound,
  payloadTooLarge,
  unauthorized,
  unsupportedMediaType,
} from '../http/errors.js';
import { INBOUND_LIMITS, parseInbound, TOO_LARGE_MESSAGE } from './parse.js';
import { receiveInboundMail } from '../flows/government-mail.js';
import { malformedForm } from './multipart.js';
import { DISPOSITIONS } from './match.js';

function tokenMatches(expected: string, header: string | undefined): boolean {
  const bearer = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim();
  // A webhook that can only carry credentials in its URL (SendGrid Inbound Parse) sends Basic: the password.
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '')?.[1];
  const given =
    bearer ?? (basic ? Buffer.from(basic, 'base64').toString('utf8').split(':').slice(1).join(':') : '');
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** SendGrid Inbound Parse's envelope field: {"to": [...], "from": "..."}. */
function envelopeRecipients(value: string | undefined): string[] {
  if (!value) return [];
  try {
    const to = (JSON.parse(value) as { to?: unknown }).to;
    return Array.isArray(to) ? to.filter((a): a is string => typeof a === 'string').slice(0, 50) : [];
  } catch {
    return [];
  }
}

export const inboundResult = z.object({
  status: z.literal(1),
  message: z.string(),
  data: z.object({ orderId: z.number().nullable(), disposition: z.enum(DISPOSITIONS) }),
});

/**
 * Mail coming in from a provider's inbound webhook (docs/product.md, "Customers answer back"): the raw
 * message as message/rfc822, or SendGrid Inbound Parse's form with the raw message in `email`.
 * Off (404) when INBOUND_TOKEN is unset.
 */
export const inboundRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  app.addContentTypeParser(
    'message/rfc822',
    { parseAs: 'buffer', bodyLimit: INBOUND_LIMITS.maxBytes },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/inbound/mail',
    {
      bodyLimit: INBOUND_LIMITS.maxBytes,
      config: { public: true, rateLimit: { max: 6000, timeWindow: '1 minute' } },
      // The token is checked before any of the body is read.
      onRequest: async (request) => {
        const token = config.INBOUND_TOKEN;
        if (!token) throw notFound('Not found');
        if (!tokenMatches(token, request.headers.authorization)) throw unauthorized('Invalid inbound token');
      },
      errorHandler: (err) => {
        const code = (err as { code?: string }).code;
        if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_REQ_FILE_TOO_LARGE')
          throw payloadTooLarge(TOO_LARGE_MESSAGE);
        throw err;
      },
      schema: {
        tags: ['inbound'],
        summary:
          'A raw customer message (message/rfc822, or multipart/form-data with the raw message in `email`); Authorization: Bearer INBOUND_TOKEN',
        security: [{ inboundToken: [] }],
        consumes: ['message/rfc822', 'multipart/form-data'],
        response: { 200: inboundResult },
      },
    },
    async (request) => {
      let raw: Buffer | null = null;
      let envelope: string[] = [];
      if (request.isMultipart()) {
        try {
          for await (const part of request.parts({
            limits: {
              fieldSize: INBOUND_LIMITS.maxBytes,
              fields: 40,
              files: 30,
              fileSize: INBOUND_LIMITS.maxBytes,
              parts: 80,
            },
          })) {
            if (part.type === 'file') {
              const file = part as MultipartFile;
              // Parsed mode sends the attachments again as files; the raw message already holds them.
              file.file.resume();
              continue;
            }
            const value = typeof part.value === 'string' ? part.value : String(part.value);
            if (part.fieldname === 'email') {
              if (part.valueTruncated) throw payloadTooLarge(TOO_LARGE_MESSAGE);
              raw = Buffer.from(value, 'utf8');
            } else if (part.fieldname === 'envelope') envelope = envelopeRecipients(value);
          }
        } catch (err) {
          if (err instanceof HttpError) throw err;
          const code = (err as { code?: string }).code;
          if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_FILES_LIMIT')
            throw badRequest('The form has too many fields.');
          if (code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(TOO_LARGE_MESSAGE);
          throw malformedForm(err);
        }
        if (!raw) throw badRequest('Send the raw message in the field email (the "send raw" option).');
      } else if (Buffer.isBuffer(request.body)) {
        raw = request.body;
      } else {
        throw unsupportedMediaType('Send the raw message as message/rfc822 or multipart/form-data.');
      }
      const mail = await parseInbound(raw, envelope);
      const result = await receiveInboundMail({ db, config }, mail);
      request.log.info({ inboundId: result.inboundId, disposition: result.disposition }, 'inbound mail');
      return {
        status: 1 as const,
        message: 'Received',
        data: { orderId: result.orderId, disposition: result.disposition },
      };
    },
  );
};
