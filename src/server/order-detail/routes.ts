import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orderIdField } from '../../shared/contracts/common.js';
import { serviceToday } from '../../shared/dates.js';
import { remarkMove, statusName } from '../../shared/order-rules.js';
import {
  addRemarkBody,
  addRemarkResponse,
  emailContentResponse,
  moveOrderStatusBody,
  moveOrderStatusResponse,
  orderDetailsResponse,
  saveTransactionBody,
  saveTransactionResponse,
  withdrawDocumentBody,
  withdrawDocumentResponse,
} from '../../shared/contracts/order-detail.js';
import { staffOf } from '../auth/guard.js';
import { recordAudit } from '../audit/audit.js';
import { documents, orderRemarks, orders } from '../db/schema.js';
import { openStored, storedExists } from '../documents/storage.js';
import { ok } from '../http/envelope.js';
import { conflict, notFound } from '../http/errors.js';
import { renderApprovalNotice } from '../mail/approval-notice.js';
import { applyHolderRule, assertVersion, changeStatus, enforceRules, ruleState } from '../orders/queries.js';
import { nudgeMailQueue } from '../mail/queue.js';
import { recordEvents } from '../orders/events.js';
import {
  documentById,
  latestDocument,
  loadOrder,
  lockOrders,
  servableDocumentById,
} from '../orders/repository.js';
import {
  loadDocuments,
  loadDownloads,
  loadEvents,
  loadMailHistory,
  loadRemarks,
  remarkItemOf,
} from './queries.js';

const security = [{ staffToken: [] }];
const orderIdParams = z.object({ orderId: orderIdField });
const documentIdParams = z.object({
  documentId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});

/** Attachment header with a safe ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string, kind: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

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
      const { orderId } = request.params;
      const order = await loadOrder(db, orderId, config.APP_MAIL_DOMAIN);
      if (!order) throw notFound('Order not found');
      const [uploadDoc, mailHistory, downloadHistory, remarks, events] = await Promise.all([
        loadDocuments(db, orderId),
        loadMailHistory(db, orderId),
        loadDownloads(db, orderId),
        loadRemarks(db, orderId),
        loadEvents(db, orderId),
      ]);
      return ok({ ...order, uploadDoc, mailHistory, downloadHistory, remarks, events }, 'Order details');
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
      const staff = staffOf(request);
      const { orderId, updatingStatus, expectedVersion, takeOver = false } = request.body;
      const from = await db.transaction(async (tx) => {
        const order = (await lockOrders(tx, [orderId], 'Order not found'))[0]!;
        await assertVersion(tx, order, expectedVersion);
        // Deleting has its own rule for held orders (Admin only); other moves follow the holder rule.
        if (updatingStatus !== 'Deleted') await applyHolderRule(tx, order, staff, takeOver);
        enforceRules([order], { kind: 'move', to: updatingStatus }, staff, serviceToday());
        await changeStatus(tx, staff, [order], updatingStatus);
        return order.processStatus;
      });
      if (updatingStatus === 'Refunded') nudgeMailQueue(app);
      return ok(
        { order_id: orderId, from, process_status: updatingStatus },
        `Order status has been changed to ${updatingStatus}`,
      );
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
      const body = request.body;
      const result = await db.transaction(async (tx) => {
        const order = (await lockOrders(tx, [body.orderId], 'Order not found'))[0]!;
        await assertVersion(tx, order, body.expectedVersion);
        const move = remarkMove(ruleState(order), body, staff.type, serviceToday());
        if (move) {
          await applyHolderRule(tx, order, staff, body.takeOver ?? false);
          enforceRules([order], { kind: 'move', to: move.to }, staff, serviceToday());
        }
        const [remark] = await tx
          .insert(orderRemarks)
          .values({
            orderId: body.orderId,
            authorId: staff.id,
            remark: body.remark,
            whatsapp: body.whatsapp,
            telephone: body.telephone,
            statusRefund: body.statusRefund,
            voided: body.voided,
            chargeback: body.chargeBack,
            reportError: body.reportError,
          })
          .returning();
        await recordEvents(tx, [
          {
            orderId: body.orderId,
            actorId: staff.id,
            action: 'remark',
            toValue: String(remark!.id),
          },
        ]);
        let status = order.processStatus;
        if (move) {
          await changeStatus(tx, staff, [order], move.to);
          status = move.to;
        }
        return { remark: remarkItemOf(remark!, staff.name), process_status: status, moved: !!move };
      });
      const { moved, ...answer } = result;
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
        summary: 'Save the transaction id and merchant name of an order (Enter Transaction Details)',
        security,
        body: saveTransactionBody,
        response: { 200: saveTransactionResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId, transactionId, merchantName, expectedVersion } = request.body;
      await db.transaction(async (tx) => {
        const order = (await lockOrders(tx, [orderId], 'Order not found'))[0]!;
        await assertVersion(tx, order, expectedVersion);
        await tx
          .update(orders)
          .set({ transactionId, merchantName, updatedAt: sql`now()` })
          .where(eq(orders.orderId, orderId));
        await recordEvents(tx, [
          {
            orderId,
            actorId: staff.id,
            action: 'transaction',
            fromValue: `${order.transactionId ?? ''} / ${order.merchantName ?? ''}`,
            toValue: `${transactionId} / ${merchantName}`,
          },
        ]);
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
      const notice = renderApprovalNotice(order, {
        siteUrl: config.PUBLIC_SITE_URL,
        altLandingHost: config.ALT_LANDING_HOST,
      });
      const phone = `${order.phone_code ?? ''}${order.telephone_number ?? ''}`.replace(/\D/g, '');
      const whatsappText = notice.text;
      return ok(
        {
          ...notice,
          whatsappText,
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
      const result = await db.transaction(async (tx) => {
        const found = await documentById(tx, documentId);
        if (!found) throw notFound('Document not found');
        await lockOrders(tx, [found.orderId], 'Order not found');
        const [doc] = await tx
          .update(documents)
          .set({ withdrawnAt: sql`now()`, withdrawnBy: staff.id, withdrawReason: reason })
          .where(and(eq(documents.id, documentId), isNull(documents.withdrawnAt)))
          .returning();
        if (!doc) throw conflict('The document has already been withdrawn.');
        await recordEvents(tx, [
          {
            orderId: doc.orderId,
            actorId: staff.id,
            action: 'withdraw',
            fromValue: doc.originalName,
            toValue: reason,
          },
        ]);
        await recordAudit(tx, {
          action: 'document.withdraw',
          actorId: staff.id,
          target: `order ${doc.orderId}, document ${doc.id}`,
          from: { fileName: doc.originalName },
          to: { reason },
          ip: request.ip,
        });
        const current = await latestDocument(tx, doc.orderId);
        return { id: doc.id, order_id: doc.orderId, current_document_id: current?.id ?? null };
      });
      return ok(result, 'The document has been withdrawn. It will not be served or mailed again.');
    },
  );
};
