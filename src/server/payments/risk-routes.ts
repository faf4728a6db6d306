import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderIdField } from '../../shared/contracts/common.js';
import {
  disputesQuery,
  disputesResponse,
  paymentPolicyBody,
  paymentPolicyResponse,
  riskActionResponse,
  riskReasonBody,
} from '../../shared/contracts/payment-risk.js';
import { now } from '../auth/clock.js';
import { staffOf } from '../auth/guard.js';
import type { Config } from '../config.js';
import type { CheckSettings } from '../orders/order-checks.js';
import { keepOnWarning, refundNowOnWarning } from '../flows/fraud-warning.js';
import { clearRiskHold } from '../flows/risk-hold.js';
import { ok } from '../http/envelope.js';
import { HttpError } from '../http/errors.js';
import { currentMonth, disputeRatios } from './dispute-ratios.js';
import { readPaymentPolicy, savePaymentPolicy } from './policy.js';

const security = [{ staffToken: [] }];
const orderIdParams = z.object({ orderId: orderIdField });
const checkSettingsOf = (config: Config): CheckSettings => ({
  minPassportValidityDays: config.PASSPORT_MIN_VALIDITY_DAYS,
});

/** The payment policy and acting on payment risk (docs/product.md, "Fraud warnings and risk"). */
export const paymentRiskRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/payment-policy',
    {
      config: { permission: 'payments.policyRead' },
      schema: {
        tags: ['payments'],
        summary: 'The payment policy: refund on an early fraud warning, and the dispute bands (percent)',
        security,
        response: { 200: paymentPolicyResponse },
      },
    },
    async () => ok(await readPaymentPolicy(db), 'Payment policy'),
  );

  app.put(
    '/admin/payment-policy',
    {
      config: { permission: 'payments.policyWrite' },
      schema: {
        tags: ['payments'],
        summary:
          'Change the payment policy (Admin, audited): autoRefundFraudWarnings, disputeWatchPercent, disputeExcessivePercent',
        security,
        body: paymentPolicyBody,
        response: { 200: paymentPolicyResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const saved = await db.transaction((tx) => savePaymentPolicy(tx, staff, request.body, request.ip));
      return ok(saved, 'The payment policy has been saved.');
    },
  );

  app.get(
    '/admin/insights/disputes',
    {
      config: { permission: 'payments.insights' },
      schema: {
        tags: ['payments'],
        summary:
          "The month's dispute ratios per card network (Visa-style and Mastercard-style, with bands) and the 12 months up to it",
        security,
        querystring: disputesQuery,
        response: { 200: disputesResponse },
      },
    },
    async (request) =>
      ok(await disputeRatios(db, request.query.month ?? currentMonth(now())), 'Dispute ratios'),
  );

  app.post(
    '/admin/orders/:orderId/risk-hold/clear',
    {
      config: { permission: 'payments.risk' },
      schema: {
        tags: ['payments'],
        summary:
          "Clear an order's risk hold with a reason (Admin, Manager; audited): it may be submitted again",
        security,
        params: orderIdParams,
        body: riskReasonBody,
        response: { 200: riskActionResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const done = await clearRiskHold(
        db,
        checkSettingsOf(config),
        staff,
        request.params.orderId,
        request.body.reason,
        request.ip,
      );
      return ok(done, 'The risk hold has been cleared.');
    },
  );

  app.post(
    '/admin/orders/:orderId/fraud-warning/refund',
    {
      config: { permission: 'payments.risk' },
      schema: {
        tags: ['payments'],
        summary:
          'Refund now: the whole payment back through the provider on its early fraud warning, then Completed Refunds with the refund mail',
        security,
        params: orderIdParams,
        response: { 200: riskActionResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const orderId = request.params.orderId;
      const done = await refundNowOnWarning(db, config, checkSettingsOf(config), staff, orderId);
      if (!done.refunded) throw new HttpError(422, `Order ${orderId}: ${done.message}`);
      return ok(
        { orderId, processStatus: 'Refunded', refundId: done.refundId },
        `Order ${orderId}: ${done.message}`,
      );
    },
  );

  app.post(
    '/admin/orders/:orderId/fraud-warning/keep',
    {
      config: { permission: 'payments.risk' },
      schema: {
        tags: ['payments'],
        summary: 'Keep the payment despite its early fraud warning, with a reason (audited)',
        security,
        params: orderIdParams,
        body: riskReasonBody,
        response: { 200: riskActionResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const orderId = request.params.orderId;
      const done = await keepOnWarning(
        db,
        checkSettingsOf(config),
        staff,
        orderId,
        request.body.reason,
        request.ip,
      );
      return ok(done, 'The payment is kept.');
    },
  );
};
