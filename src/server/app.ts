import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { MAX_UPLOAD_BYTES } from '../shared/constants.js';
import { authGuard } from './auth/guard.js';
import { type Config, fastifyTrustProxy } from './config.js';
import type { AppContext } from './context.js';
import { isCustomerPath, sendCustomerPage } from './customer/page.js';
import type { Database } from './db/client.js';
import { lifecycleGate } from './health/lifecycle.js';
import { metricsPlugin } from './metrics/metrics.js';
import { responseSerializerCompiler } from './http/compiled-serializer.js';
import { registerErrorHandler } from './http/error-handler.js';
import { loggerOptions } from './http/log-redaction.js';
import { securityHeaders } from './http/security-headers.js';
import { strictJsonSchemaTransform, strictValidatorCompiler } from './http/strict-bodies.js';
import { ListState } from './order-lists/read-list.js';
import { areaRoutes } from './routes.js';

/** The built SPA; CLIENT_DIST_DIR lets a test run serve its own build. */
export const CLIENT_DIST = process.env.CLIENT_DIST_DIR
  ? path.resolve(process.env.CLIENT_DIST_DIR)
  : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/client');

export interface BuildOptions {
  config: Config;
  database: Database;
  /** Pino logger options; tests pass false. */
  logger?: boolean | object;
}

/** Builds the whole app without listening (tests drive it with inject; main.ts listens). */
export async function buildApp({ config, database, logger }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(logger ?? { level: config.LOG_LEVEL }),
    trustProxy: fastifyTrustProxy(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false } },
    routerOptions: { maxParamLength: 200 },
    // Router-level failures (bad URL encoding, over-long path parameters) answer in the envelope too.
    frameworkErrors: (err, _request, reply) => {
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const raw = reply as unknown as { code(c: number): { send(body: unknown): void } };
      raw
        .code(tooLong ? 414 : 400)
        .send({ status: 0, message: tooLong ? 'The address is too long' : 'Malformed URL' });
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(strictValidatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  // One list state per app (decision 333); EDCARD_FIRST_PAGE_CACHE=0 turns the page-1 cache off.
  const lists = new ListState(database, process.env.EDCARD_FIRST_PAGE_CACHE !== '0');
  const ctx: AppContext = { config, database, db: database.db, lists };
  app.decorate('ctx', ctx);
  // Folder and due-time counts in memory, fed by the change events (decision 220).
  await lists.start((what) => app.log.warn(what));
  app.addHook('onClose', () => lists.close());

  registerErrorHandler(app);
  await app.register(lifecycleGate);
  await app.register(metricsPlugin);

  await securityHeaders(app, config);

  await app.register(rateLimit, {
    global: false,
    ...(config.REDIS_URL
      ? { redis: new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: false }) }
      : {}),
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      status: 0,
      message: `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });

  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12 },
  });

  if (config.NODE_ENV !== 'production') {
    await app.register(swagger, {
      openapi: {
        info: { title: 'ED-Card API', version: '1.0.0' },
        components: {
          securitySchemes: {
            staffToken: { type: 'apiKey', in: 'header', name: 'Authorization' },
            // The inbound mail webhook's own token (INBOUND_TOKEN), sent as a bearer token.
            inboundToken: { type: 'http', scheme: 'bearer' },
            // A machine's API key (edc_…) on the job API, sent as a bearer token.
            apiKey: { type: 'http', scheme: 'bearer' },
          },
        },
      },
      transform: strictJsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  }

  await app.register(authGuard);
  for (const routes of areaRoutes) {
    await app.register(routes, { prefix: '/api' });
  }

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply.code(404).send({ status: 0, message: 'Not found' });
    }
    if (!existsSync(path.join(CLIENT_DIST, 'index.html'))) {
      return reply.code(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    if (isCustomerPath(request.url)) return sendCustomerPage(request, reply, config, CLIENT_DIST);
    // History fallback: the SPA owns every non-API path.
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html', CLIENT_DIST);
  });

  if (existsSync(CLIENT_DIST)) {
    await app.register(fastifyStatic, {
      root: CLIENT_DIST,
      wildcard: false,
      index: false,
      // The build writes brotli and gzip copies beside each text file (vite.config.ts): sent to browsers
      // that accept them, the file itself to the others (docs/decisions/284).
      preCompressed: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  return app;
}
