import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.js';

describe('headers in production behind a TLS proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      NODE_ENV: 'production',
      TRUST_PROXY: 'true',
      INTAKE_API_KEY: 'headers-test-key-0123456789',
    });
  });
  afterAll(() => t.close());

  it('serves no API docs in production', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
  });

  it('sends HSTS, a CSP without inline scripts, frame-ancestors, nosniff and no version header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    const csp = String(res.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
  });

  it('refuses huge JSON bodies with 413 and never answers 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/intake/orders',
      headers: { 'content-type': 'application/json', 'x-intake-key': 'headers-test-key-0123456789' },
      // Above the intake's own limit (an order with its passport picture: 8 MB).
      payload: JSON.stringify({ x: 'y'.repeat(9 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: 0, message: 'Request body is too large' });
  });
});
