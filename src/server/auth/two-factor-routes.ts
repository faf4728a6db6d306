import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import {
  ACCOUNT_MSG,
  securitySettings,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorEnableResponse,
  twoFactorSetupResponse,
  twoFactorResetBody,
  twoFactorStatus,
} from '../../shared/contracts/account.js';
import { AUTH_MSG } from '../../shared/contracts/auth.js';
import { envelope, messageOnly } from '../../shared/contracts/common.js';
import { teamMemberParams } from '../../shared/contracts/team.js';
import { recordAudit } from '../audit/audit.js';
import type { DbOrTx } from '../db/client.js';
import { staffUsers } from '../db/schema.js';
import { done, ok } from '../http/envelope.js';
import { badRequest, conflict, notFound, tooManyRequests } from '../http/errors.js';
import { now } from './clock.js';
import { sessionIdOf, staffOf } from './guard.js';
import { queueNotice } from './notices.js';
import { verifyPassword } from './passwords.js';
import { clearPending, endUserSessions } from './sessions.js';
import { forgetStaffUser } from './staff-cache.js';
import { getSecuritySettings, saveSecuritySettings } from './settings.js';
import { hitThrottle, refundThrottle } from './throttle.js';
import {
  claimTotpStep,
  newTotpSecret,
  openSecret,
  otpauthUrl,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  sealSecret,
  totpStep,
  redeemRecoveryCode,
} from './two-factor.js';

const security = [{ staffToken: [] }];
const OTP_LIMIT = { limit: 10, windowMinutes: 15 } as const;

