import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { orderIdField } from '../../shared/contracts/common.js';
import { CUSTOMER_MSG } from '../../shared/contracts/customer.js';
import {
  CUSTOMER_EDITABLE_FIELDS,
  cancellationPolicy,
  cancellationPolicyResponse,
  customerCancelAnswer,
  customerCancelBody,
  customerCorrectionAnswer,
  customerCorrectionBody,
  feedbackPolicy,
  feedbackPolicyResponse,
  ratingAnswer,
  ratingBody,
  selfServiceResponse,
  trackPageAnswers,
  trackPageAnswersResponse,
} from '../../shared/contracts/self-service.js';
import { customerStageOf } from '../../shared/customer-stage.js';
import { CUSTOMER_LANGUAGES } from '../../shared/languages.js';
import { staffOf } from '../auth/guard.js';
import { tokenFromHeader } from '../auth/tokens.js';
import { checkSettingsOf } from '../checks/queries.js';
import { customerCancellations, orderRatings, orders } from '../db/schema.js';
import { customerCancel, cancellationQuote } from '../flows/customer-cancel.js';
import { customerCorrection } from '../flows/customer-correction.js';
import { assertRatingLink, rateOrder, ratingAsked } from '../flows/rating.js';
import { ok } from '../http/envelope.js';
import { unauthorized } from '../http/errors.js';
import { notErased } from './queries.js';
import { customerSide, selfServiceOpen } from './self-service.js';
import {
  getCancellationPolicy,
  getFeedbackPolicy,
  getTrackPageAnswers,
  setCancellationPolicy,
  setFeedbackPolicy,
  setTrackPageAnswers,
  stageAnswers,
} from './self-service-settings.js';
import { verifyCustomerToken } from './tokens.js';

const security = [{ staffToken: [] }];
const orderParams = z.object({ orderId: orderIdField });
const asText = (v: unknown) => (v === null || v === undefined ? null : String(v));
const camel = (f: string) => f.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Per client address: enough for a person on the track page, not for a script. */
const perIp = (name: string, max: number) => ({
  max,
  timeWindow: 10 * 60_000,
  keyGenerator: (r: FastifyRequest) => `${name}:${r.ip}`,
});

/**
 * The customers' self-service on the track page (docs/product.md, "Customers help themselves"), each
 * route behind the customer token of its order (another order's id answers 401), and the Admin's
 * settings of it.
 */
