import type { MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES } from '../../shared/constants.js';
import {
  queuedMailResponse,
  resendMailBody,
  UPLOAD_FILE_FIELD,
  uploadDocumentFields,
} from '../../shared/contracts/order-detail.js';
import { MSG } from '../../shared/messages.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import {
  badRequest,
  HttpError,
  payloadTooLarge,
  tooManyRequests,
  unsupportedMediaType,
} from '../http/errors.js';
import { attachCheckedCard, cardRefusal } from '../flows/card-check.js';
import { resendDocument } from '../flows/resend-document.js';
import { readStored, removeStored } from './storage.js';
import { type StoredUpload, sanitizeFileName, storeUpload } from './upload.js';

const security = [{ staffToken: [] }];
export { CHARGEBACK_NOT_COMPLETED_BY_UPLOAD } from '../flows/card-check.js';
const TOO_LARGE = `The file is too large. The maximum size is ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`;

/** Upload of the approved document with its approval mail, and resending that mail. */
export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.post(
    '/admin/upload-visa-document',
    {
      config: { permission: 'orders.documents' },
      schema: {
        tags: ['order-detail'],
        summary:
          "multipart/form-data: orderId, email, mailServiceProvider (AWS | Sendgrid), complete (true: also move to Completed), takeOver, confirmOtherAddress (Admin/Manager: another address than the order's) and the file uploadVisaDoc (PDF/PNG/JPEG/WebP, ≤ 10 MB); stores it and mails the approval notice with it. Refused for Deleted orders, orders held by others, and over the card limits (429)",
        security,
        consumes: ['multipart/form-data'],
        response: { 200: queuedMailResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      if (!request.isMultipart()) throw unsupportedMediaType('Send the document as multipart/form-data.');
      const fields: Record<string, string> = {};
      let upload: (StoredUpload & { originalName: string }) | null = null;
      const discard = async () => {
        if (upload) await removeStored(config, upload.key);
        upload = null;
      };
      try {
        for await (const part of request.parts()) {
          if (part.type === 'field') {
            fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
            continue;
          }
          const file = part as MultipartFile;
          if (file.fieldname !== UPLOAD_FILE_FIELD || upload) {
            file.file.resume();
            throw badRequest(`Send exactly one file, in the field ${UPLOAD_FILE_FIELD}.`);
          }
          const stored = await storeUpload(config, file.file);
          upload = { ...stored, originalName: '' };
          if (file.file.truncated) throw payloadTooLarge(TOO_LARGE);
          upload.originalName = sanitizeFileName(file.filename, stored.extension, 'document');
        }
      } catch (err) {
        await discard();
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge(TOO_LARGE);
        if (err instanceof HttpError) throw err;
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
          throw badRequest(`Send exactly one file, in the field ${UPLOAD_FILE_FIELD}, and the three fields.`);
        }
        throw err;
      }

      const parsed = uploadDocumentFields.safeParse(fields);
      if (!parsed.success) {
        await discard();
        const errors = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
        const first = errors[0]!;
        const message = Object.values(MSG).includes(first.message as never)
          ? first.message
          : `${first.field}: ${first.message}`;
        throw badRequest(message, { errors });
      }
      if (!upload) throw badRequest(MSG.fileRequired);
      const file: StoredUpload & { originalName: string } = upload;
      const {
        orderId,
        email,
        mailServiceProvider,
        expectedVersion,
        complete,
        takeOver,
        confirmOtherAddress,
      } = parsed.data;

      let result: Awaited<ReturnType<typeof attachCheckedCard>>;
      try {
        const bytes = await readStored(config, file.key);
        if (!bytes) throw new Error('the stored upload is gone');
        // "Upload, mail and complete": the document, its card check, its approval mail and the move to
        // Completed are one transaction; a card its check blocks is stored, not mailed (flows/card-check.ts).
        result = await attachCheckedCard({ db, config }, staff, {
          orderId,
          file,
          bytes,
          email,
          provider: mailServiceProvider,
          expectedVersion,
          takeOver,
          confirmOtherAddress,
          complete,
        });
      } catch (err) {
        await discard();
        throw err;
      }
      if (result.mailId === null) throw await cardRefusal(db, orderId, result.cardCheck);
      return ok(
        { mailId: result.mailId, documentId: result.documentId, status: 'queued' },
        complete
          ? `Document has been uploaded and the order completed. The mail to ${email} is on its way (${mailServiceProvider}).`
          : `Document has been uploaded. The mail to ${email} is on its way (${mailServiceProvider}).`,
      );
    },
  );

  app.post(
    '/admin/resend-mail',
    {
      config: { permission: 'orders.documents' },
      schema: {
        tags: ['order-detail'],
        summary: 'Send the approval notice with the latest document again, through the chosen provider',
        security,
        body: resendMailBody,
        response: { 200: queuedMailResponse },
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const { orderId, email, mailServiceProvider, expectedVersion, confirmOtherAddress } = request.body;
      const result = await resendDocument(db, staff, {
        orderId,
        email,
        provider: mailServiceProvider,
        expectedVersion,
        confirmOtherAddress,
      });
      if ('refused' in result) {
        reply.header('retry-after', String(result.refused.retryAfterSeconds));
        throw tooManyRequests(result.refused.message);
      }
      return ok(
        { ...result, status: 'queued' },
        `The mail to ${email} is on its way (${mailServiceProvider}).`,
      );
    },
  );
};
