import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  approvalNoticeResponse,
  CUSTOMER_MSG,
  downloadDocumentBody,
  downloadDocumentResponse,
  downloadHistoryBody,
  downloadHistoryResponse,
  FILE1_PATTERN,
  trackOrderRequest,
  trackOrderResponse,
} from '../../shared/contracts/customer.js';
import { stageShowsRequest } from '../../shared/customer-stage.js';
import { tokenFromHeader } from '../auth/tokens.js';
import { openStored, presignedDownloadUrl, storedExists } from '../documents/storage.js';
import { locateIp } from '../geoip/lookup.js';
import { clientNetwork } from '../http/client-network.js';
import { HttpError, notFound, tooManyRequests, unauthorized } from '../http/errors.js';
import { renderCurrentForOrder } from '../communication/templates.js';
import { brandFor, renderApprovalNotice } from '../communication/approval-notice.js';
import { loggedMailRendered } from '../mail/compose.js';
import { parseUserAgent } from './device.js';
import {
  documentOfOrder,
  downloadHistory,
  extensionOf,
  file1Of,
  brandKey,
  findTrackableOrder,
  lastSentApprovalMail,
  latestDocument,
  noticeOrder,
  orderSummary,
  recordDownload,
} from './queries.js';
import { rememberOrderLanguage } from '../orders/creation.js';
import { answeredSinceRequest, customerRequestText } from './request-text.js';
import { answerLanguage, stageAnswer, submittedLine } from './i18n.js';
import { findTrackedOrder, stageFacts } from './stage-queries.js';
import { translatorFor } from '../translator.js';
import {
  CUSTOMER_TOKEN_TTL_SECONDS,
  DOWNLOAD_TOKEN_TTL_SECONDS,
  signCustomerToken,
  signDownloadToken,
  verifyCustomerToken,
  verifyDownloadToken,
} from './tokens.js';

/** Every track-order answer takes at least this long, so a wrong id and a wrong e-mail look alike. */
export const TRACK_MIN_RESPONSE_MS = 250;

/**
 * Rate limits; per IP honours TRUST_PROXY through request.ip. trackPerOrder counts wrong guesses only:
 * the right order id and e-mail are never refused by it (the per-IP limit still applies).
 */
export const LIMITS = {
  trackPerIp: { max: 20, timeWindow: 10 * 60_000 },
  trackPerOrder: { max: 10, timeWindow: 10 * 60_000 },
  readPerIp: { max: 120, timeWindow: 60_000 },
  fetchPerIp: { max: 60, timeWindow: 60_000 },
} as const;

const digest = (value: string) => createHash('sha256').update(value.trim().toLowerCase()).digest();

/** Case-insensitive e-mail comparison in constant time. */
function sameEmail(stored: string, given: string): boolean {
  return timingSafeEqual(digest(stored), digest(given));
}

const ipKey = (prefix: string) => (request: FastifyRequest) => `${prefix}:${clientNetwork(request.ip)}`;

/** One bucket per order however it is written: "0103001" and "103001" are the same order. */
export const normalOrderId = (orderId: unknown) =>
  String(orderId)
    .trim()
    .replace(/^0+(?=\d)/, '');

