import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAIL_HOLD_SECONDS } from '../../shared/constants.js';
import { envelope, orderIdField } from '../../shared/contracts/common.js';
import {
  attachInboundBody,
  attachInboundResponse,
  contactBody,
  contactResponse,
  conversationResponse,
  staffMessageBody,
  staffMessageResponse,
  unmatchedResponse,
  saveAsDocumentResponse,
  undoCardResponse,
  useAsCardBody,
  useAsCardResponse,
} from '../../shared/contracts/conversation.js';
import { staffOf } from '../auth/guard.js';
import { openStored, readStored, removeStored, storedExists } from '../documents/storage.js';
import { sanitizeFileName, storeUpload } from '../documents/upload.js';
import { ok } from '../http/envelope.js';
import { can } from '../../shared/permissions.js';
import { forbidden, conflict, notFound } from '../http/errors.js';
import { contentDisposition } from '../http/content-disposition.js';
import { attachCheckedCard, cardRefusal } from '../flows/card-check.js';
import { saveAttachmentAsDocument } from '../flows/save-attachment.js';
import { undoDocumentUpload } from '../flows/undo-document-upload.js';
import { logContact } from '../orders/contacts.js';
import { statusMail } from '../flows/status-mail.js';
import { sendStaffReply } from '../flows/staff-reply.js';
import { loadOrder } from '../orders/repository.js';
import { attachmentOf, listUnmatched, loadConversation, markConversationRead } from './conversation.js';
import { attachUnmatched } from '../flows/attach-unmatched.js';

const security = [{ staffToken: [] }];

const idField = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const orderParams = z.object({ orderId: orderIdField });
const attachmentParams = z.object({ orderId: orderIdField, attachmentId: idField });

/**
 * The conversation of an order, its files, unmatched mail, staff replies and logged contacts. The customer's
 * answer on the track page is in track-reply-routes.ts, the waiting policy in waiting-policy-routes.ts.
 */
