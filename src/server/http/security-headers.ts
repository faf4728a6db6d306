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

/** Sets the security headers on every answer, in one hook, as early as the helmet plugin did. */
export async function securityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const headers = await computeSecurityHeaders(helmetOptions(config));
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}
