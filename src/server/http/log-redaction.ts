import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are credentials (the customer's signed download URL uses `token`). */
const SECRET_PARAM =
  /^(token|access_token|id_token|refresh_token|jwt|key|api_key|apikey|secret|password|signature|sig|code|auth|authorization)$/i;
/** A JWT anywhere in a URL (a token pasted into a path or an unexpected parameter). */
const JWT = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;
const REDACTED = '[REDACTED]';

/** The URL as it may be logged: secret parameter values and JWTs replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(JWT, REDACTED);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part.replace(JWT, REDACTED);
      const name = part.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent.
      }
      return SECRET_PARAM.test(decoded) ? `${name}=${REDACTED}` : part.replace(JWT, REDACTED);
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
