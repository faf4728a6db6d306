import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** The app's security headers: a strict CSP, HSTS behind a TLS proxy, no embedding. */
function helmetOptions(config: Config): FastifyHelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // HSTS only makes sense behind TLS; the proxy in front terminates it.
    hsts: config.TRUST_PROXY !== false ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The headers helmet sets for these options, computed once: helmet runs on one request of a throwaway
 * instance and what it wrote on the response is kept. No option depends on the request (no CSP
 * nonces), so every answer gets the same set (docs/decisions/341-security-headers-once-token-cache.md).
 */
async function computeSecurityHeaders(options: FastifyHelmetOptions) {
  const probe = Fastify();
  await probe.register(helmet, options);
  let set: [string, string][] = [];
  probe.get('/', (_request, reply) => {
    set = Object.entries(reply.raw.getHeaders()).map(([name, value]) => [name, String(value)]);
    return reply.send('');
  });
  await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  return set;
}

/** The policy of a JSON answer: it loads nothing and may be framed by nobody. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Whether an answer's content type is JSON (with or without a charset). */
function isJson(type: unknown): boolean {
  return typeof type === 'string' && type.startsWith('application/json');
}

/**
 * Sets the security headers in one hook, as early as the helmet plugin did. An API path gets the short
 * set a JSON answer needs (nosniff, a CSP that loads nothing, HSTS behind TLS, `no-store` unless the route
 * says otherwise); an API answer that turns out not to be JSON (a document, a CSV, the API docs, an
 * event stream) gets the page set when it is sent, like every HTML page (decision 348).
 */
export async function securityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const page = await computeSecurityHeaders(helmetOptions(config));
  const api: [string, string][] = [
    ['content-security-policy', API_CSP],
    ['x-content-type-options', 'nosniff'],
    ...page.filter(([name]) => name === 'strict-transport-security'),
  ];
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of request.url.startsWith('/api/') ? api : page) raw.setHeader(name, value);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/')) {
      // API answers hold personal data (orders, customers, staff): no browser or proxy may keep a copy.
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      if (!isJson(reply.getHeader('content-type'))) {
        const raw = reply.raw;
        for (const [name, value] of page) raw.setHeader(name, value);
      }
    }
    done(null, payload);
  });
}