/** Two-factor sign-in of one's own account, an Admin's reset of another's, and the sign-in settings. */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;

  async function secretsOf(userId: number) {
    const [row] = await db
      .select({
        totpSecret: staffUsers.totpSecret,
        totpPendingSecret: staffUsers.totpPendingSecret,
        passwordHash: staffUsers.passwordHash,
        role: staffUsers.role,
      })
      .from(staffUsers)
      .where(eq(staffUsers.id, userId));
    if (!row) throw notFound();
    return row;
  }

  /** A code checked under the per-user throttle: TOTP (single use per step) or, if allowed, a recovery code. */
  async function checkCode(userId: number, secret: string | null, code: string, recovery: boolean) {
    const key = `otp:${userId}`;
    const hit = await hitThrottle(db, key, OTP_LIMIT);
    if (!hit.allowed) throw tooManyRequests(AUTH_MSG.accountThrottled(hit.retryMinutes));
    const step = secret ? totpStep(secret, code) : null;
    const ok =
      step !== null
        ? await claimTotpStep(db, userId, step)
        : recovery
          ? await redeemRecoveryCode(db, userId, code)
          : false;
    if (!ok) throw badRequest(ACCOUNT_MSG.codeWrong);
    await refundThrottle(db, key);
  }

  app.get(
    '/admin/2fa',
    {
      config: { permission: 'session.self', allowPending: true },
      schema: {
        tags: ['auth'],
        summary: 'Own two-factor sign-in state',
        security,
        response: { 200: envelope(twoFactorStatus) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const row = await secretsOf(staff.id);
      const settings = await getSecuritySettings(db);
      return ok({
        enabled: !!row.totpSecret,
        required: settings.twoFactorRoles.includes(row.role),
        recoveryCodesLeft: row.totpSecret ? await recoveryCodesLeft(db, staff.id) : 0,
      });
    },
  );

  app.post(
    '/admin/2fa/setup',
    {
      config: { permission: 'session.self', allowPending: true },
      schema: {
        tags: ['auth'],
        summary: 'Start two-factor setup: a new secret, its otpauth URL and QR code (SVG)',
        security,
        response: { 200: twoFactorSetupResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const row = await secretsOf(staff.id);
      if (row.totpSecret) throw conflict(ACCOUNT_MSG.twoFactorAlreadyOn);
      const secret = newTotpSecret();
      await db
        .update(staffUsers)
        .set({ totpPendingSecret: sealSecret(secret, config.JWT_SECRET) })
        .where(eq(staffUsers.id, staff.id));
      const url = otpauthUrl(secret, staff.email);
      const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return { status: 1 as const, message: 'Success', data: { secret, otpauthUrl: url, qrSvg } };
    },
  );

  app.post(
    '/admin/2fa/enable',
    {
      config: { permission: 'session.self', allowPending: true },
      schema: {
        tags: ['auth'],
        summary: 'Turn two-factor sign-in on with a code of the new secret: 10 recovery codes, shown once',
        security,
        body: twoFactorEnableBody,
        response: { 200: twoFactorEnableResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const row = await secretsOf(staff.id);
      if (row.totpSecret) throw conflict(ACCOUNT_MSG.twoFactorAlreadyOn);
      const secret = row.totpPendingSecret ? openSecret(row.totpPendingSecret, config.JWT_SECRET) : null;
      if (!secret) throw badRequest(ACCOUNT_MSG.twoFactorSetupFirst);
      const key = `otp:${staff.id}`;
      const hit = await hitThrottle(db, key, OTP_LIMIT);
      if (!hit.allowed) throw tooManyRequests(AUTH_MSG.accountThrottled(hit.retryMinutes));
      const step = totpStep(secret, request.body.code);
      if (step === null) throw badRequest(ACCOUNT_MSG.codeWrong);
      await refundThrottle(db, key);
      const sessionId = sessionIdOf(request);
      const codes = await db.transaction(async (tx) => {
        await tx
          .update(staffUsers)
          .set({
            totpSecret: row.totpPendingSecret,
            totpPendingSecret: null,
            totpEnabledAt: now(),
            totpLastStep: step,
          })
          .where(eq(staffUsers.id, staff.id));
        const fresh = await replaceRecoveryCodes(tx, staff.id);
        // A session held back for the required setup is a full session now.
        await clearPending(tx, sessionId, 'two-factor-setup');
        await recordAudit(tx, {
          action: 'two-factor.enable',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `staff:${staff.id}`,
          ip: request.ip,
        });
        await queueNotice(tx, config, {
          userId: staff.id,
          toEmail: staff.email,
          name: staff.name,
          kind: 'two-factor-on',
          at: now(),
        });
        return fresh;
      });
      return { status: 1 as const, message: ACCOUNT_MSG.twoFactorEnabled, data: { recoveryCodes: codes } };
    },
  );

  app.post(
    '/admin/2fa/disable',
    {
      config: { permission: 'session.self' },
      schema: {
        tags: ['auth'],
        summary: 'Turn own two-factor sign-in off (current password and a code)',
        security,
        body: twoFactorDisableBody,
        response: { 200: messageOnly },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const row = await secretsOf(staff.id);
      if (!row.totpSecret) throw badRequest(ACCOUNT_MSG.twoFactorNotOn);
      const settings = await getSecuritySettings(db);
      if (settings.twoFactorRoles.includes(row.role)) throw badRequest(ACCOUNT_MSG.twoFactorRequiredForRole);
      if (!(await verifyPassword(row.passwordHash, request.body.currentPassword))) {
        const hit = await hitThrottle(db, `reauth:${staff.id}`, OTP_LIMIT);
        if (!hit.allowed) throw tooManyRequests(AUTH_MSG.accountThrottled(hit.retryMinutes));
        throw badRequest(AUTH_MSG.currentPasswordWrong);
      }
      await checkCode(staff.id, openSecret(row.totpSecret, config.JWT_SECRET), request.body.code, true);
      await db.transaction(async (tx) => {
        await clearTwoFactor(tx, staff.id);
        await recordAudit(tx, {
          action: 'two-factor.disable',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `staff:${staff.id}`,
          ip: request.ip,
        });
        await queueNotice(tx, config, {
          userId: staff.id,
          toEmail: staff.email,
          name: staff.name,
          kind: 'two-factor-off',
          at: now(),
        });
      });
      return done(ACCOUNT_MSG.twoFactorDisabled);
    },
  );

  app.post(
    '/admin/2fa/reset/:id',
    {
      config: { permission: 'sessions.manageAny' },
      schema: {
        tags: ['auth'],
        summary:
          'Admin: reset another member’s two-factor sign-in with the Admin’s own current password (audited; their sessions end)',
        security,
        params: teamMemberParams,
        body: twoFactorResetBody,
        response: { 200: messageOnly },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const id = request.params.id;
      // A sensitive change to another account: the Admin re-authenticates, throttled and audited.
      const actor = await secretsOf(staff.id);
      const reauthKey = `reauth:${staff.id}`;
      const hit = await hitThrottle(db, reauthKey, OTP_LIMIT);
      if (!hit.allowed) throw tooManyRequests(AUTH_MSG.accountThrottled(hit.retryMinutes));
      if (!(await verifyPassword(actor.passwordHash, request.body.currentPassword))) {
        await recordAudit(db, {
          action: 'two-factor.reset',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `staff:${id}`,
          to: { result: 'refused: wrong current password' },
          ip: request.ip,
        });
        throw badRequest(AUTH_MSG.currentPasswordWrong);
      }
      await refundThrottle(db, reauthKey);
      const [target] = await db
        .select({
          id: staffUsers.id,
          email: staffUsers.email,
          name: staffUsers.name,
          totp: staffUsers.totpSecret,
        })
        .from(staffUsers)
        .where(eq(staffUsers.id, id));
      if (!target) throw notFound(ACCOUNT_MSG.memberNotFound);
      if (!target.totp) throw badRequest(ACCOUNT_MSG.twoFactorNotOn);
      await db.transaction(async (tx) => {
        await clearTwoFactor(tx, id);
        await endUserSessions(tx, id, 'two-factor reset');
        await recordAudit(tx, {
          action: 'two-factor.reset',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `staff:${id}`,
          ip: request.ip,
        });
        await queueNotice(tx, config, {
          userId: id,
          toEmail: target.email,
          name: target.name,
          kind: 'two-factor-reset',
          at: now(),
        });
      });
      return done(ACCOUNT_MSG.twoFactorReset);
    },
  );

  app.get(
    '/admin/security-settings',
    {
      config: { permission: 'settings.security' },
      schema: {
        tags: ['auth'],
        summary: 'Sign-in settings',
        security,
        response: { 200: envelope(securitySettings) },
      },
    },
    async () => ok(await getSecuritySettings(db)),
  );

  app.put(
    '/admin/security-settings',
    {
      config: { permission: 'settings.security' },
      schema: {
        tags: ['auth'],
        summary: 'Change the sign-in settings (two-factor per role, password change after a reset)',
        security,
        body: securitySettings,
        response: { 200: envelope(securitySettings) },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const sessionId = sessionIdOf(request);
      const next = { ...request.body, twoFactorRoles: [...new Set(request.body.twoFactorRoles)] };
      await db.transaction(async (tx) => {
        const before = await getSecuritySettings(tx);
        await saveSecuritySettings(tx, next, staff.id);
        const newlyRequired = next.twoFactorRoles.filter((r) => !before.twoFactorRoles.includes(r));
        await endSessionsWithoutSecondFactor(tx, newlyRequired, sessionId);
        await recordAudit(tx, {
          action: 'settings.update',
          actorId: staff.id,
          actorEmail: staff.email,
          target: 'settings:security',
          from: before,
          to: next,
          ip: request.ip,
        });
      });
      return ok(next, ACCOUNT_MSG.settingsSaved);
    },
  );
};

async function clearTwoFactor(tx: Parameters<typeof replaceRecoveryCodes>[0], userId: number) {
  await tx
    .update(staffUsers)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(eq(staffUsers.id, userId));
  await replaceRecoveryCodes(tx, userId, 0);
}

/**
 * Two-factor sign-in just became required for these roles: every live session of theirs that was not
 * opened with a second factor (no two-factor yet, or opened before it was turned on) ends. The acting
 * Admin's own session, if it is one, is held to the setup instead, as after a sign-in.
 */
async function endSessionsWithoutSecondFactor(tx: DbOrTx, roles: string[], actingSessionId: string) {
  if (!roles.length) return;
  const roleList = sql.join(
    roles.map((r) => sql`${r}`),
    sql`, `,
  );
  const withoutSecondFactor = sql`u.id = s.user_id and s.ended_at is null and u.deleted_at is null
      and u.role in (${roleList})
      and (u.totp_secret is null or u.totp_enabled_at is null or s.created_at <= u.totp_enabled_at)`;
  const { rows } = await tx.execute<{ user_id: number }>(sql`
    update staff_sessions s set ended_at = now(), end_reason = 'two-factor required'
    from staff_users u where ${withoutSecondFactor} and s.id <> ${actingSessionId}
    returning s.user_id`);
  await tx.execute(sql`
    update staff_sessions s set pending = 'two-factor-setup'
    from staff_users u where ${withoutSecondFactor} and s.id = ${actingSessionId} and u.totp_secret is null`);
  for (const userId of new Set(rows.map((r) => Number(r.user_id)))) forgetStaffUser(userId);
}
