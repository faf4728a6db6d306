import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FOLDERS, type Folder } from '../../shared/constants.js';
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
  type OrderListRow,
  orderListRow,
  ordersListParams,
  ordersListQuery,
  searchOrderBody,
} from '../../shared/contracts/orders.js';
import { serviceToday } from '../../shared/dates.js';
import { MSG } from '../../shared/messages.js';
import { statusName } from '../../shared/order-rules.js';
import { can, readPermissionFor } from '../../shared/permissions.js';
import { staffOf } from '../auth/guard.js';
import type { DbOrTx } from '../db/client.js';
import { ok } from '../http/envelope.js';
import { forbidden, notFound, serviceUnavailable } from '../http/errors.js';
import { monthNumber } from './folders.js';
import { refundAnswer } from '../payments/refund-answer.js';
import { refundOrders } from '../payments/refunds.js';
import { assign, deleteOrders, restoreOrders } from './commands.js';
import { countsFor, countsMemoryOf, listClock, nextDueChange, startCountsMemory } from './counts.js';
import {
  futureMonthCounts as countFutureMonths,
  filtersOf,
  isStatementTimeout,
  listFolder,
  listNeedsTimeout,
  listTotal,
  searchFolder,
  withListTimeout,
} from './lists.js';

const MSG_LIST_TIMEOUT =
  'This page took too long to read. Go to a nearer page or narrow the list with a filter, then try again.';

const isFolder = (name: string): name is Folder => (FOLDERS as readonly string[]).includes(name);
const security = [{ staffToken: [] }];

/** Order queues: counts, folder lists, search and the bulk actions (docs/product.md, "Order lists"). */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;
  const { database } = app.ctx;
  // Folder and due-time counts in memory, fed by the change events (decision 220).
  const stopCounts = await startCountsMemory(database, (what) => app.log.warn(what));
  app.addHook('onClose', stopCounts);

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
      return ok(await countsFor(database, staff.id), 'Folder counts');
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
          'One page of a folder in its default order (due time in the working queues, else newest first) unless sorted; filters narrow it (month narrows futureOrder to one process month)',
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
      const folder = request.params.orderName;
      if (!isFolder(folder)) throw notFound(`Unknown folder: ${folder}`);
      if (!can(staff.type, readPermissionFor(folder))) throw forbidden();
      const { page, limit, month, delay: _delay, userName: _userName, ...query } = request.query;
      const scope = { today: serviceToday(), staffId: staff.id, month: monthNumber(month) };
      const options = {
        sort: query.sort,
        dir: query.dir,
        filters: filtersOf(query),
        clock: await listClock(database),
        pageKeys: countsMemoryOf(database)?.pageKeys,
      };
      // Page 1 from memory while nothing changed (decision 226); lists by due state change with the clock.
      // EDCARD_FIRST_PAGE_CACHE=0 turns it off.
      const pages =
        page === 1 && !options.filters.slaState && process.env.EDCARD_FIRST_PAGE_CACHE !== '0'
          ? countsMemoryOf(database)?.firstPages
          : undefined;
      const pageKey = pages
        ? JSON.stringify([
            folder,
            scope.today,
            scope.month ?? 0,
            folder === 'myOrder' || options.filters.assignee === 'me' ? staff.id : 0,
            query,
            limit,
          ])
        : '';
      const at = options.clock.now.getTime();
      const cached = pages?.get<{ rows: OrderListRow[]; total: number }>(pageKey, at);
      if (cached)
        return { ...ok(cached.rows, cached.rows.length ? 'Orders' : MSG.noRecords), total: cached.total };
      const generation = pages?.generation ?? 0;
      // Under the time limit each read has its own transaction (and connection), so the page and the
      // total still run side by side.
      const timed = listNeedsTimeout(folder, scope, page, limit, options);
      const run = <T>(read: (d: DbOrTx) => Promise<T>) =>
        timed ? withListTimeout(database, read) : read(db);
      let rows: OrderListRow[];
      let total: number;
      try {
        [rows, total] = await Promise.all([
          run((d) => listFolder(d, folder, scope, page, limit, options)),
          run((d) => listTotal(d, folder, scope, options)),
        ]);
      } catch (err) {
        if (isStatementTimeout(err)) throw serviceUnavailable(MSG_LIST_TIMEOUT);
        throw err;
      }
      pages?.set(
        pageKey,
        { rows, total },
        generation,
        at,
        nextDueChange(
          rows.map((r) => r.due_at),
          at,
          options.clock.marginHours,
        ),
      );
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
      const { folderName, searchVal, start, end, month, ...query } = request.body;
      if (!can(staff.type, readPermissionFor(folderName))) throw forbidden();
      const scope = { today: serviceToday(), staffId: staff.id, month: monthNumber(month) };
      const options = {
        sort: query.sort,
        dir: query.dir,
        filters: filtersOf(query),
        clock: await listClock(database),
      };
      const { rows, total, totalCapped } = await searchFolder(
        db,
        folderName,
        scope,
        searchVal,
        start,
        end,
        options,
      );
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
      const { orderId, assignto, expectedVersion } = request.body;
      const toMe = !!assignto?.trim();
      const changed = await assign(db, staff, { orderIds: orderId, assign: toMe, expectedVersion });
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
          'Orders in Refunds only (409 lists the others): refunded at the payment provider first where it is integrated (a partial amount for one order), then status Refunded, refund date now, refund confirmation mail queued. A provider failure leaves that order in Refunds and says why per order',
        security,
        body: completeRefundBody,
        response: { 200: envelope(refundResult) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId, amount, refundReason } = request.body;
      const result = await refundOrders(db, app.ctx.config, staff, orderId, {
        amount,
        reason: refundReason,
        today: serviceToday(),
      });
      return refundAnswer(result);
    },
  );
};
