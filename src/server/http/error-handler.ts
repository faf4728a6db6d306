import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MSG } from '../../shared/messages.js';
import { httpErrorOf } from './errors.js';

const SPEC_MESSAGES = new Set<string>(Object.values(MSG));

interface FieldError {
  field: string;
  message: string;
}

function bodyStatus(code: number): 0 | 401 {
  return code === 401 ? 401 : 0;
}

/** Postgres/PGlite errors that mean "the database is not reachable right now". */
function isDatabaseDown(err: unknown): boolean {
  // Drizzle wraps driver errors: look through the cause chain.
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isConnectionError(e)) return true;
  }
  return false;
}

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  return (
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'ETIMEDOUT',
      '57P01',
      '57P02',
      '57P03',
      '08006',
      '08001',
      '08003',
    ].includes(code) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      (err as Error).message ?? '',
    )
  );
}

/**
 * The multipart parser's own complaints about a form it could not read (cut off, no or a wrong boundary):
 * the sender's fault, never a server error.
 */
const MALFORMED_MULTIPART =
  /^(Unexpected end of (multipart data|form)|Multipart: Boundary not found|Boundary required|Malformed part header)/;

/**
 * The one error handler: validation errors become 400 naming the field; HttpErrors keep their status
 * and the order domain's refusals answer theirs (httpErrorOf);
 * anything else is logged and answered as a bare 500 (no stack, no internals).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: FieldError[] = err.validation.map((v) => {
        const field =
          (v.instancePath || '').replace(/^\//, '').replaceAll('/', '.') || err.validationContext || 'body';
        const raw = v.message ?? 'Invalid value';
        // The field is named here and only here; contract messages carry none.
        // A message that already opens with the field's name ("Password must be …") is not prefixed again.
        const leaf = field.split('.').at(-1)!.toLowerCase();
        const named =
          SPEC_MESSAGES.has(raw) || raw.startsWith(`${field}: `) || raw.toLowerCase().startsWith(`${leaf} `);
        return { field, message: named ? raw : `${field}: ${raw}` };
      });
      return reply
        .code(400)
        .send({ status: 0, message: errors[0]?.message ?? 'Invalid request', data: { errors } });
    }
    const answered = httpErrorOf(err);
    if (answered) {
      const wait = (answered.data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      if (answered.statusCode === 429 && typeof wait === 'number') reply.header('retry-after', String(wait));
      return reply.code(answered.statusCode).send({
        status: bodyStatus(answered.statusCode),
        message: answered.message,
        ...(answered.data ? { data: answered.data } : {}),
      });
    }
    if (MALFORMED_MULTIPART.test(err.message ?? '') && !(err.statusCode && err.statusCode >= 400)) {
      return reply.code(400).send({ status: 0, message: 'The form data is incomplete or malformed.' });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send({ status: 0, message: 'Internal server error' });
    }
    const statusCode = err.statusCode ?? 500;
    if (statusCode >= 400 && statusCode < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported media type…
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? 'Malformed JSON body'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.code === 'FST_REQ_FILE_TOO_LARGE'
            ? 'Request body is too large'
            : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'Unsupported content type'
              : err.message;
      return reply.code(statusCode).send({ status: bodyStatus(statusCode), message });
    }
    if (isDatabaseDown(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply
        .code(503)
        .send({ status: 0, message: 'Service temporarily unavailable. Please try again.' });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ status: 0, message: 'Internal server error' });
  });
}
