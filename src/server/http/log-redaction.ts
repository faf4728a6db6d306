import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials (the customer's signed download URL uses `token`). */
const SECRET_PARAM =
  /^(token|access_token|id_token|refresh_token|jwt|key|api_key|apikey|secret|password|signature|sig|code|auth|authorization)$/i;
/**
 * Query parameters whose values are what someone searched for or a person's data: never logged, so an
 * erased customer's name or address does not stay in the request log.
 */
const PERSONAL_PARAM =
  /^(search|searchval|q|query|term|email|e-?mail|name|first_?name|last_?name|phone|telephone|passport|actor)$/i;
/** An e-mail address anywhere in a URL (raw or with its @ percent-encoded). */
const EMAIL = /[^\s/?&=#]+(@|%40)[^\s/?&=#]+/gi;
/** A JWT anywhere in a URL (a token pasted into a path or an unexpected parameter). */
const JWT = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;
const REDACTED = '[REDACTED]';

/** The URL as it may be logged: secret and personal parameter values, e-mail addresses and JWTs replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(JWT, REDACTED).replace(EMAIL, REDACTED);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part.replace(JWT, REDACTED).replace(EMAIL, REDACTED);
      const name = part.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent.
      }
      if (SECRET_PARAM.test(decoded) || PERSONAL_PARAM.test(decoded)) return `${name}=${REDACTED}`;
      return part.replace(JWT, REDACTED).replace(EMAIL, REDACTED);
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * Pino options for the app's logger: the request serializer logs the redacted URL and never a header,
 * and any Authorization or Cookie header logged by hand is censored.
 */
export function loggerOptions(options: boolean | object): boolean | object {
  if (options === false) return false;
  const base = options === true ? {} : (options as { serializers?: object; redact?: unknown });
  return {
    ...base,
    serializers: {
      ...base.serializers,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    redact: base.redact ?? {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'request.headers.authorization',
      ],
      censor: REDACTED,
    },
  };
}
