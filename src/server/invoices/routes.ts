import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { queuedMailResponse, sendInvoiceBody } from '../../shared/contracts/order-detail.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { sendInvoice } from '../flows/send-invoice.js';

export const UNKNOWN_ORDER_MESSAGE = 'No order found with this order id.';

/** Send Invoice: the invoice PDF mailed to the order's e-mail, logged in the mail history. */
export const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.post(
    '/admin/send-invoice',
    {
      config: { permission: 'orders.invoice' },
      schema: {
        tags: ['order-detail'],
        summary: "Mail the order's invoice (PDF) to the order's e-mail address",
        security: [{ staffToken: [] }],
        body: sendInvoiceBody,
        response: { 200: queuedMailResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const text = request.body.orderId;
      const orderId = /^\d{1,15}$/.test(text) ? Number(text) : null;
      if (orderId === null) throw notFound(UNKNOWN_ORDER_MESSAGE);
      const { mailId, email } = await sendInvoice(db, staff, {
        orderId,
        notFoundMessage: UNKNOWN_ORDER_MESSAGE,
      });
      return ok({ mailId, documentId: null, status: 'queued' }, `Invoice has been sent to ${email}.`);
    },
  );
};
