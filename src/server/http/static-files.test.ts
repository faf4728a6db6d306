import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// A client build of our own, with the brotli and gzip copies the Vite build writes (vite.config.ts),
// before app.ts reads CLIENT_DIST_DIR.
const clientDist = vi.hoisted(() => {
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const path = process.getBuiltinModule('node:path');
  const zlib = process.getBuiltinModule('node:zlib');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edcard-static-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>staff spa</title>');
  const js = `export const words = ${JSON.stringify('compress me '.repeat(500))};\n`;
  fs.writeFileSync(path.join(dir, 'assets', 'app-Ab12Cd34.js'), js);
  fs.writeFileSync(path.join(dir, 'assets', 'app-Ab12Cd34.js.br'), zlib.brotliCompressSync(js));
  fs.writeFileSync(path.join(dir, 'assets', 'app-Ab12Cd34.js.gz'), zlib.gzipSync(js));
  process.env.CLIENT_DIST_DIR = dir;
  return { dir, js };
});

import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  const fs = await import('node:fs');
  fs.rmSync(clientDist.dir, { recursive: true, force: true });
});

describe('the built client (docs/decisions/284)', () => {
  const url = '/assets/app-Ab12Cd34.js';

  it('sends the brotli copy to a browser that accepts it, cached for good', async () => {
    const res = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(clientDist.js);
  });

  it('sends the gzip copy to one that takes gzip only, the file itself to one that takes neither', async () => {
    const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(clientDist.js);
    const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(clientDist.js);
  });

  it('the SPA page itself, without a compressed copy, is sent as it is', async () => {
    const res = await t.app.inject({ url: '/admin', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toContain('staff spa');
  });
});
