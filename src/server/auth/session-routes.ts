import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_MSG,
  sessionIdParams,
  sessionsQuery,
  staffSessionView,
} from '../../shared/contracts/account.js';
import { envelope, messageOnly } from '../../shared/contracts/common.js';
import { can } from '../../shared/permissions.js';
import { recordAudit } from '../audit/audit.js';
import { done, ok } from '../http/envelope.js';
import { notFound } from '../http/errors.js';
import { sessionIdOf, staffOf } from './guard.js';
import { endSession, findSession, listLiveSessions } from './sessions.js';

const security = [{ staffToken: [] }];

/** "Your sessions": list and end one's own; an Admin may do the same for anyone. */
export const sessionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/admin/sessions',
    {
      config: { permission: 'session.self' },
      schema: {
        tags: ['auth'],
        summary: 'Live sessions of the signed-in user (an Admin may ask for another user by userId)',
        security,
        querystring: sessionsQuery,
        response: { 200: envelope(z.array(staffSessionView)) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const userId = request.query.userId ?? staff.id;
      // Someone else's sessions are an Admin's business only; others hear "not found", not "forbidden".
      if (userId !== staff.id && !can(staff.type, 'sessions.manageAny'))
        throw notFound(ACCOUNT_MSG.sessionNotFound);
      const current = sessionIdOf(request);
      const rows = await listLiveSessions(db, userId, config.SESSION_IDLE_HOURS);
      return ok(
        rows.map((r) => ({
          id: r.id,
          createdAt: r.createdAt.toISOString(),
          lastSeenAt: r.lastSeenAt.toISOString(),
          ip: r.ip,
          device: r.device,
          current: r.id === current,
        })),
      );
    },
  );

  app.delete(
    '/admin/sessions/:id',
    {
      config: { permission: 'session.self' },
      schema: {
        tags: ['auth'],
        summary: 'End a session (own; an Admin may end anyone’s)',
        security,
        params: sessionIdParams,
        response: { 200: messageOnly },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const session = await findSession(db, request.params.id);
      if (!session || (session.userId !== staff.id && !can(staff.type, 'sessions.manageAny'))) {
        throw notFound(ACCOUNT_MSG.sessionNotFound);
      }
      await db.transaction(async (tx) => {
        const ended = await endSession(
          tx,
          session.id,
          session.userId === staff.id ? 'ended by user' : 'ended by admin',
        );
        if (!ended) return;
        await recordAudit(tx, {
          action: 'session.end',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `staff:${session.userId}`,
          to: { session: session.id },
          ip: request.ip,
        });
      });
      return done(ACCOUNT_MSG.sessionEnded);
    },
  );
};