export const conversationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/orders/:orderId/conversation',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['conversation'],
        summary:
          'Every mail we sent and every message that came in, oldest first; the answers stay unread until the conversation was on screen (`…/conversation/read`)',
        security,
        params: orderParams,
        response: { 200: conversationResponse },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      const conversation = await loadConversation(db, orderId, { markRead: false, config });
      if (!conversation) throw notFound('Order not found');
      return ok({ orderId, ...conversation }, 'Conversation');
    },
  );

  app.post(
    '/admin/orders/:orderId/conversation/read',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['conversation'],
        summary:
          'The conversation has been on screen, or "Mark read": the answers read, the "Customer replied" flag cleared',
        security,
        params: orderParams,
        body: z.object({}).strict().optional(),
        response: { 200: envelope(z.object({ orderId: z.number(), read: z.number() })) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      if (!(await loadOrder(db, orderId, config.APP_MAIL_DOMAIN))) throw notFound('Order not found');
      const read = await markConversationRead(db, orderId);
      return ok({ orderId, read }, read ? 'The answers are marked read.' : 'Nothing was unread.');
    },
  );

  app.get(
    '/admin/orders/:orderId/conversation/attachments/:attachmentId',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['conversation'],
        summary: 'A file a customer sent (kept under the upload rules)',
        security,
        params: attachmentParams,
      },
    },
    async (request, reply) => {
      const file = await attachmentOf(db, request.params.orderId, request.params.attachmentId);
      if (!file || !(await storedExists(config, file.storageKey))) throw notFound('File not found');
      return reply
        .header('content-type', file.mimeType)
        .header('content-length', String(file.sizeBytes))
        .header('content-disposition', contentDisposition(file.originalName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(await openStored(config, file.storageKey));
    },
  );

  app.post(
    '/admin/orders/:orderId/conversation/attachments/:attachmentId/use-as-card',
    {
      config: { permission: 'orders.documents' },
      schema: {
        tags: ['conversation'],
        summary:
          'Use a file the customer sent as the approved card: asks first (`confirmCustomerFile`), checked as an upload, stored as the document, the approval mail held for the undo window',
        security,
        params: attachmentParams,
        body: useAsCardBody,
        response: { 200: useAsCardResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId, attachmentId } = request.params;
      const file = await attachmentOf(db, orderId, attachmentId);
      const bytes = file ? await readStored(config, file.storageKey) : null;
      if (!file || !bytes) throw notFound('File not found');
      const order = await loadOrder(db, orderId, config.APP_MAIL_DOMAIN);
      if (!order) throw notFound('Order not found');
      if (request.body.confirmCustomerFile !== true) {
        const image = file.mimeType.startsWith('image/');
        throw conflict(
          `${file.originalName} came from the customer${image ? ' and is an image (often a passport photo, not the card)' : ''}: look at it and confirm before it is mailed as the approved card.`,
        );
      }
      // The upload rules apply again, as if the file were uploaded now: its own stored copy.
      const stored = await storeUpload(config, Readable.from([bytes]));
      const email = request.body.email ?? order.email;
      let result: Awaited<ReturnType<typeof attachCheckedCard>>;
      try {
        result = await attachCheckedCard({ db, config }, staff, {
          orderId,
          file: {
            ...stored,
            originalName: sanitizeFileName(file.originalName, stored.extension, 'document'),
          },
          bytes,
          email,
          provider: request.body.mailServiceProvider,
          expectedVersion: request.body.expectedVersion,
          hold: true,
        });
      } catch (err) {
        await removeStored(config, stored.key);
        throw err;
      }
      if (result.mailId === null) throw await cardRefusal(db, orderId, result.cardCheck);
      return ok(
        {
          mailId: result.mailId,
          documentId: result.documentId,
          heldUntil: result.heldUntil,
          status: 'queued' as const,
        },
        `The file is now the approved card. The mail to ${email} leaves in ${MAIL_HOLD_SECONDS} seconds (${request.body.mailServiceProvider}): Undo cancels it.`,
      );
    },
  );

  app.post(
    '/admin/orders/:orderId/documents/:documentId/undo',
    {
      config: { permission: 'orders.documents' },
      schema: {
        tags: ['conversation'],
        summary:
          'Undo "Use as approved card" inside the undo window: the held approval mail cancelled, the document withdrawn (only the member who did it)',
        security,
        params: z.object({ orderId: orderIdField, documentId: idField }),
        body: z.object({}).strict().optional(),
        response: { 200: undoCardResponse },
      },
    },
    async (request) => {
      const result = await undoDocumentUpload(db, staffOf(request), request.params);
      return ok(result, 'Undone: the file is no longer the card and the mail was not sent.');
    },
  );

  app.post(
    '/admin/orders/:orderId/conversation/attachments/:attachmentId/save-as-document',
    {
      config: { permission: 'orders.documents' },
      schema: {
        tags: ['conversation'],
        summary:
          "Keep a file the customer sent with the order's documents, without making it the approved card and without mail",
        security,
        params: attachmentParams,
        body: z.object({}).strict().optional(),
        response: { 200: saveAsDocumentResponse },
      },
    },
    async (request) => {
      const result = await saveAttachmentAsDocument(db, staffOf(request), request.params);
      return ok(
        result,
        result.alreadySaved
          ? `${result.name} was already saved as a document.`
          : `${result.name} is saved as a document. It is not the approved card and nothing was mailed.`,
      );
    },
  );

  app.get(
    '/admin/inbound/unmatched',
    {
      config: { permission: 'orders.readAll' },
      schema: {
        tags: ['conversation'],
        summary: 'Mail that matched no order, newest first',
        security,
        querystring: z.object({
          page: z.coerce.number().int().min(1).max(100_000).default(1),
          size: z.coerce.number().int().min(1).max(100).default(25),
        }),
        response: { 200: unmatchedResponse },
      },
    },
    async (request) => {
      const { page, size } = request.query;
      return ok(await listUnmatched(db, size, (page - 1) * size), 'Unmatched mail');
    },
  );

  app.post(
    '/admin/inbound/:messageId/attach',
    {
      config: { permission: 'orders.move' },
      schema: {
        tags: ['conversation'],
        summary: 'Attach an unmatched message to an order, with the effects of a customer answer',
        security,
        params: z.object({ messageId: idField }),
        body: attachInboundBody,
        response: { 200: attachInboundResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      // Attaching reads the message: only those who may read unmatched mail may (decision 353).
      if (!can(staff.type, 'orders.readAll')) throw forbidden('You may not read unmatched mail.');
      const result = await attachUnmatched(db, staff.id, request.params.messageId, request.body.orderId);
      return ok(result, `The message is attached to order ${result.orderId}.`);
    },
  );

  app.post(
    '/admin/orders/:orderId/messages',
    {
      config: { permission: 'macros.apply' },
      schema: {
        tags: ['conversation'],
        summary:
          "A staff reply: a template mail in the order's language or free text (`body`), threaded to the customer's last message, with the reply address; optionally moving the order in the same transaction",
        security,
        params: orderParams,
        body: staffMessageBody,
        response: { 200: staffMessageResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId } = request.params;
      const {
        templateId,
        body,
        provider,
        moveTo,
        expectedVersion,
        takeOver,
        inReplyTo,
        recipient,
        confirmCustomer,
      } = request.body;
      const result = await sendStaffReply(db, staff, {
        orderId,
        templateKey: templateId,
        body,
        provider,
        moveTo,
        expectedVersion,
        takeOver,
        inReplyTo,
        recipient,
        confirmCustomer,
      });
      if (!result) throw notFound('Template not found');
      return ok(
        result,
        `The reply to ${result.to} is on its way (${provider})${moveTo ? `; the order is now in ${result.processStatus}` : ''}.`,
      );
    },
  );

  app.post(
    '/admin/orders/:orderId/contacts',
    {
      config: { permission: 'orders.remark' },
      schema: {
        tags: ['conversation'],
        summary:
          'Log a call or WhatsApp contact with its outcome (reached, no_answer, wrong_number, call_back); a call-back (`callBackAt`, within 30 days) assigns the order to the caller',
        security,
        params: orderParams,
        body: contactBody,
        response: { 200: contactResponse },
      },
    },
    async (request) => {
      const result = await logContact(
        db,
        staffOf(request),
        { orderId: request.params.orderId, ...request.body },
        statusMail,
      );
      return ok(
        result,
        request.body.moveToCustomerCalled && result.processStatus === 'Customer Called'
          ? 'The contact has been logged and the order moved to Customer Called.'
          : 'The contact has been logged.',
      );
    },
  );
};
