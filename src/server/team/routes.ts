import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ROLES } from '../../shared/constants.js';
import { envelope, messageOnly } from '../../shared/contracts/common.js';
import {
  addTeamMemberBody,
  deleteTeamMemberBody,
  needsCurrentPassword,
  TEAM_MSG,
  teamMember,
  type TeamMember,
  teamMemberParams,
  updateTeamMemberBody,
  memberOpenOrders,
  openOrdersText,
  TEAM_MSG_ORDERS,
} from '../../shared/contracts/team.js';
import { MSG } from '../../shared/messages.js';
import { AUTH_MSG } from '../../shared/contracts/auth.js';
import { recordAudit } from '../audit/audit.js';
import { staffOf } from '../auth/guard.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { now } from '../auth/clock.js';
import { queueNotice } from '../auth/notices.js';
import { newPasswordProblem } from '../auth/password-policy.js';
import { endUserSessions } from '../auth/sessions.js';
import { getSecuritySettings } from '../auth/settings.js';
import { hitThrottle, refundThrottle } from '../auth/throttle.js';
import { staffUsers } from '../db/schema.js';
import { done, ok } from '../http/envelope.js';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import { handOverOpenOrders, openOrdersHeldBy } from '../orders/assignment.js';
import {
  emailTaken,
  findMember,
  insertMember,
  isUniqueViolation,
  listMembers,
  softDeleteMember,
  updateMember,
} from './queries.js';

const security = [{ staffToken: [] }];

/** Wrong current passwords given to change someone's credentials: like sign-ins, 10 per 15 minutes. */
const REAUTH_LIMIT = { limit: 10, windowMinutes: 15 } as const;
/** Only an Admin may touch an Admin account (docs/product.md, "Who may do what"). */
function assertMayManage(actorType: string, targetType: string): void {
  if (targetType === 'Admin' && actorType !== 'Admin') throw forbidden(TEAM_MSG.adminOnly);
}

const audited = (m: { name: string; email: string; type: string }) => ({
  name: m.name,
  email: m.email,
  type: m.type,
});

/** The routing fields of a member, as the audit trail records them. */
const auditedRouting = (m: TeamMember) => ({
  capacity: m.capacity,
  languages: m.languages,
  shift: m.shift,
  away: m.away,
  awayUntil: m.awayUntil,
});