/** The customer routes (docs/product.md, "The API"): public, each checking the customer token itself. */
export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.ctx;
  const secret = config.JWT_SECRET;
  const trackPerOrder = app.createRateLimit({
    ...LIMITS.trackPerOrder,
    keyGenerator: (request) =>
      `track-order:${normalOrderId((request.body as { orderId?: unknown })?.orderId)}`,
  });

  // The order id a request's customer token was issued for, checked before the body is validated.
  const tokenOrder = new WeakMap<FastifyRequest, number>();
  const requireCustomerToken = async (request: FastifyRequest) => {
    const token = tokenFromHeader(request.headers.authorization);
    const orderId = token ? await verifyCustomerToken(secret, token) : null;
    if (orderId === null) throw unauthorized(CUSTOMER_MSG.sessionExpired);
    tokenOrder.set(request, orderId);
  };
  /** The token's order must be the order asked about: a token for order A never reads order B. */
  const assertScope = (request: FastifyRequest, orderId: number) => {
    if (tokenOrder.get(request) !== orderId) throw unauthorized(CUSTOMER_MSG.sessionExpired);
  };
  /** The support address of the order's brand (the landing domain decides, as for the mails). */
  const supportEmailOf = (landingDomain: string | null) =>
    brandFor(landingDomain, {
      siteUrl: config.PUBLIC_SITE_URL,
      altLandingHost: config.ALT_LANDING_HOST || undefined,
      supportEmail: config.SUPPORT_EMAIL,
    }).supportEmail;

  app.post(
    '/front/track-order',
    {
      config: {
        public: true,
        rateLimit: { ...LIMITS.trackPerIp, max: config.TRACK_PER_IP_MAX, keyGenerator: ipKey('track-ip') },
      },
      schema: {
        tags: ['customer'],
        summary: 'Track an order with its id and e-mail; answers a customer token scoped to that order',
        body: trackOrderRequest,
        response: { 200: trackOrderResponse },
      },
    },
    async (request) => {
      const started = performance.now();
      const orderId = Number(request.body.orderId);
      const order = await findTrackedOrder(app.ctx.db, orderId);
      // Compare against a dummy when the id is unknown: both failures do the same work.
      const matches = sameEmail(order?.email ?? '\u0000no-order', request.body.email) && order !== null;
      const deleted = matches && order.processStatus === 'Deleted';
      const token = matches && !deleted ? await signCustomerToken(secret, orderId) : null;
      // Only wrong guesses count against the order, so a flood of them never locks its customer out.
      const limit = matches ? null : await trackPerOrder(request);
      const wait = TRACK_MIN_RESPONSE_MS - (performance.now() - started);
      if (wait > 0) await sleep(wait);
      if (limit && !limit.isAllowed && limit.isExceeded) {
        throw tooManyRequests(
          `Too many attempts for this order. Please try again in ${Math.ceil(limit.ttl / 1000)} seconds.`,
        );
      }
      if (deleted) {
        // The right e-mail for a deleted order: say it was cancelled and how to reach support, no token.
        const brand = brandKey(order.landingDomain, config.ALT_LANDING_HOST);
        const language = answerLanguage(request.body.lang, order.language);
        const { stageMessage } = stageAnswer('Deleted', language, {
          orderId,
          supportEmail: supportEmailOf(order.landingDomain),
        });
        return {
          status: 1 as const,
          message: CUSTOMER_MSG.orderCancelled,
          cancelled: { order_id: orderId, brand, stage: 'cancelled' as const, stageMessage },
        };
      }
      if (!token) throw notFound(CUSTOMER_MSG.trackFailed);
      return {
        status: 1 as const,
        message: CUSTOMER_MSG.trackSuccess,
        data: { token, expiresIn: CUSTOMER_TOKEN_TTL_SECONDS },
      };
    },
  );

  app.post(
    '/front/get-download-history',
    {
      config: { public: true, rateLimit: { ...LIMITS.readPerIp, keyGenerator: ipKey('customer-read') } },
      onRequest: requireCustomerToken,
      schema: {
        tags: ['customer'],
        summary: 'Downloaded History, order summary and the document name (customer token)',
        body: downloadHistoryBody,
        response: { 200: downloadHistoryResponse },
      },
    },
    async (request) => {
      const { orderId, lang, languageChosen } = request.body;
      assertScope(request, orderId);
      const summary = await orderSummary(app.ctx.db, orderId, config.ALT_LANDING_HOST);
      if (!summary) throw unauthorized(CUSTOMER_MSG.sessionExpired);
      if (lang) await rememberOrderLanguage(app.ctx.db, orderId, lang, languageChosen ?? false);
      const [history, doc, facts] = await Promise.all([
        downloadHistory(app.ctx.db, orderId),
        latestDocument(app.ctx.db, orderId),
        stageFacts(app.ctx.db, orderId),
      ]);
      const language = answerLanguage(lang, facts?.language ?? null);
      const { stage, stageMessage: statusMessage } = stageAnswer(summary.process_status, language, {
        orderId,
        supportEmail: supportEmailOf(summary.brand === 'alt' ? config.ALT_LANDING_HOST : null),
      });
      // The request of the current Action needed period; on an order back in Received, the last request
      // ever, shown only when the customer's answer to it is what moved the order (decision 392).
      const asking = stageShowsRequest(stage);
      const since = asking ? (facts?.statusSince ?? null) : null;
      const [requestText, stageAnswered] =
        asking || stage === 'received'
          ? await Promise.all([
              customerRequestText(app.ctx.db, config, orderId, since),
              answeredSinceRequest(app.ctx.db, orderId, since, asking),
            ])
          : [null, false];
      const stageRequest = asking || stageAnswered ? requestText : null;
      // Once the customer answered, the stage says so (decision 392), not "Action needed" again.
      const stageMessage = stageAnswered
        ? translatorFor(language).t('stage.answered.message')
        : statusMessage;
      return {
        status: 1 as const,
        message: history.length ? 'Download history loaded' : 'No record found',
        data: history,
        mainResult: {
          ...summary,
          downloadable: doc !== null,
          stage,
          stageMessage,
          stageRequest,
          stageAnswered,
          stageSubmitted: submittedLine(facts?.submittedAt, language),
        },
        path: { file1: doc ? file1Of(doc) : null },
      };
    },
  );

  app.post(
    '/front/download-passport-doc-pdf',
    {
      config: { public: true, rateLimit: { ...LIMITS.readPerIp, keyGenerator: ipKey('customer-read') } },
      onRequest: requireCustomerToken,
      schema: {
        tags: ['customer'],
        summary: 'Answer a signed, single-use, short-lived download URL for the document (customer token)',
        body: downloadDocumentBody,
        response: { 200: downloadDocumentResponse },
      },
    },
    async (request) => {
      const { orderId, file1 } = request.body;
      assertScope(request, orderId);
      const documentId = Number(FILE1_PATTERN.exec(file1)![1]);
      const doc = await documentOfOrder(app.ctx.db, orderId, documentId);
      if (!doc || file1Of(doc) !== file1 || !(await findTrackableOrder(app.ctx.db, orderId))) {
        throw notFound('Not a document of this order');
      }
      if (!(await storedExists(config, doc.storageKey))) {
        request.log.error({ orderId, documentId }, 'stored document file is missing');
        throw notFound(CUSTOMER_MSG.noDocument);
      }
      // Nothing is recorded yet: the download is recorded when the signed URL delivers the file.
      const token = await signDownloadToken(secret, { orderId, documentId });
      return {
        status: 1 as const,
        message: CUSTOMER_MSG.downloadRecorded,
        data: { url: `/api/front/download?token=${token}`, expiresIn: DOWNLOAD_TOKEN_TTL_SECONDS },
      };
    },
  );

  app.get(
    '/front/download',
    {
      config: { public: true, rateLimit: { ...LIMITS.fetchPerIp, keyGenerator: ipKey('customer-fetch') } },
      schema: {
        tags: ['customer'],
        summary:
          'The signed download URL: records the download (IP, device, location) and streams the ' +
          'approved document as an attachment, once; a second fetch answers 410',
        querystring: z.object({ token: z.string().min(1).max(1024) }),
      },
    },
    async (request, reply) => {
      const grant = await verifyDownloadToken(secret, request.query.token);
      if (!grant) throw unauthorized(CUSTOMER_MSG.linkExpired);
      const doc = await documentOfOrder(app.ctx.db, grant.orderId, grant.documentId);
      if (!doc || !(await findTrackableOrder(app.ctx.db, grant.orderId))) throw notFound('Not found');
      if (!(await storedExists(config, doc.storageKey))) throw notFound('Not found');
      const name = downloadName(grant.orderId, extensionOf(doc.mimeType, doc.storageKey));
      // A HEAD (link checkers, download managers probing) neither uses up the URL nor counts as a download.
      if (request.method !== 'HEAD') {
        const userAgent = request.headers['user-agent'] ?? null;
        const delivered = await recordDownload(app.ctx.db, {
          orderId: grant.orderId,
          documentId: grant.documentId,
          grantId: grant.grantId,
          fileName: name,
          ip: request.ip,
          userAgent: userAgent?.slice(0, 1024) ?? null,
          ...parseUserAgent(userAgent),
          location: await locateIp(request.ip),
        });
        if (!delivered) throw new HttpError(410, CUSTOMER_MSG.linkUsed);
      }
      const direct = await presignedDownloadUrl(config, doc.storageKey, {
        fileName: name,
        mimeType: doc.mimeType,
      });
      if (direct) return reply.header('cache-control', 'private, no-store').redirect(direct, 302);
      return reply
        .header('content-type', doc.mimeType)
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('content-length', String(doc.sizeBytes))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(await openStored(config, doc.storageKey));
    },
  );

  app.get(
    '/front/approval-notice/:orderId',
    {
      config: { public: true, rateLimit: { ...LIMITS.readPerIp, keyGenerator: ipKey('customer-read') } },
      onRequest: requireCustomerToken,
      schema: {
        tags: ['customer'],
        summary: 'Preview of the approval notice mailed for this order (customer token)',
        params: z.object({ orderId: z.string().regex(/^\d{1,15}$/, 'must be a number') }),
        response: { 200: approvalNoticeResponse },
      },
    },
    async (request) => {
      const orderId = Number(request.params.orderId);
      assertScope(request, orderId);
      const order = await noticeOrder(app.ctx.db, orderId);
      if (!order) throw unauthorized(CUSTOMER_MSG.sessionExpired);
      // The mail as it was sent (its template version and language), else as it would be sent now in the
      // customer's language, else the built-in English notice.
      const sent = await lastSentApprovalMail(app.ctx.db, orderId);
      const notice =
        (sent && (await loggedMailRendered(app.ctx.db, config, sent))) ||
        (await renderCurrentForOrder(app.ctx.db, config, orderId, 'approval-notice')) ||
        renderApprovalNotice(order, {
          siteUrl: config.PUBLIC_SITE_URL,
          altLandingHost: config.ALT_LANDING_HOST,
          supportEmail: config.SUPPORT_EMAIL,
        });
      return { status: 1 as const, message: 'Approval notice', data: notice };
    },
  );
};

/** The attachment name: built from the order id only, so no stored or customer text reaches the header. */
export function downloadName(orderId: number, extension: string): string {
  return `ed-card-${orderId}.${extension}`;
}
