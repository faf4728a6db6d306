import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';

/**
 * The security headers are computed once at start (security-headers.ts). A JSON API answer carries the
 * short set an API answer needs; pages, documents and every other non-JSON answer carry the page set
 * helmet writes (decision 348). Each kind's set is held here literally.
 */
const CSP =
  "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
  "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';" +
  "style-src 'self' 'unsafe-inline';connect-src 'self'";

const PAGE = {
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
const API = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};
const NAMES = [...Object.keys(PAGE), 'cache-control', 'strict-transport-security', 'x-powered-by'];

function securityHeaders(headers: Record<string, unknown>, kind: 'api' | 'page') {
  const names = kind === 'api' ? NAMES : NAMES.filter((n) => n !== 'cache-control');
  return Object.fromEntries(names.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n]]));
}

const ROUTES = [
  { kind: 'api', method: 'GET', url: '/api/health' },
  { kind: 'api', method: 'GET', url: '/api/admin/get-folder-count' },
  { kind: 'api', method: 'POST', url: '/api/login', payload: { email: 'nobody@example.org', password: 'x' } },
  { kind: 'api', method: 'GET', url: '/api/no-such-route' },
  { kind: 'page', method: 'GET', url: '/some/page/of/the/app' },
  { kind: 'download', method: 'GET', url: '/api/admin/export-orders/allOrder' },
] as const;

const HSTS = { 'strict-transport-security': 'max-age=31536000; includeSubDomains' };

describe.each([
  { name: 'without a proxy', env: {} as Record<string, string>, hsts: {} },
  {
    name: 'in production behind a TLS proxy',
    env: { NODE_ENV: 'production', TRUST_PROXY: 'true' },
    hsts: HSTS,
  },
])('security headers $name', ({ env, hsts }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(env);
  });
  afterAll(() => t.close());

  it.each(ROUTES)('are the $kind set on $method $url', async (route) => {
    const { kind, ...request } = route;
    // A download (the CSV export) carries the page set beside its own no-store.
    const res = kind === 'download' ? await t.as('Admin', request) : await t.app.inject(request);
    if (kind === 'download') expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const expected =
      kind === 'api'
        ? { ...API, ...hsts }
        : { ...PAGE, ...hsts, ...(kind === 'download' ? { 'cache-control': 'no-store' } : {}) };
    expect(securityHeaders(res.headers, kind === 'page' ? 'page' : 'api')).toEqual(expected);
  });
});
