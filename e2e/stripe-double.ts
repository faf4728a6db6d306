import { startStripeDouble } from '../src/server/test/stripe-server.js';

/**
 * The local server speaking Stripe's API for the end-to-end run (playwright.config.ts starts it beside the
 * app): refunds and dispute evidence of Stripe orders go here, never off the machine.
 */
const port = Number(process.env.STRIPE_DOUBLE_PORT ?? 4105);
const double = await startStripeDouble({ port, control: true });
console.log(`Stripe double listening at ${double.url}`);