export const selfServiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const settings = checkSettingsOf(config);

  /** The token must be a customer token for the order in the path. */
  const tokenOrderOf = async (request: FastifyRequest) => {
    const token = tokenFromHeader(request.headers.authorization);
    return token ? await verifyCustomerToken(config.JWT_SECRET, token) : null;
  };
  const pathOrder = (request: FastifyRequest) =>
    Number(String((request.params as { orderId?: unknown }).orderId ?? '').replace(/^0+(?=\d)/, ''));
  const requireCustomerToken = async (request: FastifyRequest) => {
    const orderId = await tokenOrderOf(request);
    if (orderId === null || orderId !== pathOrder(request)) throw unauthorized(CUSTOMER_MSG.sessionExpired);
  };

  app.get(
    '/customer/orders/:orderId/self-service',
    {
      config: { public: true, rateLimit: perIp('self-read', 120) },
      onRequest: requireCustomerToken,
      schema: {
        tags: ['customer'],
        summary:
          'What the track page offers now: the editable details, the cancellation with its amount, the rating and the stage answers (customer token)',
        params: orderParams,
        querystring: z.object({ lang: z.enum(CUSTOMER_LANGUAGES).optional() }).strict(),
        response: { 200: selfServiceResponse },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const [order] = await db
        .select()
        .from(orders)
        .where(and(eq(orders.orderId, orderId), notErased));
      if (!order || order.processStatus === 'Deleted') throw unauthorized(CUSTOMER_MSG.sessionExpired);
      const side = customerSide(config, order, request.query.lang);
      const open = selfServiceOpen(order.processStatus);
      const [quote, cancelled, rating, asked] = await Promise.all([
        cancellationQuote(db, order),
        db.select().from(customerCancellations).where(eq(customerCancellations.orderId, orderId)),
        db.select().from(orderRatings).where(eq(orderRatings.orderId, orderId)),
        ratingAsked(db, orderId),
      ]);
      const record = order as unknown as Record<string, unknown>;
      const stage = customerStageOf(order.processStatus).stage;
      return ok(
        {
          orderId,
          version: order.version,
          editable: open,
          cancellable: !!quote,
          fields: Object.fromEntries(CUSTOMER_EDITABLE_FIELDS.map((f) => [f, asText(record[camel(f)])])),
          cancellation: quote
            ? {
                percent: quote.percent,
                amount: quote.amount,
                policyText: side.t('self.policy', {
                  untouched: quote.policy.untouchedPercent,
                  workedOn: quote.policy.workedOnPercent,
                }),
              }
            : null,
          cancelled: cancelled[0]
            ? { percent: cancelled[0].percent, amount: cancelled[0].amount, outcome: cancelled[0].outcome }
            : null,
          rating: { asked, score: rating[0]?.score ?? null, comment: rating[0]?.comment ?? '' },
          answers: await stageAnswers(db, stage, side.language),
        },
        'Self-service',
      );
    },
  );

  app.patch(
    '/customer/orders/:orderId',
    {
      config: { public: true, rateLimit: perIp('self-edit', 30) },
      onRequest: requireCustomerToken,
      schema: {
        tags: ['customer'],
        summary:
          'The customer corrects their details before submission (customer token; 409 once submitted or stale, 429 over 10 edits a day)',
        params: orderParams,
        body: customerCorrectionBody,
        response: { 200: customerCorrectionAnswer },
      },
    },
    async (request) => {
      const result = await customerCorrection(
        { db, config, settings },
        request.params.orderId,
        request.body,
        request.ip,
      );
      return ok({ version: result.version, changes: result.changes }, result.message);
    },
  );

  app.post(
    '/customer/orders/:orderId/cancel',
    {
      config: { public: true, rateLimit: perIp('self-cancel', 10) },
      onRequest: requireCustomerToken,
      schema: {
        tags: ['customer'],
        summary:
          'The customer cancels before submission; the refund follows the cancellation policy (customer token; once per order)',
        params: orderParams,
        body: customerCancelBody,
        response: { 200: customerCancelAnswer },
      },
    },
    async (request) => {
      const { message, ...result } = await customerCancel(
        { db, config },
        request.params.orderId,
        request.body,
        request.ip,
      );
      return ok(result, message);
    },
  );

  app.post(
    '/customer/orders/:orderId/rating',
    {
      config: { public: true, rateLimit: perIp('self-rating', 20) },
      schema: {
        tags: ['customer'],
        summary:
          "The customer's rating of a completed order (customer token, or the feedback mail's signed link as `signature`); a later one replaces it",
        params: orderParams,
        body: ratingBody,
        response: { 200: ratingAnswer },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const { signature, ...input } = request.body;
      if (signature !== undefined) assertRatingLink(config, orderId, signature);
      else if ((await tokenOrderOf(request)) !== orderId) throw unauthorized(CUSTOMER_MSG.sessionExpired);
      const { thanks, ...rating } = await rateOrder({ db, config, settings }, orderId, input, request.ip);
      return ok(rating, thanks);
    },
  );

  app.get(
    '/admin/cancellation-policy',
    {
      config: { permission: 'settings.selfService' },
      schema: {
        tags: ['customer'],
        summary: 'The cancellation policy (Admin)',
        security,
        response: { 200: cancellationPolicyResponse },
      },
    },
    async () => ok(await getCancellationPolicy(db), 'Cancellation policy'),
  );
  app.put(
    '/admin/cancellation-policy',
    {
      config: { permission: 'settings.selfService' },
      schema: {
        tags: ['customer'],
        summary: 'Change the cancellation policy (Admin; audited)',
        security,
        body: cancellationPolicy,
        response: { 200: cancellationPolicyResponse },
      },
    },
    async (request) =>
      ok(
        await setCancellationPolicy(db, staffOf(request), request.body, request.ip),
        'The cancellation policy has been saved.',
      ),
  );
  app.get(
    '/admin/feedback-policy',
    {
      config: { permission: 'settings.selfService' },
      schema: {
        tags: ['customer'],
        summary: 'The feedback policy (Admin)',
        security,
        response: { 200: feedbackPolicyResponse },
      },
    },
    async () => ok(await getFeedbackPolicy(db), 'Feedback policy'),
  );
  app.put(
    '/admin/feedback-policy',
    {
      config: { permission: 'settings.selfService' },
      schema: {
        tags: ['customer'],
        summary: 'Change the feedback policy (Admin; audited)',
        security,
        body: feedbackPolicy,
        response: { 200: feedbackPolicyResponse },
      },
    },
    async (request) =>
      ok(
        await setFeedbackPolicy(db, staffOf(request), request.body, request.ip),
        'The feedback policy has been saved.',
      ),
  );
  app.get(
    '/admin/track-page-answers',
    {
      config: { permission: 'settings.selfService' },
      schema: {
        tags: ['customer'],
        summary: 'The track page answers (Admin)',
        security,
        response: { 200: trackPageAnswersResponse },
      },
    },
    async () => ok(await getTrackPageAnswers(db), 'Track page answers'),
  );
  app.put(
    '/admin/track-page-answers',
    {
      config: { permission: 'settings.selfService' },
      schema: {
        tags: ['customer'],
        summary: 'Change the track page answers (Admin; audited)',
        security,
        body: trackPageAnswers,
        response: { 200: trackPageAnswersResponse },
      },
    },
    async (request) =>
      ok(
        await setTrackPageAnswers(db, staffOf(request), request.body, request.ip),
        'The track page answers has been saved.',
      ),
  );
};
