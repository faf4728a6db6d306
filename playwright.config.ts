import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './e2e/chromium.js';

const port = Number(process.env.E2E_PORT ?? 3105);
const dataDir = path.join(os.tmpdir(), `edcard-e2e-${port}`);
/** The local server that speaks Stripe's API to the app (e2e/stripe-double.ts), and the webhook secret e2e/stripe.spec.ts signs with. */
const stripePort = port + 1000;
const E2E_STRIPE_WEBHOOK_SECRET = 'whsec_e2e_webhook_signing_secret';

/** End-to-end tests drive the built app in the system Chromium (no browser download works here). */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // One retry on CI: a shared 2-core machine occasionally misses a modal's fade-out or a keypress.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json']],
  outputDir: '.reports/playwright-artifacts',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: ['--headless', ...CHROMIUM_FLAGS],
    },
    trace: 'off',
  },
  webServer: [
    {
      command: 'npx tsx e2e/stripe-double.ts',
      url: `http://127.0.0.1:${stripePort}/__double/requests`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { STRIPE_DOUBLE_PORT: String(stripePort) },
    },
    {
      // The server runs from source (tsx) so parallel runs need only their own client build (E2E_CLIENT_DIST).
      command: `rm -rf ${dataDir} && npx tsx src/server/main.ts`,
      // Ready, not just listening: the server answers 503 while it migrates and seeds.
      url: `http://127.0.0.1:${port}/api/health/ready`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        CLIENT_DIST_DIR: process.env.E2E_CLIENT_DIST ?? 'dist/client',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
        INTAKE_API_KEY: 'e2e-intake-key-0123456789',
        ALT_LANDING_HOST: 'aruba-card.example',
        STRIPE_API_BASE: `http://127.0.0.1:${stripePort}`,
        STRIPE_SECRET_KEY: 'sk_test_e2e_stripe_double',
        STRIPE_WEBHOOK_SECRET: E2E_STRIPE_WEBHOOK_SECRET,
        // Customer mail arrives through the inbound route (e2e/workday-3.spec.ts posts a stray mail).
        INBOUND_TOKEN: 'e2e-inbound-token-0123456789',
        // Government mail (e2e/government-step.spec.ts): the government's domain, our receiving server.
        GOV_SENDER_DOMAINS: 'gov.aw',
        INBOUND_AUTHSERV_ID: 'mx.e2e.test',
        // Every spec looks orders up from 127.0.0.1: the whole run is one visitor to the track page.
        TRACK_PER_IP_MAX: '1000',
      },
    },
  ],
});
