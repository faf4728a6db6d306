import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import { orderIdField } from '../../shared/contracts/common.js';
import {
  orderPaymentResponse,
  submitEvidenceBody,
  submitEvidenceResponse,
} from '../../shared/contracts/payments.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { badRequest, notFound } from '../http/errors.js';
import { submitEvidence } from './evidence.js';
import { orderPayment } from './queries.js';
import { stripeEventShapeError } from './stripe-events.js';
import { verifyStripeEvent } from './stripe-gateway.js';
import { applyStripeEvent } from '../flows/provider-event.js';
import { scheduleDisputeBandCheck } from '../flows/dispute-band.js';
import { refundOnFraudWarning } from '../flows/fraud-warning.js';

const security = [{ staffToken: [] }];
const orderIdParams = z.object({ orderId: orderIdField });

/** Payments: the order's Payment section, dispute evidence, and the providers' webhooks. */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/orders/:orderId/payment',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['payments'],
        summary:
          'How money moves for the order: its gateway (integrated or manual, and why), disputes, refunds',
        security,
        params: orderIdParams,
        response: { 200: orderPaymentResponse },
      },
    },
    async (request) => ok(await orderPayment(db, config, request.params.orderId), 'Payment'),
  );

  app.post(
    '/admin/orders/:orderId/submit-evidence',
    {
      config: { permission: 'orders.disputeEvidence' },
      schema: {
        tags: ['payments'],
        summary:
          "Uploads the Defence Pack (and the approved card) as the open dispute's evidence at the provider and fills the evidence fields; submit false saves a draft",
        security,
        params: orderIdParams,
        body: submitEvidenceBody,
        response: { 200: submitEvidenceResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const done = await submitEvidence(db, config, staff, request.params.orderId, request.body.submit);
      return ok(
        done,
        done.submitted ? 'The evidence was submitted to the bank.' : 'The evidence was saved as a draft.',
      );
    },
  );

  // The webhook reads its body raw (the signature covers the exact bytes), so it has its own parser.
  await app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    hooks.post(
      '/webhooks/stripe',
      {
        config: { public: true, rateLimit: { max: 600, timeWindow: '1 minute' } },
        schema: {
          tags: ['payments'],
          summary: 'Stripe events (signed); 404 while no signing secret is set',
          hide: true,
        },
      },
      async (request) => {
        const secret = config.STRIPE_WEBHOOK_SECRET;
        if (!secret) throw notFound('Not found');
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !signature) throw badRequest('Missing Stripe-Signature header');
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        let event: Stripe.Event;
        try {
          event = verifyStripeEvent(raw, signature, secret);
        } catch {
          throw badRequest('The signature does not match this event or is too old');
        }
        const shapeError = stripeEventShapeError(event);
        if (shapeError) throw badRequest(`The event cannot be read: ${shapeError}`);
        const settings = { minPassportValidityDays: app.ctx.config.PASSPORT_MIN_VALIDITY_DAYS };
        const applied = await applyStripeEvent(db, event, settings);
        if (
          !applied.duplicate &&
          (event.type === 'charge.dispute.created' || event.type.startsWith('radar.'))
        ) {
          // The month's dispute band may have changed: the managers hear it once.
          void scheduleDisputeBandCheck(db, config, (err) =>
            request.log.warn({ err }, 'dispute band check failed'),
          );
        }
        if (applied.refundWarning !== undefined) {
          // The event is recorded; the refund at the provider follows (its own idempotency key per warning).
          try {
            const done = await refundOnFraudWarning(db, config, settings, applied.refundWarning);
            return {
              received: true,
              duplicate: false,
              outcome: done.refunded
                ? 'early fraud warning: order refunded'
                : `early fraud warning: not refunded (${done.message})`,
            };
          } catch (err) {
            request.log.warn({ err, eventId: event.id }, 'stripe event: refund on a fraud warning failed');
            return { received: true, duplicate: false, outcome: 'early fraud warning: not refunded' };
          }
        }
        if (!applied.duplicate && applied.orderId === null) {
          request.log.warn({ eventId: event.id, type: event.type }, `stripe event: ${applied.outcome}`);
        }
        return { received: true, duplicate: applied.duplicate, outcome: applied.outcome };
      },
    );
  });
};
