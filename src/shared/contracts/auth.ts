/**
 * Sign-in and password contracts. Written with `zod/mini`: the login screen is part of the staff first
 * load (170 KB gzip budget), and mini keeps the full zod out of it.
 */
import * as z from 'zod/mini';
import { ROLES } from '../constants.js';
import { MSG } from '../messages.js';

/** Passwords are capped so that nobody can make the server hash megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_EMAIL_LENGTH = 254;
/** New passwords: at least 8 characters (existing shorter ones keep working). */
export const NEW_PASSWORD_MIN_LENGTH = 8;

/** Texts of this area beyond the fixed product wording (decision 010). */
export const AUTH_MSG = {
  invalidCredentials: 'Invalid email or password.',
  loginSuccess: 'Login successful.',
  currentPasswordRequired: 'Please enter your Current Password.',
  currentPasswordWrong: 'Your current password is incorrect.',
  newPasswordSame: 'New Password must be different from the current one.',
  passwordChanged: 'Password changed successfully. Please sign in again.',
  loggedOut: 'You have been signed out.',
  passwordMin8: MSG.newPasswordMin,
  passwordBreached: 'This password is among the most common breached passwords. Please choose another one.',
  passwordIsEmail: 'Your password must not be your e-mail address.',
  otpRequired: 'Please enter the code from your authenticator app.',
  otpWrong: 'The code is not correct. Please try again.',
  mustChangePassword: 'Please change your password before you continue.',
  twoFactorSetupRequired: 'Please set up two-factor sign-in before you continue.',
  passwordTooLong: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`,
  emailTooLong: `Email must be at most ${MAX_EMAIL_LENGTH} characters.`,
  accountThrottled: (minutes: number) =>
    `Too many failed sign-in attempts for this account. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;

/** A required text: a missing field and an empty one give the same required-field message. */
const requiredText = (required: string) =>
  z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? required : 'must be text'),
  });

/** POST /api/admin/admin-login: e-mail and password, both required. */
export const loginBody = z.object({
  email: requiredText(MSG.emailRequired).check(
    z.trim(),
    z.minLength(1, { error: MSG.emailRequired, abort: true }),
    z.maxLength(MAX_EMAIL_LENGTH, AUTH_MSG.emailTooLong),
    z.regex(z.regexes.email, MSG.emailInvalid),
  ),
  password: requiredText(MSG.passwordRequired).check(
    z.minLength(1, { error: MSG.passwordRequired, abort: true }),
    z.maxLength(MAX_PASSWORD_LENGTH, AUTH_MSG.passwordTooLong),
  ),
  /** The second step: a 6-digit code of the authenticator app or an unused recovery code. */
  otp: z.optional(
    z.string().check(z.maxLength(32, AUTH_MSG.otpWrong), z.regex(/^[0-9A-Za-z -]*$/, AUTH_MSG.otpWrong)),
  ),
});
export type LoginBody = z.infer<typeof loginBody>;

/** The signed-in user as the API shows it (never a password or hash). */
export const staffUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  type: z.enum(ROLES),
});
export type StaffUser = z.infer<typeof staffUser>;

export const loginResponse = z.union([
  z.object({
    status: z.literal(1),
    message: z.string(),
    jwtToken: z.string(),
    data: z.object({
      name: z.string(),
      type: z.enum(ROLES),
      email: z.string(),
      /** The password was set by someone else: every other call answers 403 until it is changed. */
      mustChangePassword: z.optional(z.boolean()),
      /** The role requires two-factor sign-in and it is not set up: set it up before anything else. */
      twoFactorSetupRequired: z.optional(z.boolean()),
    }),
  }),
  /** Right password, two-factor sign-in on, no code yet: ask for it (no token). */
  z.object({ status: z.literal(0), message: z.string(), data: z.object({ otpRequired: z.literal(true) }) }),
]);
export type LoginResponse = z.infer<typeof loginResponse>;

export const userInfoResponse = z.object({
  status: z.literal(1),
  message: z.string(),
  data: staffUser,
});

/** The new password rule, shared by change-password and the team form. */
export const newPasswordField = requiredText(MSG.newPasswordRequired).check(
  z.minLength(1, { error: MSG.newPasswordRequired, abort: true }),
  // One rule and one message for every short password (decision 323).
  z.minLength(NEW_PASSWORD_MIN_LENGTH, { error: MSG.newPasswordMin, abort: true }),
  z.maxLength(MAX_PASSWORD_LENGTH, AUTH_MSG.passwordTooLong),
);

/** POST /api/admin/change-password; deliberate change: the current password is asked too (decision 012). */
export const changePasswordBody = z.object({
  currentPassword: requiredText(AUTH_MSG.currentPasswordRequired).check(
    z.minLength(1, { error: AUTH_MSG.currentPasswordRequired, abort: true }),
    z.maxLength(MAX_PASSWORD_LENGTH, AUTH_MSG.passwordTooLong),
  ),
  newPassword: newPasswordField,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;
