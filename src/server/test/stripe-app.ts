import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import { type StripeDouble, startStripeDouble } from './stripe-server.js';

export interface StripeTestApp {
  t: TestApp;
  /** The local server speaking Stripe's API that the app calls. */
  stripe: StripeDouble;
}

/**
 * Within a test file or `describe`: a Stripe double and an app whose Stripe calls go to it, with `env`
 * beside (the secret key, the webhook secret, a timeout). The fields are filled before the first test.
 */
export function stripeTestApp(env: Record<string, string>): StripeTestApp {
  const fixture = {} as StripeTestApp;
  beforeAll(async () => {
    fixture.stripe = await startStripeDouble();
    fixture.t = await createTestApp({ STRIPE_API_BASE: fixture.stripe.url, ...env });
  });
  afterAll(async () => {
    await fixture.t?.close();
    await fixture.stripe?.close();
  });
  return fixture;
}
