import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  claimNextBody,
  claimNextResponse,
  presenceBody,
  presenceParams,
  presenceResponse,
} from '../../shared/contracts/live.js';
import { staffOf } from '../auth/guard.js';
import { tokenFromHeader, verifyStaffToken } from '../auth/tokens.js';
import { ok } from '../http/envelope.js';
import { notFound, unauthorized } from '../http/errors.js';
import { claimNext } from '../orders/claim.js';
import { lockOrders } from '../orders/repository.js';
import { HEARTBEAT_MS, LiveHub, viewersOf } from './hub.js';

const security = [{ staffToken: [] }];

/** Rows changed by an UPDATE: node-postgres says rowCount, PGlite affectedRows. */
function affectedRows(result: unknown): number {
  const r = result as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
}

/** The live queues: the staff event stream, presence on an order, and claiming the next order. */
export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database } = app.ctx;
  const db = database.db;
  const { config } = app.ctx;
  const hub = new LiveHub(database, {
    idleHours: config.SESSION_IDLE_HOURS,
    recheckMs: config.LIVE_STREAM_RECHECK_SECONDS * 1000,
    maxLifetimeMs: config.LIVE_STREAM_MAX_SECONDS * 1000,
    perSession: config.LIVE_STREAMS_PER_SESSION,
    perUser: config.LIVE_STREAMS_PER_USER,
    counts: app.ctx.lists.counts,
  });
  await hub.start();
  app.addHook('preClose', () => hub.close());

  app.get(
    '/admin/events',
    {
      config: { permission: 'orders.read', rateLimit: false },
      schema: {
        tags: ['live'],
        summary:
          'text/event-stream of `counts` (this user’s folder counts when they change), `order` (every change of an order) and `presence` (who views an order, to those viewing it); a comment line every 15 s keeps it open. `end` then the end of the stream: the session ended (reconnecting answers 401), the stream reached its maximum lifetime (1 h) or its session opened more than 5 streams',
        security,
      },
    },
    async (request, reply) => {
      const staff = staffOf(request);
      // The guard has checked the token; the stream keeps what it stood for, to end when that changes.
      const claims = await verifyStaffToken(
        config.JWT_SECRET,
        tokenFromHeader(request.headers.authorization) ?? '',
      );
      if (!claims) throw unauthorized();
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      // The client reconnects after a dropped connection; this is its first wait.
      res.write(`retry: ${Math.min(HEARTBEAT_MS, 3000)}\n\n`);
      hub.add(staff, { sessionId: claims.sid, tokenVersion: claims.tv }, res);
      request.raw.on('close', () => res.end());
    },
  );

  app.put(
    '/admin/presence',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['live'],
        summary:
          'I am viewing (editing: true, typing) this order: send every 10 s from the detail page; gone after 30 s without one',
        security,
        body: presenceBody,
        response: { 200: presenceResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId, editing } = request.body;
      await db.transaction(async (tx) => {
        await lockOrders(tx, [orderId], 'Order not found');
        // A heartbeat that changes nothing but the time does not notify anyone.
        const touched = await tx.execute(sql`
          update order_presence set seen_at = now()
          where order_id = ${orderId} and staff_id = ${staff.id} and editing = ${editing}`);
        if (affectedRows(touched) > 0) return;
        await tx.execute(sql`
          insert into order_presence (order_id, staff_id, editing, seen_at) values (${orderId}, ${staff.id}, ${editing}, now())
          on conflict (order_id, staff_id) do update set editing = excluded.editing, seen_at = now()`);
      });
      return ok({ orderId, viewers: await viewersOf(database, orderId) }, 'Presence noted');
    },
  );

  app.delete(
    '/admin/presence/:orderId',
    {
      config: { permission: 'orders.read' },
      schema: {
        tags: ['live'],
        summary: 'I left this order (at once, instead of after 30 s)',
        security,
        params: presenceParams,
        response: { 200: presenceResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { orderId } = request.params;
      await db.execute(
        sql`delete from order_presence where order_id = ${orderId} and staff_id = ${staff.id}`,
      );
      return ok({ orderId, viewers: await viewersOf(database, orderId) }, 'Presence ended');
    },
  );

  app.post(
    '/admin/claim-next-order',
    {
      config: { permission: 'orders.assign' },
      schema: {
        tags: ['live'],
        summary:
          'Assign to me the most urgent unassigned open order of the folder (earliest arrival first); 404 when there is none',
        security,
        body: claimNextBody,
        response: { 200: claimNextResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { folderName } = request.body;
      const orderId = await claimNext(db, staff, folderName);
      if (orderId === null) throw notFound('No unassigned order is waiting in this folder.');
      return ok({ orderId }, `Order ${orderId} is now assigned to you.`);
    },
  );
};
