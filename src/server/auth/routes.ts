import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MSG,
  changePasswordBody,
  loginBody,
  loginResponse,
  userInfoResponse,
} from '../../shared/contracts/auth.js';
import { messageOnly } from '../../shared/contracts/common.js';
import { recordAudit } from '../audit/audit.js';
import { staffUsers } from '../db/schema.js';
import { done } from '../http/envelope.js';
import { badRequest, tooManyRequests, unauthorized } from '../http/errors.js';
import { now } from './clock.js';
import { sessionIdOf, staffOf } from './guard.js';
import { queueNotice } from './notices.js';
import { newPasswordProblem } from './password-policy.js';
import { getSecuritySettings } from './settings.js';
import { claimTotpStep, openSecret, totpStep, redeemRecoveryCode } from './two-factor.js';
import { dummyHash, hashPassword, verifyPassword } from './passwords.js';
import { createSession, deviceLabel, endSession, endUserSessions, knownDevice } from './sessions.js';
import { hitThrottle, refundThrottle, resetThrottle } from './throttle.js';
import { signStaffToken } from './tokens.js';

/** Per account + client address: this many password checks per window, then 429 until it passes. */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURE_WINDOW_MINUTES = 15;
/** Per account from all addresses together: a slower ceiling against guessing from many addresses. */
export const LOGIN_ACCOUNT_LIMIT = 100;
export const LOGIN_ACCOUNT_WINDOW_MINUTES = 60;
/** Per-IP throttle of the login route (an office behind one NAT still fits comfortably). */
export const LOGIN_IP_LIMIT = { max: 60, timeWindow: '1 minute' } as const;

const accountIpKey = (email: string, ip: string) => `login:${email}|${ip}`;
const accountKey = (email: string) => `login:${email}`;
/**
 * Wrong second-factor codes at sign-in, like passwords: 10 per 15 minutes per account + address, and a
 * slower ceiling per account over all addresses, so someone holding the password cannot lock the
 * owner out from everywhere.
 */