export const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/admin/get-team-member-list',
    {
      config: { permission: 'team.read' },
      schema: { tags: ['team'], security, response: { 200: envelope(z.array(teamMember)) } },
    },
    async () => ok(await listMembers(db)),
  );

  app.get(
    '/admin/get-team-member-type',
    {
      config: { permission: 'team.read' },
      schema: { tags: ['team'], security, response: { 200: envelope(z.array(z.enum(ROLES))) } },
    },
    async () => ok([...ROLES]),
  );

  app.get(
    '/admin/team-member-info/:id',
    {
      config: { permission: 'team.read' },
      schema: {
        tags: ['team'],
        security,
        params: teamMemberParams,
        response: { 200: envelope(teamMember) },
      },
    },
    async (request) => {
      const member = await findMember(db, request.params.id);
      if (!member) throw notFound(TEAM_MSG.notFound);
      return ok(member);
    },
  );

  app.post(
    '/admin/add-team-member',
    {
      config: { permission: 'team.write' },
      schema: {
        tags: ['team'],
        security,
        body: addTeamMemberBody,
        response: { 200: envelope(teamMember) },
      },
    },
    async (request) => {
      const actor = staffOf(request);
      const { name, email, password, type } = request.body;
      assertMayManage(actor.type, type);
      if (await emailTaken(db, email)) throw conflict(TEAM_MSG.emailTaken);
      const problem = await newPasswordProblem(password, email);
      if (problem) throw badRequest(problem);
      const { mustChangeSetPasswords } = await getSecuritySettings(db);
      const passwordHash = await hashPassword(password);
      try {
        const member = await db.transaction(async (tx) => {
          const created = await insertMember(tx, {
            name,
            email,
            role: type,
            passwordHash,
            mustChangePassword: mustChangeSetPasswords,
          });
          await recordAudit(tx, {
            action: 'team.add',
            actorId: actor.id,
            actorEmail: actor.email,
            target: `staff:${created.id}`,
            to: audited(created),
            ip: request.ip,
          });
          return created;
        });
        return ok(member, TEAM_MSG.added);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(TEAM_MSG.emailTaken);
        throw err;
      }
    },
  );

  app.post(
    '/admin/update-team-member',
    {
      config: { permission: 'team.write' },
      schema: {
        tags: ['team'],
        security,
        body: updateTeamMemberBody,
        response: { 200: envelope(teamMember) },
      },
    },
    async (request) => {
      const actor = staffOf(request);
      const {
        tmId,
        name,
        email,
        password,
        type,
        currentPassword,
        capacity,
        languages,
        shift,
        away,
        awayUntil,
      } = request.body;
      const target = await findMember(db, tmId);
      if (!target) throw notFound(TEAM_MSG.notFound);
      assertMayManage(actor.type, target.type);
      assertMayManage(actor.type, type);
      // One's own password changes only through change-password (which asks for the current one).
      if (password && target.id === actor.id) throw badRequest(TEAM_MSG.ownPasswordHere);
      const emailChanged = target.email.toLowerCase() !== email.toLowerCase();
      if (needsCurrentPassword(actor.id, target, { password: !!password, email: emailChanged })) {
        await reauthenticate(request, actor, tmId, currentPassword);
      }
      if (password) {
        const problem = await newPasswordProblem(password, email);
        if (problem) throw badRequest(problem);
      }
      // A password set by someone else is changed at its first sign-in when the setting says so.
      const mustChange = password ? (await getSecuritySettings(db)).mustChangeSetPasswords : undefined;
      // Hash before the transaction: argon2 is slow and must not hold the row lock.
      const passwordHash = password ? await hashPassword(password) : undefined;
      try {
        const member = await db.transaction(async (tx) => {
          const before = await findMember(tx, tmId, true);
          if (!before) throw notFound(TEAM_MSG.notFound);
          // Changed since the checks above (type or e-mail): the checks would differ, so ask again.
          if (before.type !== target.type || before.email !== target.email)
            throw conflict(TEAM_MSG.changedMeanwhile);
          if (before.id === actor.id && before.type !== type) throw badRequest(TEAM_MSG.changeOwnType);
          if (await emailTaken(tx, email, tmId)) throw conflict(TEAM_MSG.emailTaken);
          // A new password or a new type ends their sessions: the token carries the type.
          const revoke = !!passwordHash || before.type !== type;
          const after = await updateMember(
            tx,
            tmId,
            {
              name,
              email,
              role: type,
              passwordHash,
              mustChangePassword: mustChange,
              capacity,
              languages,
              shift,
              away,
              awayUntil,
            },
            revoke,
          );
          if (passwordHash) {
            await queueNotice(tx, app.ctx.config, {
              userId: tmId,
              toEmail: after.email,
              name: after.name,
              kind: 'password-changed',
              at: now(),
            });
          }
          if (revoke) await endUserSessions(tx, tmId, passwordHash ? 'password reset' : 'type changed');
          await recordAudit(tx, {
            action: 'team.update',
            actorId: actor.id,
            actorEmail: actor.email,
            target: `staff:${tmId}`,
            from: { ...audited(before), ...auditedRouting(before) },
            to: {
              ...audited(after),
              ...auditedRouting(after),
              passwordChanged: !!passwordHash,
              tokensRevoked: revoke,
            },
            ip: request.ip,
          });
          return after;
        });
        return ok(member, TEAM_MSG.updated);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(TEAM_MSG.emailTaken);
        throw err;
      }
    },
  );

  /** Checks the acting user's current password; wrong answers are throttled like sign-ins and audited. */
  async function reauthenticate(
    request: FastifyRequest,
    actor: { id: number; email: string },
    targetId: number,
    currentPassword: string | undefined,
  ): Promise<void> {
    if (!currentPassword) throw badRequest(TEAM_MSG.currentPasswordNeeded);
    const key = `reauth:${actor.id}`;
    const hit = await hitThrottle(db, key, REAUTH_LIMIT);
    if (!hit.allowed) throw tooManyRequests(AUTH_MSG.accountThrottled(hit.retryMinutes));
    const [row] = await db
      .select({ passwordHash: staffUsers.passwordHash })
      .from(staffUsers)
      .where(eq(staffUsers.id, actor.id));
    if (!row || !(await verifyPassword(row.passwordHash, currentPassword))) {
      await recordAudit(db, {
        action: 'team.update',
        actorId: actor.id,
        actorEmail: actor.email,
        target: `staff:${targetId}`,
        to: { result: 'refused: wrong current password' },
        ip: request.ip,
      });
      throw badRequest(AUTH_MSG.currentPasswordWrong);
    }
    await refundThrottle(db, key);
  }

  app.put(
    '/admin/delete-team-member',
    {
      config: { permission: 'team.write' },
      schema: { tags: ['team'], security, body: deleteTeamMemberBody, response: { 200: messageOnly } },
    },
    async (request) => {
      const actor = staffOf(request);
      const id = request.body.teamMemberId;
      if (id === actor.id) throw badRequest(TEAM_MSG.deleteSelf);
      const { openOrders: choice, reassignTo } = request.body;
      let moved = 0;
      await db.transaction(async (tx) => {
        const before = await findMember(tx, id, true);
        if (!before) throw notFound(TEAM_MSG.notFound);
        assertMayManage(actor.type, before.type);
        // Their open orders never stay with an account nobody can sign in to (decision 317).
        const held = await openOrdersHeldBy(tx, id);
        if (held > 0 && !choice) throw conflict(openOrdersText(before.name, held), { openOrders: held });
        if (held > 0 && choice === 'reassign') {
          const heir =
            reassignTo === undefined || reassignTo === id ? null : await findMember(tx, reassignTo);
          if (!heir) throw badRequest(TEAM_MSG_ORDERS.reassignToSelfOrGone);
          moved = await handOverOpenOrders(tx, actor, id, heir.id);
        } else if (held > 0) {
          moved = await handOverOpenOrders(tx, actor, id, null);
        }
        await softDeleteMember(tx, id);
        await recordAudit(tx, {
          action: 'team.delete',
          actorId: actor.id,
          actorEmail: actor.email,
          target: `staff:${id}`,
          from: audited(before),
          to: {
            deleted: true,
            tokensRevoked: true,
            ...(moved
              ? {
                  openOrders:
                    choice === 'reassign'
                      ? `${moved} reassigned to staff:${reassignTo}`
                      : `${moved} released`,
                }
              : {}),
          },
          ip: request.ip,
        });
      });
      return done(MSG.teamDeleted);
    },
  );

  app.get(
    '/admin/team-member-open-orders/:id',
    {
      config: { permission: 'team.write' },
      schema: {
        tags: ['team'],
        summary:
          'How many open orders the member holds (the Delete dialog offers to release or reassign them)',
        security,
        params: teamMemberParams,
        response: { 200: envelope(memberOpenOrders) },
      },
    },
    async (request) => {
      const member = await findMember(db, request.params.id);
      if (!member) throw notFound(TEAM_MSG.notFound);
      return ok({ openOrders: await openOrdersHeldBy(db, member.id) });
    },
  );
};
