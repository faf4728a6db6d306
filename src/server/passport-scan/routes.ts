import type { MultipartFile } from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { passportScanAnswer, SCAN_FIELDS } from '../../shared/contracts/card-check.js';
import { envelope, orderIdField } from '../../shared/contracts/common.js';
import { staffOf } from '../auth/guard.js';
import { eq } from 'drizzle-orm';
import { orders } from '../db/schema.js';
import { readStored, removeStored } from '../documents/storage.js';
import { storeUpload } from '../documents/upload.js';
import { latestScan, scanPassport, takeScanValue } from '../flows/passport-scan.js';
import { ok } from '../http/envelope.js';
import { badRequest, notFound, payloadTooLarge, unsupportedMediaType } from '../http/errors.js';

const security = [{ staffToken: [] }];
const orderIdParams = z.object({ orderId: orderIdField });
/** The multipart field of a staff upload of a passport scan. */
export const PASSPORT_FILE_FIELD = 'passport';

async function assertOrder(db: Parameters<typeof latestScan>[0], orderId: number) {
  const [order] = await db
    .select({ id: orders.orderId })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!order) throw notFound('Order not found');
}

/** The passport scan of an order: read it, upload one (staff), take a value from it (docs/product.md). */
export const passportScanRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/orders/:orderId/passport-scan',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['order-detail'],
        summary:
          "The latest passport scan of the order: the MRZ's values against the order's; null without one",
        security,
        params: orderIdParams,
        response: { 200: envelope(passportScanAnswer) },
      },
    },
    async (request) => {
      await assertOrder(db, request.params.orderId);
      return ok({ passportScan: await latestScan(db, request.params.orderId) }, 'Passport scan');
    },
  );

  app.post(
    '/admin/orders/:orderId/passport-scan',
    {
      config: { permission: 'orders.documents' },
      schema: {
        tags: ['order-detail'],
        summary: `multipart/form-data: the file ${PASSPORT_FILE_FIELD} (a photo or PDF of the passport's data page, ≤ 10 MB); its machine-readable zone is read and compared with the order`,
        security,
        params: orderIdParams,
        consumes: ['multipart/form-data'],
        response: { 200: envelope(passportScanAnswer) },
      },
    },
    async (request) => {
      const { orderId } = request.params;
      await assertOrder(db, orderId);
      if (!request.isMultipart()) throw unsupportedMediaType('Send the passport as multipart/form-data.');
      let stored: Awaited<ReturnType<typeof storeUpload>> | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'field') continue;
          const file = part as MultipartFile;
          if (file.fieldname !== PASSPORT_FILE_FIELD || stored) {
            file.file.resume();
            throw badRequest(`Send exactly one file, in the field ${PASSPORT_FILE_FIELD}.`);
          }
          stored = await storeUpload(config, file.file);
          if (file.file.truncated) throw payloadTooLarge('The file is too large. The maximum size is 10 MB.');
        }
        if (!stored) throw badRequest(`Send the passport in the field ${PASSPORT_FILE_FIELD}.`);
        const bytes = await readStored(config, stored.key);
        if (!bytes) throw notFound('File not found');
        const passportScan = await scanPassport(
          { db, config },
          { orderId, bytes, mimeType: stored.mimeType, source: 'staff' },
        );
        return ok(
          { passportScan },
          passportScan.status === 'read' ? 'Passport read.' : 'The passport could not be read.',
        );
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw payloadTooLarge('The file is too large. The maximum size is 10 MB.');
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
          throw badRequest(`Send exactly one file, in the field ${PASSPORT_FILE_FIELD}.`);
        throw err;
      } finally {
        // Only the reading is kept: the scan itself is the customer's document, not the service's.
        if (stored) await removeStored(config, stored.key);
      }
    },
  );

  app.post(
    '/admin/orders/:orderId/passport-scan/take',
    {
      config: { permission: 'orders.correct' },
      schema: {
        tags: ['order-detail'],
        summary: "Take the scan's value of one field into the order (a correction with old and new value)",
        security,
        params: orderIdParams,
        body: z
          .object({
            field: z.enum(SCAN_FIELDS),
            expectedVersion: z.coerce.number().int().positive().max(2_147_483_647),
          })
          .strict(),
        response: { 200: envelope(passportScanAnswer) },
      },
    },
    async (request) => {
      const passportScan = await takeScanValue({ db, config }, staffOf(request), {
        orderId: request.params.orderId,
        field: request.body.field,
        expectedVersion: request.body.expectedVersion,
        ip: request.ip,
      });
      return ok({ passportScan }, 'Taken from the passport scan.');
    },
  );
};
