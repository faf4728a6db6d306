/** The signed-in user's own account: sessions, two-factor sign-in; and the Admin's sign-in settings. */
import { z } from 'zod';
import { ROLES } from '../constants.js';

export const ACCOUNT_MSG = {
  sessionNotFound: 'Session not found.',
  sessionEnded: 'The session has been ended.',
  twoFactorAlreadyOn: 'Two-factor sign-in is already on.',
  twoFactorNotOn: 'Two-factor sign-in is not on.',
  twoFactorSetupFirst: 'Please start the two-factor setup first.',
  codeWrong: 'The code is not correct. Please try again.',
  codeRequired: 'Please enter the code from your authenticator app.',
  twoFactorEnabled: 'Two-factor sign-in is on. Keep your recovery codes somewhere safe.',
  twoFactorDisabled: 'Two-factor sign-in is off.',
  twoFactorReset: 'Two-factor sign-in of this team member has been reset.',
  settingsSaved: 'Settings saved.',
  memberNotFound: 'Team member not found.',
  twoFactorRequiredForRole: 'Two-factor sign-in is required for your role and cannot be turned off.',
} as const;

/** A session id as the API hands it out (base64url). */
export const sessionIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'is not a session id'),
});

export const staffSessionView = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ip: z.string().nullable(),
  device: z.string().nullable(),
  current: z.boolean(),
});
export type StaffSessionView = z.infer<typeof staffSessionView>;

/** `?userId=` lets an Admin list another member's sessions. */
export const sessionsQuery = z.object({
  userId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** A 6-digit TOTP code or a recovery code (xxxxx-xxxxx), spaces allowed. */
export const otpField = z
  .string({ error: ACCOUNT_MSG.codeRequired })
  .trim()
  .min(1, ACCOUNT_MSG.codeRequired)
  .max(32, ACCOUNT_MSG.codeWrong)
  .regex(/^[0-9A-Za-z -]+$/, ACCOUNT_MSG.codeWrong);

export const twoFactorSetupResponse = z.object({
  status: z.literal(1),
  message: z.string(),
  data: z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() }),
});

export const twoFactorEnableBody = z.object({ code: otpField });
export const twoFactorEnableResponse = z.object({
  status: z.literal(1),
  message: z.string(),
  data: z.object({ recoveryCodes: z.array(z.string()) }),
});

export const twoFactorDisableBody = z.object({
  currentPassword: z.string().min(1, 'Please enter your Current Password.').max(1024),
  code: otpField,
});

/** An Admin resetting another member's two-factor sign-in proves it is them: their own current password. */
export const twoFactorResetBody = z.object({
  currentPassword: z.string().min(1, 'Please enter your Current Password.').max(1024),
});
export type TwoFactorResetBody = z.infer<typeof twoFactorResetBody>;

export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  required: z.boolean(),
  recoveryCodesLeft: z.number(),
});

/** Admin's sign-in settings. */
export const securitySettings = z.object({
  /** Roles whose members must use two-factor sign-in. */
  twoFactorRoles: z.array(z.enum(ROLES)).max(ROLES.length),
  /** A password set by someone else must be changed at its first sign-in. */
  mustChangeSetPasswords: z.boolean(),
});
export type SecuritySettings = z.infer<typeof securitySettings>;
export const DEFAULT_SECURITY_SETTINGS: SecuritySettings = {
  twoFactorRoles: [],
  mustChangeSetPasswords: false,
};
