import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../shared/contracts/common.js';
import {
  assignOrderBody,
  changedIds,
  changeOrderStatusBody,
  completeRefundBody,
  refundResult,
  countsQuery,
  restoredOrders,
  restoreOrderBody,
  folderCounts,
  futureMonthCounts,
  orderListRow,
  ordersListParams,
  ordersListQuery,
  searchOrderBody,
} from '../../shared/contracts/orders.js';
import { serviceToday } from '../../shared/dates.js';
import { MSG } from '../../shared/messages.js';
import { statusName } from '../../shared/order-rules.js';
import { staffOf } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { refundAnswer } from '../payments/refund-answer.js';
import { refundOrders, refundWhyOf } from '../flows/refund-orders.js';
import { deleteOrders } from '../flows/move-status.js';
import { assign } from '../orders/assignment.js';
import { restoreOrders } from '../orders/delete-restore.js';
import { countsFor } from './counts.js';
import { futureMonthCounts as countFutureMonths } from '../orders/list-counts.js';
import { isFolder, readList } from './read-list.js';

const security = [{ staffToken: [] }];
/** A list name of get-orders-list beside the folders: Order History's Customer replied filter. */
const CUSTOMER_REPLIED_FOLDER = 'customerReplied';

/** Order queues: counts, folder lists, search and the bulk actions (docs/product.md, "Order lists"). */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;

  app.get(
    '/admin/get-folder-count',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['orders'],
        summary: 'Every folder count for the signed-in user (userName is ignored)',
        security,
        querystring: countsQuery,
        response: { 200: envelope(folderCounts) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      return ok(await countsFor(app.ctx.lists.counts, db, staff.id), 'Folder counts');
    },
  );

  app.get(
    '/admin/get-future-month-count',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['orders'],
        summary: 'Future orders per process month (Jan…Dec) for the Future Orders tiles',
        security,
        response: { 200: envelope(futureMonthCounts) },
      },
    },
    async () => ok(await countFutureMonths(db, serviceToday()), 'Future order months'),
  );

  app.get(
    '/admin/get-orders-list/:orderName',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['orders'],
        summary:
          'One page of a folder in its default order (due time in the working queues, else newest first) unless sorted; filters narrow it (month narrows futureOrder to one process month). The folder customerReplied is Order History with customerReplied=true',
        security,
        params: ordersListParams,
        querystring: ordersListQuery,
        response: {
          200: envelope(z.array(orderListRow)).extend({
            total: z.number().int().describe('How many orders of the folder match the filters'),
          }),
        },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const name = request.params.orderName;
      // `customerReplied` (named in the conversation issue): Order History filtered to the orders whose
      // customer answered, mine or nobody's — the sidebar's "Customer replied" list.
      const folder = name === CUSTOMER_REPLIED_FOLDER ? 'allOrder' : name;
      if (!isFolder(folder)) throw notFound(`Unknown folder: ${name}`);
      const { page, limit, delay: _delay, userName: _userName, ...query } = request.query;
      if (name === CUSTOMER_REPLIED_FOLDER) query.customerReplied = 'true';
      const { rows, total } = await readList(app.ctx, staff, folder, { ...query, read: { page, limit } });
      return { ...ok(rows, rows.length ? 'Orders' : MSG.noRecords), total };
    },
  );

  app.post(
    '/admin/search-order',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['orders'],
        summary:
          'Search a folder: exact order id, or name / e-mail / phone (substring for 3+ characters); rows [start, end)',
        security,
        body: searchOrderBody,
        response: {
          200: envelope(z.array(orderListRow)).extend({
            total: z.number().int().describe('How many orders of the folder match (at most 1000)'),
            totalCapped: z.boolean().describe('More than 1000 match: narrow the search'),
          }),
        },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { folderName, searchVal, start, end, ...query } = request.body;
      const { rows, total, totalCapped } = await readList(app.ctx, staff, folderName, {
        ...query,
        read: { search: searchVal, start, end },
      });
      return { ...ok(rows, total ? 'Orders' : MSG.noRecords), total, totalCapped };
    },
  );

  app.put(
    '/admin/change-order-status',
    {
      // Every role may delete somewhere (Future Orders); the shared rules decide per order.
      config: { permission: 'orders.deleteFuture' },
      schema: {
        tags: ['orders'],
        summary:
          'Soft delete (status Deleted). Who may delete is decided per order from the folder it really sits in; folderName is informational',
        security,
        body: changeOrderStatusBody,
        response: { 200: envelope(changedIds) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const changed = await deleteOrders(db, staff, request.body.orderId, serviceToday());
      return ok({ orderId: changed }, MSG.deleted);
    },
  );

  app.put(
    '/admin/restore-order',
    {
      // The shared order rules decide (Admin and Manager), so a refusal names the rule.
      config: { permission: 'orders.move' },
      schema: {
        tags: ['orders'],
        summary: 'Take deleted orders out of Deleted, each back to the status it had before deletion',
        security,
        body: restoreOrderBody,
        response: { 200: envelope(restoredOrders) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const restored = await restoreOrders(db, staff, request.body.orderId, serviceToday());
      return ok(
        { orderId: restored.map((r) => r.orderId), restored },
        restored.length === 1
          ? `Order has been restored to ${statusName(restored[0]!.processStatus)}.`
          : `${restored.length} orders have been restored.`,
      );
    },
  );

  app.put(
    '/admin/assign-order-status',
    {
      config: { permission: 'orders.assign' },
      schema: {
        tags: ['orders'],
        summary:
          'Assign to the signed-in user; assignto empty or null moves the orders back (clears the assignee)',
        security,
        body: assignOrderBody,
        response: { 200: envelope(changedIds) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId, assignto, expectedVersion, overCapacity } = request.body;
      const toMe = !!assignto?.trim();
      const changed = await assign(db, staff, {
        orderIds: orderId,
        assign: toMe,
        expectedVersion,
        overCapacity,
      });
      return ok(
        { orderId: changed },
        toMe ? MSG.assigned : 'Order has been moved to the original folder successfully',
      );
    },
  );

  app.put(
    '/admin/move-to-complete-refund',
    {
      config: { permission: 'orders.refund' },
      schema: {
        tags: ['orders'],
        summary:
          'Orders in Refunds only (409 lists the others): refunded at the payment provider first where it is integrated (a partial amount for one order), then status Refunded, refund date now, refund confirmation mail queued; a partial refund keeps the order in Refunds unless close is true. A provider failure leaves that order in Refunds and says why per order; a refund is never made twice (an unknown outcome stays pending under the same idempotency key, 409 while one is under way)',
        security,
        body: completeRefundBody,
        response: { 200: envelope(refundResult) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId, amount, refundReason, close } = request.body;
      const result = await refundOrders(db, app.ctx.config, staff, {
        orderIds: orderId,
        amount,
        reason: refundReason,
        close,
        why: refundWhyOf(request.body),
        today: serviceToday(),
      });
      return refundAnswer(result);
    },
  );
};
