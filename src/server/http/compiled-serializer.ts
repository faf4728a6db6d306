import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

/**
 * The big answers (order lists and search, the order detail, Insights' year of series) are written by
 * fast-json-stringify, compiled once per route from the JSON schema of the same zod contract (decision
 * 224), instead of a zod encode of the whole answer followed by JSON.stringify. The compiled writer
 * emits exactly the contract's properties (nothing else leaks) and escapes strings as JSON.stringify
 * does; the test compiled-serializer.test.ts checks its output equals the zod-validated output on real
 * rows, hostile strings included. Every other route keeps the zod serializer.
 */
export const COMPILED_RESPONSE_ROUTES = new Set([
  'GET /api/admin/get-orders-list/:orderName',
  'POST /api/admin/search-order',
  'GET /api/admin/get-orders-details/:orderId',
  'GET /api/admin/insights',
]);

/** The JSON schema of a zod response contract, as the compiled writer reads it. */
export function responseJsonSchema(schema: ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** fast-json-stringify of a zod contract; throws when the contract has parts JSON schema cannot say. */
export function compileResponseWriter(schema: ZodType): (data: unknown) => string {
  return fastJson(responseJsonSchema(schema) as unknown as Parameters<typeof fastJson>[0]) as (
    data: unknown,
  ) => string;
}

/** Routes whose 2xx answers did compile (a contract JSON schema cannot express stays with zod). */
export const compiledRoutes = new Set<string>();

const zodSerializer = zodSerializerCompiler as unknown as FastifySerializerCompiler<unknown>;

export const responseSerializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const key = `${route.method} ${route.url}`;
  const status = String(route.httpStatus ?? '');
  if (COMPILED_RESPONSE_ROUTES.has(key) && status.startsWith('2')) {
    try {
      const writer = compileResponseWriter(route.schema as ZodType);
      compiledRoutes.add(key);
      return writer as never;
    } catch {
      // A contract JSON schema cannot express keeps the zod serializer.
    }
  }
  return zodSerializer(route);
};
