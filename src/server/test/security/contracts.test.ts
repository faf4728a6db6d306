import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.js';

/** Decision 002: unknown body fields are rejected — every JSON body contract is a strict object. */
describe('request contracts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ INTAKE_API_KEY: 'contracts-test-key-0123456789' });
  });
  afterAll(() => t.close());

  it('declares every JSON body as a closed object (additionalProperties: false)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>
      >;
    };
    const open: string[] = [];
    let bodies = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const schema = op.requestBody?.content?.['application/json']?.schema as
          | {
              type?: string;
              additionalProperties?: unknown;
              anyOf?: { additionalProperties?: unknown }[];
              oneOf?: { additionalProperties?: unknown }[];
            }
          | undefined;
        if (!schema) continue;
        bodies += 1;
        // A union (anyOf) or a discriminated union (oneOf) is closed when each of its variants is.
        const variants = schema.anyOf ?? schema.oneOf ?? [schema];
        if (variants.some((v) => v.additionalProperties !== false))
          open.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(bodies).toBeGreaterThan(0);
    expect(open, `bodies that accept unknown fields:\n${open.join('\n')}`).toEqual([]);
  });
});
