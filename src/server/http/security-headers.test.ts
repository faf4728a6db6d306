import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';

/**
 * The security headers are computed once at start (security-headers.ts): every answer carries the same
 * set the per-request helmet middleware sent before, whatever the route or its outcome.
 */
const CSP =
  "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
  "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';" +
  "style-src 'self' 'unsafe-inline';connect-src 'self'";

const COMMON = {
  'content-security-policy': CSP,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
const NAMES = [...Object.keys(COMMON), 'strict-transport-security', 'x-powered-by'];

function securityHeaders(headers: Record<string, unknown>) {
  return Object.fromEntries(NAMES.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n]]));
}

const ROUTES = [
  { method: 'GET', url: '/api/health' },
  { method: 'GET', url: '/api/admin/get-folder-count' },
  { method: 'POST', url: '/api/login', payload: { email: 'nobody@example.org', password: 'x' } },
  { method: 'GET', url: '/api/no-such-route' },
  { method: 'GET', url: '/some/page/of/the/app' },
] as const;

describe.each([
  { name: 'without a proxy', env: {} as Record<string, string>, expected: COMMON },
  {
    name: 'in production behind a TLS proxy',
    env: { NODE_ENV: 'production', TRUST_PROXY: 'true' },
    expected: { ...COMMON, 'strict-transport-security': 'max-age=31536000; includeSubDomains' },
  },
])('security headers $name', ({ env, expected }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(env);
  });
  afterAll(() => t.close());

  it.each(ROUTES)('are the same set on $method $url', async (route) => {
    const res = await t.app.inject({ ...route });
    expect(securityHeaders(res.headers)).toEqual(expected);
  });
});
