import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../shared/contracts/common.js';
import { availabilityBody, routingPolicy, routingPolicyAnswer } from '../../shared/contracts/routing.js';
import { recordAudit } from '../audit/audit.js';
import { now } from '../auth/clock.js';
import { staffOf } from '../auth/guard.js';
import { forgetStaffUser } from '../auth/staff-cache.js';
import { staffUsers } from '../db/schema.js';
import { ok } from '../http/envelope.js';
import { badRequest } from '../http/errors.js';
import { isAway, withinWeekHours } from './decide.js';
import { getRoutingPolicy, saveRoutingPolicy } from './policy.js';

const security = [{ staffToken: [] }];

/** One's own availability, as the account menu shows it. */
const availabilityAnswer = z.object({
  away: z.boolean(),
  awayUntil: z.string().nullable(),
  /** A shift is set: routing hands them orders while they are on it. */
  routed: z.boolean(),
  onShift: z.boolean(),
});

/** The routing policy (Settings) and one's own Available/Away switch (account menu). */
export const routingRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ctx.db;

  app.get(
    '/admin/routing-policy',
    {
      config: { permission: 'routing.policy' },
      schema: {
        tags: ['team'],
        summary: 'The routing policy: per folder off or auto, and the idle release in minutes (null: never)',
        security,
        response: { 200: envelope(routingPolicyAnswer) },
      },
    },
    async () => ok(await getRoutingPolicy(db), 'Routing policy'),
  );

  app.put(
    '/admin/routing-policy',
    {
      config: { permission: 'routing.policy' },
      schema: {
        tags: ['team'],
        summary: 'Change the routing policy (Admin, Manager); audited',
        security,
        body: routingPolicy,
        response: { 200: envelope(routingPolicyAnswer) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const next = request.body;
      await db.transaction(async (tx) => {
        const { updatedAt: _a, updatedBy: _b, ...before } = await getRoutingPolicy(tx);
        await saveRoutingPolicy(tx, next, staff.id, now());
        await recordAudit(tx, {
          action: 'routing-policy.update',
          actorId: staff.id,
          actorEmail: staff.email,
          target: 'settings:routingPolicy',
          from: before,
          to: next,
          ip: request.ip,
        });
      });
      return ok(await getRoutingPolicy(db), 'The routing policy has been saved.');
    },
  );

  const readAvailability = async (id: number) => {
    const [row] = await db
      .select({
        away: staffUsers.away,
        awayUntil: staffUsers.awayUntil,
        shift: staffUsers.shift,
      })
      .from(staffUsers)
      .where(eq(staffUsers.id, id));
    const at = now();
    return {
      away: row ? isAway({ away: row.away, awayUntil: row.awayUntil }, at) : false,
      awayUntil: row?.away && row.awayUntil ? row.awayUntil.toISOString() : null,
      routed: !!row?.shift,
      onShift: withinWeekHours(row?.shift ?? null, at),
    };
  };

  app.get(
    '/staff/availability',
    {
      config: { permission: 'session.self' },
      schema: {
        tags: ['team'],
        summary: 'One’s own Available/Away state and whether routing hands one orders',
        security,
        response: { 200: envelope(availabilityAnswer) },
      },
    },
    async (request) => ok(await readAvailability(staffOf(request).id)),
  );

  app.put(
    '/staff/availability',
    {
      config: { permission: 'session.self' },
      schema: {
        tags: ['team'],
        summary:
          'Switch oneself Available or Away (optionally until a time); routing hands an away member nothing. Audited',
        security,
        body: availabilityBody,
        response: { 200: envelope(availabilityAnswer) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { away } = request.body;
      const until = away && request.body.awayUntil ? new Date(request.body.awayUntil) : null;
      if (until && until.getTime() <= now().getTime()) throw badRequest('awayUntil: must be in the future');
      await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ away: staffUsers.away, awayUntil: staffUsers.awayUntil })
          .from(staffUsers)
          .where(eq(staffUsers.id, staff.id))
          .for('no key update');
        await tx
          .update(staffUsers)
          .set({ away, awayUntil: until, updatedAt: now() })
          .where(eq(staffUsers.id, staff.id));
        await recordAudit(tx, {
          action: 'team.availability',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `staff:${staff.id}`,
          from: { away: before?.away ?? false, awayUntil: before?.awayUntil?.toISOString() ?? null },
          to: { away, awayUntil: until?.toISOString() ?? null },
          ip: request.ip,
        });
      });
      forgetStaffUser(staff.id);
      return ok(await readAvailability(staff.id), away ? 'You are away.' : 'You are available.');
    },
  );
};
