import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Unknown body fields are rejected on every route (decision 002, OWASP API3): object bodies are closed here,
 * once, so a route cannot forget it and the forms may keep sharing the open contracts.
 */
export function strictBody<T>(schema: T): T {
  // Works for classic and mini schemas alike (the customer contracts use zod/mini).
  if (!(schema instanceof z.core.$ZodObject)) return schema;
  const object = schema as unknown as z.core.$ZodObject & { clone(def: unknown): unknown };
  return object.clone({ ...object._zod.def, catchall: z.never() }) as T;
}

export const strictValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler(route.httpPart === 'body' ? { ...route, schema: strictBody(route.schema) } : route);

/** The OpenAPI document shows the same closed bodies (additionalProperties: false). */
export const strictJsonSchemaTransform: typeof jsonSchemaTransform = (args) =>
  jsonSchemaTransform({
    ...args,
    schema: args.schema?.body
      ? ({ ...args.schema, body: strictBody(args.schema.body) } as FastifySchema)
      : args.schema,
  });
