import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cardCheckAnswer, releaseCardBody, sendArrivedCardBody } from '../../shared/contracts/card-check.js';
import { envelope, orderIdField } from '../../shared/contracts/common.js';
import { queuedMailResponse } from '../../shared/contracts/order-detail.js';
import { staffOf } from '../auth/guard.js';
import { eq } from 'drizzle-orm';
import { orders } from '../db/schema.js';
import { releaseCard } from '../flows/card-check.js';
import { sendArrivedCard } from '../flows/send-arrived-card.js';
import { ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { currentCardCheck } from './store.js';

const security = [{ staffToken: [] }];
const orderIdParams = z.object({ orderId: orderIdField });

/** The card check of an order's current card, and its release (docs/product.md, "Card check"). */
export const cardCheckRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/orders/:orderId/card-check',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['order-detail'],
        summary:
          "The check of the order's current card: each field found on it against the order, a duplicate on another order, the QR codes read; null without a card",
        security,
        params: orderIdParams,
        response: { 200: envelope(cardCheckAnswer) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const [order] = await db
        .select({ id: orders.orderId })
        .from(orders)
        .where(eq(orders.orderId, orderId))
        .limit(1);
      if (!order) throw notFound('Order not found');
      return ok({ cardCheck: await currentCardCheck(db, orderId) }, 'Card check');
    },
  );

  app.post(
    '/admin/orders/:orderId/card-check/release',
    {
      config: { permission: 'orders.releaseCard' },
      schema: {
        tags: ['order-detail'],
        summary:
          'Manager or Admin: let a card whose check found a mismatch or another order’s file go out, with a reason (audited); 409 when nothing is blocked',
        security,
        params: orderIdParams,
        body: releaseCardBody,
        response: { 200: envelope(cardCheckAnswer) },
      },
    },
    async (request) => {
      const cardCheck = await releaseCard({ db, config }, staffOf(request), {
        orderId: request.params.orderId,
        reason: request.body.reason,
        ip: request.ip,
      });
      return ok({ cardCheck }, 'The card is released: it can be sent now.');
    },
  );

  app.post(
    '/admin/orders/:orderId/send-arrived-card',
    {
      config: { permission: 'orders.documents' },
      schema: {
        tags: ['order-detail'],
        summary:
          "Send the card the government mailed (card_arrived_unsent): the approval mail to the order's address and the move to Completed, as Upload, mail and complete; the card gate applies",
        security,
        params: orderIdParams,
        body: sendArrivedCardBody,
        response: { 200: queuedMailResponse },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const [order] = await db
        .select({ email: orders.email })
        .from(orders)
        .where(eq(orders.orderId, orderId))
        .limit(1);
      if (!order) throw notFound('Order not found');
      const sent = await sendArrivedCard(db, staffOf(request), {
        orderId,
        expectedVersion: request.body.expectedVersion,
      });
      return ok(
        { ...sent, status: 'queued' },
        `The card is on its way to ${order.email} and the order is completed.`,
      );
    },
  );
};