const OTP_LIMIT = { limit: 10, windowMinutes: 15 } as const;
const OTP_ACCOUNT_LIMIT = {
  limit: LOGIN_ACCOUNT_LIMIT,
  windowMinutes: LOGIN_ACCOUNT_WINDOW_MINUTES,
} as const;
const otpIpKey = (userId: number, ip: string) => `otp:${userId}|${ip}`;
const otpAccountKey = (userId: number) => `otp:${userId}`;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  // Hash the dummy once at start, so the first unknown-e-mail login is not slower than the others.
  app.addHook('onReady', async () => {
    await dummyHash();
  });

  app.post(
    '/admin/admin-login',
    {
      config: { public: true, rateLimit: LOGIN_IP_LIMIT },
      schema: {
        tags: ['auth'],
        summary: 'Staff sign-in: a JWT for the Authorization header',
        body: loginBody,
        response: { 200: loginResponse, 401: messageOnly, 429: messageOnly },
      },
    },
    async (request) => {
      const email = request.body.email.toLowerCase();
      const ip = request.ip;
      // Counted before any hash is checked: a burst of parallel attempts gets at most the limit of checks.
      for (const [key, rule] of [
        [
          accountIpKey(email, ip),
          { limit: LOGIN_FAILURE_LIMIT, windowMinutes: LOGIN_FAILURE_WINDOW_MINUTES },
        ],
        [accountKey(email), { limit: LOGIN_ACCOUNT_LIMIT, windowMinutes: LOGIN_ACCOUNT_WINDOW_MINUTES }],
      ] as const) {
        const hit = await hitThrottle(db, key, rule);
        if (!hit.allowed) {
          await recordAudit(db, { action: 'login.throttled', actorEmail: email, ip });
          throw tooManyRequests(AUTH_MSG.accountThrottled(hit.retryMinutes));
        }
      }
      const [user] = await db
        .select({
          id: staffUsers.id,
          name: staffUsers.name,
          email: staffUsers.email,
          role: staffUsers.role,
          passwordHash: staffUsers.passwordHash,
          tokenVersion: staffUsers.tokenVersion,
          mustChangePassword: staffUsers.mustChangePassword,
          totpSecret: staffUsers.totpSecret,
        })
        .from(staffUsers)
        .where(and(sql`lower(${staffUsers.email}) = ${email}`, isNull(staffUsers.deletedAt)))
        .limit(1);
      // Unknown e-mails verify against a dummy hash: same answer, about the same time.
      const passwordOk = await verifyPassword(
        user?.passwordHash ?? (await dummyHash()),
        request.body.password,
      );
      if (!user || !passwordOk) {
        await recordAudit(db, { action: 'login.failure', actorId: user?.id ?? null, actorEmail: email, ip });
        throw unauthorized(AUTH_MSG.invalidCredentials);
      }
      // The owner proved the password from this address: its slate is clean; the account-wide
      // counter only gives this one check back.
      await resetThrottle(db, accountIpKey(email, ip));
      await refundThrottle(db, accountKey(email));

      // Second step: with two-factor sign-in on, no token without a right code.
      const secret = user.totpSecret ? openSecret(user.totpSecret, config.JWT_SECRET) : null;
      if (user.totpSecret) {
        const otp = request.body.otp?.trim();
        if (!otp) {
          return { status: 0 as const, message: AUTH_MSG.otpRequired, data: { otpRequired: true as const } };
        }
        for (const [key, rule] of [
          [otpIpKey(user.id, ip), OTP_LIMIT],
          [otpAccountKey(user.id), OTP_ACCOUNT_LIMIT],
        ] as const) {
          const hit = await hitThrottle(db, key, rule);
          if (!hit.allowed) {
            await recordAudit(db, { action: 'login.throttled', actorId: user.id, actorEmail: email, ip });
            throw tooManyRequests(AUTH_MSG.accountThrottled(hit.retryMinutes));
          }
        }
        const step = secret ? totpStep(secret, otp) : null;
        const accepted =
          step !== null ? await claimTotpStep(db, user.id, step) : await redeemRecoveryCode(db, user.id, otp);
        if (!accepted) {
          await recordAudit(db, {
            action: 'login.failure',
            actorId: user.id,
            actorEmail: email,
            to: { reason: 'second factor' },
            ip,
          });
          throw unauthorized(AUTH_MSG.otpWrong);
        }
        await resetThrottle(db, otpIpKey(user.id, ip));
        await refundThrottle(db, otpAccountKey(user.id));
      }

      const settings = await getSecuritySettings(db);
      const setupRequired = !user.totpSecret && settings.twoFactorRoles.includes(user.role);
      const pending = user.mustChangePassword ? 'password' : setupRequired ? 'two-factor-setup' : null;
      const userAgent = request.headers['user-agent'] ?? null;
      const session = await db.transaction(async (tx) => {
        const newDevice = !(await knownDevice(tx, user.id, userAgent));
        const created = await createSession(tx, { userId: user.id, ip, userAgent, pending });
        await recordAudit(tx, {
          action: 'login.success',
          actorId: user.id,
          actorEmail: email,
          target: `session:${created.id}`,
          to: pending ? { pending } : null,
          ip,
        });
        if (newDevice) {
          await queueNotice(tx, config, {
            userId: user.id,
            toEmail: user.email,
            name: user.name,
            kind: 'new-device',
            device: deviceLabel(userAgent),
            ip,
            at: now(),
          });
        }
        return created;
      });
      const jwtToken = await signStaffToken(config.JWT_SECRET, {
        user: { id: user.id, name: user.name, type: user.role },
        tv: user.tokenVersion,
        sid: session.id,
      });
      return {
        status: 1 as const,
        message: AUTH_MSG.loginSuccess,
        jwtToken,
        data: {
          name: user.name,
          type: user.role,
          email: user.email,
          ...(pending === 'password' ? { mustChangePassword: true } : {}),
          ...(pending === 'two-factor-setup' ? { twoFactorSetupRequired: true } : {}),
        },
      };
    },
  );

  app.post(
    '/admin/logout',
    {
      config: { permission: 'session.self', allowPending: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign out: ends the session of this token on the server',
        security: [{ staffToken: [] }],
        response: { 200: messageOnly },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const sessionId = sessionIdOf(request);
      await db.transaction(async (tx) => {
        await endSession(tx, sessionId, 'logout');
        await recordAudit(tx, {
          action: 'logout',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `session:${sessionId}`,
          ip: request.ip,
        });
      });
      return done(AUTH_MSG.loggedOut);
    },
  );

  app.get(
    '/user_info',
    {
      config: { permission: 'session.self', allowPending: true },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in staff member',
        security: [{ staffToken: [] }],
        response: { 200: userInfoResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      return {
        status: 1 as const,
        message: 'Success',
        data: { id: staff.id, name: staff.name, email: staff.email, type: staff.type },
      };
    },
  );

  app.post(
    '/admin/change-password',
    {
      config: {
        permission: 'session.self',
        allowPending: true,
        // Guessing the current password with a stolen token is throttled per account.
        rateLimit: {
          max: 10,
          timeWindow: '15 minutes',
          keyGenerator: (req) => `pw:${req.staff?.id ?? req.ip}`,
        },
      },
      schema: {
        tags: ['auth'],
        summary: 'Change own password; every token of the user dies',
        security: [{ staffToken: [] }],
        body: changePasswordBody,
        response: { 200: messageOnly },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const { currentPassword, newPassword } = request.body;
      const [row] = await db
        .select({ passwordHash: staffUsers.passwordHash })
        .from(staffUsers)
        .where(and(eq(staffUsers.id, staff.id), isNull(staffUsers.deletedAt)));
      if (!row) throw unauthorized();
      if (!(await verifyPassword(row.passwordHash, currentPassword))) {
        await recordAudit(db, {
          action: 'password.change',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `staff:${staff.id}`,
          to: { result: 'refused: wrong current password' },
          ip: request.ip,
        });
        throw badRequest(AUTH_MSG.currentPasswordWrong);
      }
      if (newPassword === currentPassword) throw badRequest(AUTH_MSG.newPasswordSame);
      const problem = await newPasswordProblem(newPassword, staff.email);
      if (problem) throw badRequest(problem);
      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        await tx
          .update(staffUsers)
          .set({
            passwordHash,
            mustChangePassword: false,
            tokenVersion: sql`${staffUsers.tokenVersion} + 1`,
            updatedAt: new Date(),
          })
          .where(eq(staffUsers.id, staff.id));
        await endUserSessions(tx, staff.id, 'password changed');
        await queueNotice(tx, config, {
          userId: staff.id,
          toEmail: staff.email,
          name: staff.name,
          kind: 'password-changed',
          at: now(),
        });
        await recordAudit(tx, {
          action: 'password.change',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `staff:${staff.id}`,
          to: { result: 'changed', tokensRevoked: true },
          ip: request.ip,
        });
      });
      return done(AUTH_MSG.passwordChanged);
    },
  );
};
