import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import Stripe from 'stripe';
import { z } from 'zod';
import {
  financeAnswer,
  financeOrdersAnswer,
  financeOrdersQuery,
  financeQuery,
  payoutSyncAnswer,
  unmatchedQuery,
  unmatchedTransaction,
} from '../../shared/contracts/finance.js';
import { ROUTE_BOUNDS, syncPayouts } from '../flows/payout-sync.js';
import { envelope } from '../../shared/contracts/common.js';
import { ok } from '../http/envelope.js';
import { HttpError } from '../http/errors.js';
import { financeCsv, financeOrders, financeReport } from './finance.js';
import { unmatchedTransactions } from './queries.js';

const security = [{ staffToken: [] }];

/** The payout sync, its unmatched transactions and the finance report (docs/product.md, "Finance report"). */
export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, db, database } = app.ctx;

  app.post(
    '/admin/payouts/sync',
    {
      config: { permission: 'payouts.sync' },
      schema: {
        tags: ['payments'],
        summary:
          "Sync the provider's payouts and their balance transactions now (Admin): a bounded run; `complete: false` means the hourly job or the next call carries on",
        security,
        response: { 200: envelope(payoutSyncAnswer) },
      },
    },
    async () => {
      if (!config.STRIPE_SECRET_KEY)
        throw new HttpError(409, 'Stripe is not configured (STRIPE_SECRET_KEY).');
      try {
        const answer = await syncPayouts({ config, db }, ROUTE_BOUNDS);
        return ok(
          answer,
          answer.complete ? 'Payouts are synced.' : 'Payouts partly synced; the rest follows.',
        );
      } catch (err) {
        if (err instanceof Stripe.errors.StripeError) {
          throw new HttpError(502, `Stripe did not answer the payout sync: ${err.message.slice(0, 200)}`);
        }
        throw err;
      }
    },
  );

  app.get(
    '/admin/payouts/unmatched',
    {
      config: { permission: 'payouts.sync' },
      schema: {
        tags: ['payments'],
        summary: 'Synced balance transactions not matched to an order, newest first (Admin)',
        security,
        querystring: unmatchedQuery,
        response: { 200: envelope(z.array(unmatchedTransaction)) },
      },
    },
    async (request) => {
      const rows = await unmatchedTransactions(db, request.query.limit);
      return ok(rows, rows.length ? 'Unmatched transactions' : 'No records found');
    },
  );

  app.get(
    '/admin/reports/finance',
    {
      config: { permission: 'reports.finance' },
      schema: {
        tags: ['reports'],
        summary:
          'Margin per day or month (Admin, Manager): gross, provider fees, government fees, refunds by reason, disputes, net; USD cents',
        security,
        querystring: financeQuery,
        response: { 200: envelope(financeAnswer) },
      },
    },
    async (request) =>
      ok(await financeReport(database.sql, request.query, config.GOV_FEE_CENTS), 'Finance report'),
  );

  app.get(
    '/admin/reports/finance/orders',
    {
      config: { permission: 'reports.finance' },
      schema: {
        tags: ['reports'],
        summary:
          'The orders behind one figure of the finance report (Admin, Manager): per order its share in USD cents, largest first, with the unmatched part',
        security,
        querystring: financeOrdersQuery,
        response: { 200: envelope(financeOrdersAnswer) },
      },
    },
    async (request) => {
      const answer = await financeOrders(database.sql, request.query, config.GOV_FEE_CENTS);
      return ok(answer, answer.orderCount ? 'Orders behind the figure' : 'No records found');
    },
  );

  app.get(
    '/admin/reports/finance/export',
    {
      config: { permission: 'reports.finance' },
      schema: {
        tags: ['reports'],
        summary: 'The finance report as CSV (Admin, Manager): one line per period and a total line, cents',
        security,
        querystring: financeQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const answer = await financeReport(database.sql, request.query, config.GOV_FEE_CENTS);
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="finance-${request.query.from}-${request.query.to}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(financeCsv(answer));
    },
  );
};
