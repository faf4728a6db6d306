import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/chromium.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Only for `npm run bench`: the 'All' measurement against the server the bench started (no webServer). */
export default defineConfig({
  testDir: path.join(HERE, '../e2e'),
  testMatch: 'perf-all.spec.ts',
  timeout: 240_000,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: path.join(HERE, '.data/playwright'),
  use: {
    baseURL: process.env.BENCH_BASE_URL,
    viewport: { width: 1366, height: 900 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: ['--headless', ...CHROMIUM_FLAGS],
    },
    trace: 'off',
  },
});
