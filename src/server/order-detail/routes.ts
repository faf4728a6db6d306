import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAIL_HOLD_SECONDS, type OrderStatus } from '../../shared/constants.js';
import { envelope, orderIdField } from '../../shared/contracts/common.js';
import { statusName, WHATSAPP_TEMPLATE_BY_STATUS } from '../../shared/order-rules.js';
import {
  emailContentResponse,
  mailPreviewQuery,
  mailPreviewResponse,
  orderDetailsResponse,
  withdrawDocumentBody,
  withdrawDocumentResponse,
} from '../../shared/contracts/order-detail.js';
import {
  addRemarkBody,
  addRemarkResponse,
  moveOrderStatusBody,
  moveOrderStatusResponse,
  saveTransactionBody,
  saveTransactionResponse,
} from '../../shared/contracts/order-detail-actions.js';
import { staffOf } from '../auth/guard.js';
import { checkSettingsOf, orderChecks } from '../checks/queries.js';
import { renderCurrentForOrder } from '../communication/templates.js';
import { openStored, storedExists } from '../documents/storage.js';
import { saveTransactionDetails } from '../flows/save-transaction-details.js';
import { contentDisposition } from '../http/content-disposition.js';
import { ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { cancelPendingMail } from '../flows/cancel-pending-mail.js';
import { addRemark } from '../flows/move-status.js';
import { moveOrderStatus } from '../flows/detail-move.js';
import { withdrawDocument } from '../orders/documents.js';
import { loadOrder, servableDocumentById } from '../orders/repository.js';
import { clearCustomerEdited } from '../orders/self-service.js';
import { latestDispute } from '../payments/queries.js';
import { refundAnswer } from '../payments/refund-answer.js';
import { previewCustomerMail } from './mail-preview.js';
import { loadOrderDetail } from './queries.js';
import { now } from '../clock.js';

const security = [{ staffToken: [] }];
const orderIdParams = z.object({ orderId: orderIdField });
const documentIdParams = z.object({
  documentId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** Order detail: the detail read, status moves, remarks, transaction details, document download. */
export const orderDetailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/get-orders-details/:orderId',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['order-detail'],
        summary:
          'Every order field (snake_case names) with uploadDoc, mailHistory, downloadHistory, remarks, events',
        security,
        params: orderIdParams,
        response: { 200: orderDetailsResponse },
      },
    },
    async (request) => {
      // One prepared statement for the whole answer (docs/decisions/282-order-detail-read.md).
      const detail = await loadOrderDetail(app.ctx.database, request.params.orderId, config.APP_MAIL_DOMAIN);
      if (!detail) throw notFound('Order not found');
      const { checks, duplicates } = await orderChecks(
        db,
        request.params.orderId,
        checkSettingsOf(config),
        now(),
      );
      const dispute = await latestDispute(db, request.params.orderId);
      // Opening the order reads the customer's correction: the "Customer edited" badge goes.
      if (detail.customer_edited) await clearCustomerEdited(db, request.params.orderId);
      return ok({ ...detail, checks, duplicates, dispute }, 'Order details');
    },
  );

  app.put(
    '/admin/move-order-status',
    {
      config: { permission: 'orders.move' },
      schema: {
        tags: ['order-detail'],
        summary:
          'Move one order to a status of the detail screen (not its current one); Refunded mails the customer',
        security,
        body: moveOrderStatusBody,
        response: { 200: moveOrderStatusResponse },
      },
    },
    async (request) => {
      const { orderId, updatingStatus, forceReason, ...options } = request.body;
      // One flow: the rules, a provider's refund where the order was paid through one, the status, its mail.
      const result = await moveOrderStatus(app.ctx, staffOf(request), {
        ...options,
        orderId,
        to: updatingStatus,
        forceReason,
      });
      if (result.through === 'provider')
        return {
          ...refundAnswer(result.refund),
          data: { order_id: orderId, from: result.from, process_status: 'Refunded' as const },
        };
      const { moved } = result;
      const notes = [`Order status has been changed to ${updatingStatus}`];
      if (moved.mail) {
        notes.push(
          moved.mail.heldUntil
            ? `The mail "${moved.mail.templateName}" (${moved.mail.language.toUpperCase()}) is pending: it goes to the customer in ${MAIL_HOLD_SECONDS} seconds`
            : `The mail "${moved.mail.templateName}" (${moved.mail.language.toUpperCase()}) is on its way to the customer`,
        );
      }
      for (const r of moved.repeats) {
        notes.push(`The customer got "${r.templateName}" ${r.minutes} min ago: not sent again`);
      }
      if (moved.cancelledMails) {
        notes.push(`The customer mail was cancelled`);
      }
      if (forceReason !== undefined && updatingStatus === 'Completed') notes.push('No mail was sent');
      return ok(
        {
          order_id: orderId,
          from: moved.from,
          process_status: updatingStatus,
          mail: moved.mail,
          cancelledMails: moved.cancelledMails,
        },
        `${notes.join('. ')}.`,
      );
    },
  );

  app.post(
    '/admin/orders/:orderId/cancel-pending-mail',
    {
      config: { permission: 'orders.move' },
      schema: {
        tags: ['order-detail'],
        summary:
          "Cancel the customer mails of this order that you caused and that still wait for delivery (a macro's mail in its first seconds); 409 when none",
        security,
        params: orderIdParams,
        response: { 200: envelope(z.object({ cancelled: z.number().int() })) },
      },
    },
    async (request) => {
      const cancelled = await cancelPendingMail(db, staffOf(request), request.params.orderId);
      return ok({ cancelled }, 'The customer mail was cancelled.');
    },
  );

  app.get(
    '/admin/orders/:orderId/mail-preview',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['order-detail'],
        summary:
          'The customer mail a move to `status` (or the macro `macroId`) would send this order: template name, language and the rendered mail; null when none',
        security,
        params: orderIdParams,
        querystring: mailPreviewQuery,
        response: { 200: mailPreviewResponse },
      },
    },
    async (request) => {
      const preview = await previewCustomerMail(db, config, request.params.orderId, request.query);
      return ok(preview, preview ? 'Mail preview' : 'No customer mail');
    },
  );

  app.post(
    '/admin/add-new-remark',
    {
      config: { permission: 'orders.remark' },
      schema: {
        tags: ['order-detail'],
        summary:
          'Add a remark as the signed-in user (remarkerName is ignored); Refund/Chargeback flags move the order',
        security,
        body: addRemarkBody,
        response: { 200: addRemarkResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { remarkerName: _ignored, ...input } = request.body;
      const { remark, processStatus, moved } = await addRemark(db, staff, input);
      const answer = { remark, process_status: processStatus };
      return ok(
        answer,
        moved
          ? `Remark has been added successfully and the order moved to ${statusName(answer.process_status)}.`
          : 'Remark has been added successfully',
      );
    },
  );

  app.post(
    '/admin/save-transaction-details',
    {
      config: { permission: 'orders.transaction' },
      schema: {
        tags: ['order-detail'],
        summary:
          'Save the transaction id and merchant name of an order (Enter Transaction Details). The payment reference of an order paid through an integrated provider is set by the intake or the provider only: 403 for staff, an Admin with a reason (audited), 409 while a refund or dispute exists',
        security,
        body: saveTransactionBody,
        response: { 200: saveTransactionResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId, transactionId, merchantName, expectedVersion, reason } = request.body;
      await saveTransactionDetails(db, config, staff, {
        orderId,
        transactionId,
        merchantName,
        expectedVersion,
        reason,
      });
      return ok(
        { order_id: orderId, transaction_id: transactionId, merchant_name: merchantName },
        'Transaction details have been saved successfully',
      );
    },
  );

  app.get(
    '/admin/get-email-content/:orderId',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['order-detail'],
        summary:
          'The approval notice of an order as mailed (View Email Content), with the WhatsApp text and link',
        security,
        params: orderIdParams,
        response: { 200: emailContentResponse },
      },
    },
    async (request) => {
      const order = await loadOrder(db, request.params.orderId, config.APP_MAIL_DOMAIN);
      if (!order) throw notFound('Order not found');
      // The approval notice as the customer gets it: its current template, in the customer's language.
      const notice = await renderCurrentForOrder(db, config, order.order_id, 'approval-notice');
      if (!notice) throw notFound('The approval notice template is missing.');
      const phone = `${order.phone_code ?? ''}${order.telephone_number ?? ''}`.replace(/\D/g, '');
      // WhatsApp suggests the text of the order's status (approval only once the card is out).
      const suggestedKey =
        WHATSAPP_TEMPLATE_BY_STATUS[order.process_status as OrderStatus] ?? 'approval-notice';
      const suggested =
        suggestedKey === 'approval-notice'
          ? null
          : await renderCurrentForOrder(db, config, order.order_id, suggestedKey);
      const whatsappText = (suggested ?? notice).text;
      return ok(
        {
          ...notice,
          whatsappText,
          whatsappTemplate: suggested ? suggestedKey : 'approval-notice',
          whatsappUrl: phone ? `https://wa.me/${phone}?text=${encodeURIComponent(whatsappText)}` : null,
        },
        'Email content',
      );
    },
  );

  app.get(
    '/admin/order-document/:documentId',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['order-detail'],
        summary: 'The stored approved document (Download File); HEAD tells whether it exists',
        security,
        params: documentIdParams,
      },
    },
    async (request, reply) => {
      const doc = await servableDocumentById(db, request.params.documentId);
      if (!doc || !(await storedExists(config, doc.storageKey))) throw notFound('Document not found');
      return reply
        .header('content-type', doc.mimeType)
        .header('content-length', String(doc.sizeBytes))
        .header('content-disposition', contentDisposition(doc.originalName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(await openStored(config, doc.storageKey));
    },
  );

  app.delete(
    '/admin/order-document/:documentId',
    {
      config: { permission: 'orders.withdrawDocument' },
      schema: {
        tags: ['order-detail'],
        summary:
          'Withdraw a wrongly uploaded document (Admin, Manager) with a reason: kept for the record, never served or mailed again; the previous upload becomes current',
        security,
        params: documentIdParams,
        body: withdrawDocumentBody,
        response: { 200: withdrawDocumentResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { documentId } = request.params;
      const { reason } = request.body;
      const result = await withdrawDocument(db, staff, { documentId, reason, ip: request.ip });
      return ok(result, 'The document has been withdrawn. It will not be served or mailed again.');
    },
  );
};
