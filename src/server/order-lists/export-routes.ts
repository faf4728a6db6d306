import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MONTHS } from '../../shared/constants.js';
import { text } from '../../shared/contracts/common.js';
import { listFilterFields, type OrderListRow } from '../../shared/contracts/orders.js';
import { csvCell } from '../../shared/csv.js';
import { refundReasonText } from '../../shared/refund-reasons.js';
import { formatDate, formatUtcDateTime, serviceToday } from '../../shared/dates.js';
import { recordAudit } from '../audit/audit.js';
import { staffOf } from '../auth/guard.js';
import { notFound } from '../http/errors.js';
import { isFolder, readList } from './read-list.js';

/** Rows read per database round trip while the file streams out. */
const CHUNK = 2000;

const exportQuery = z
  .object({
    ...listFilterFields,
    month: z.enum(MONTHS, { error: 'must be Jan to Dec' }).optional(),
    search: text(100).optional(),
  })
  .strict()
  .refine((v) => !v.arrivalFrom || !v.arrivalTo || v.arrivalFrom <= v.arrivalTo, {
    path: ['arrivalTo'],
    message: 'must be on or after arrivalFrom',
  });

const HEADER = [
  'Order ID',
  'Status',
  'Name',
  'Nationality',
  'Processing Mode',
  'Arrival Date',
  'Due (UTC)',
  'Email',
  'Telephone',
  'Date & Time (UTC)',
  'Process Date',
  'Assign To',
  'Refund Reason',
  'Government Reference',
];

function phone(r: OrderListRow): string {
  const number = r.telephone_number?.trim();
  if (!number) return '';
  const code = r.phone_code?.trim();
  return code ? `+${code} ${number}` : number;
}

function line(r: OrderListRow): string {
  return [
    r.order_id,
    r.process_status,
    `${r.first_name} ${r.last_name}`.trim(),
    r.nationality ?? '',
    r.processing_mode,
    formatDate(r.arrival_date),
    r.due_at ? formatUtcDateTime(r.due_at) : '',
    r.email,
    phone(r),
    formatUtcDateTime(r.created_at),
    formatDate(r.processing_date),
    r.assign_to,
    refundReasonText(r.refund_reason, r.refund_reason_text),
    r.government_reference ?? '',
  ]
    .map(csvCell)
    .join(',');
}

/**
 * CSV export of a whole filtered (or searched) folder, streamed in chunks as the rows are read: the
 * file starts at once however many orders it holds. Recorded in the audit log ('export.csv') first.
 */
export const orderExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  app.get(
    '/admin/export-orders/:folder',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['orders'],
        summary:
          'The whole folder under the given sort, filters and search as CSV (streamed); recorded in the audit log',
        security: [{ staffToken: [] }],
        params: z.object({ folder: text(50) }),
        querystring: exportQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      const folder = request.params.folder;
      if (!isFolder(folder)) throw notFound(`Unknown folder: ${folder}`);
      const list = folder;
      const { search: typed, ...query } = request.query;
      const search = typed || undefined;
      const { total } = await readList(app.ctx, staff, folder, { ...query, read: { total: true, search } });
      const { month, ...shown } = query;
      await recordAudit(db, {
        action: 'export.csv',
        actorId: staff.id,
        actorEmail: staff.email,
        target: 'screen:orders',
        // What was exported, never what was searched for: a search term is personal data (a name, an address).
        to: {
          rows: total,
          detail: JSON.stringify({ folder, ...shown, month, searched: Boolean(search) }).slice(0, 500),
        },
        ip: request.ip,
      });
      async function* lines() {
        yield `\uFEFF${HEADER.map(csvCell).join(',')}\r\n`;
        for (let start = 0; start < total; start += CHUNK) {
          const read =
            search === undefined
              ? { chunk: start / CHUNK + 1, limit: CHUNK }
              : { search, start, end: start + CHUNK };
          const { rows } = await readList(app.ctx, staff, list, { ...query, read });
          if (!rows.length) break;
          yield `${rows.map(line).join('\r\n')}\r\n`;
        }
      }
      const stamp = serviceToday();
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders-${folder}-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    },
  );
};
