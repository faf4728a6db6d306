import { z } from 'zod';
import { ROLES } from '../constants.js';
import { MSG } from '../messages.js';
import { AUTH_MSG, MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, NEW_PASSWORD_MIN_LENGTH } from './auth.js';
import { noControlCharacters } from './common.js';
import { memberRouting } from './routing.js';

/** A required text: a missing field and an empty one give the same required-field message. */
const requiredString = (required: string) =>
  z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? required : 'must be text'),
  });

/** Texts of the team area beyond the fixed product wording (decision 012). */
export const TEAM_MSG = {
  passwordMin: `Password must be at least ${NEW_PASSWORD_MIN_LENGTH} characters.`,
  nameTooLong: 'Name must be at most 100 characters.',
  emailTaken: 'A team member with this email already exists.',
  added: 'Team member added successfully.',
  updated: 'Team member updated successfully.',
  notFound: 'Team member not found.',
  adminOnly: 'Only an Admin can create, edit or delete an Admin account.',
  deleteSelf: 'You cannot delete your own account.',
  changeOwnType: 'You cannot change your own type.',
  badId: 'Please choose a valid team member.',
  changedMeanwhile: 'This team member was changed meanwhile. Please reload and try again.',
  ownPasswordHere: 'Change your own password under Change Password.',
  currentPasswordNeeded:
    'Please enter your current password to change the password or e-mail of an Admin or Manager account.',
} as const;

/** Texts of a member's open orders when the member is deleted. */
export const TEAM_MSG_ORDERS = {
  chooseMember: 'Please choose the member who takes over the orders.',
  reassignToSelfOrGone: 'Please choose another active member to take over the orders.',
} as const;

/** A positive integer id given as a number or a digit string (forms send strings); nothing else. */
export const idField = (message: string) =>
  z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const text = typeof value === 'string' ? value.trim() : '';
    const n = typeof value === 'number' ? value : /^[1-9]\d{0,8}$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > 2_147_483_647) {
      ctx.issues.push({ code: 'custom', message, input: value });
      return z.NEVER;
    }
    return n;
  });

const name = noControlCharacters(
  requiredString(MSG.teamNameRequired)
    .trim()
    .min(1, { error: MSG.teamNameRequired, abort: true })
    .max(100, TEAM_MSG.nameTooLong),
);
const email = requiredString(MSG.teamEmailRequired)
  .trim()
  .min(1, { error: MSG.teamEmailRequired, abort: true })
  .max(MAX_EMAIL_LENGTH, AUTH_MSG.emailTooLong)
  .email(MSG.emailInvalid);
const type = z.enum(ROLES, { error: MSG.teamTypeRequired });
const password = requiredString(MSG.teamPasswordRequired)
  .min(1, { error: MSG.teamPasswordRequired, abort: true })
  .min(NEW_PASSWORD_MIN_LENGTH, TEAM_MSG.passwordMin)
  .max(MAX_PASSWORD_LENGTH, AUTH_MSG.passwordTooLong);
/** On edit an empty password keeps the old one. */
const optionalPassword = z
  .string({ error: 'must be text' })
  .max(MAX_PASSWORD_LENGTH, AUTH_MSG.passwordTooLong)
  .refine((p) => p.length === 0 || p.length >= NEW_PASSWORD_MIN_LENGTH, TEAM_MSG.passwordMin)
  .optional();

/** POST /api/admin/add-team-member and the add form. */
export const addTeamMemberBody = z.object({ name, email, password, type });
export type AddTeamMemberBody = z.infer<typeof addTeamMemberBody>;

/** The edit form: like add, but the password may stay empty. */
export const editTeamMemberForm = z.object({ name, email, password: optionalPassword, type });
export type EditTeamMemberForm = z.infer<typeof editTeamMemberForm>;

/**
 * The acting user's own password: needed to change another Admin's or Manager's password or e-mail,
 * and one's own e-mail (re-authentication before a credential changes).
 */
const currentPassword = z
  .string({ error: 'must be text' })
  .max(MAX_PASSWORD_LENGTH, AUTH_MSG.passwordTooLong)
  .optional();

/** The edit form with the acting user's current password (shown only when needed). */
export const editTeamMemberFormWithReauth = editTeamMemberForm.extend({ currentPassword });

/** POST /api/admin/update-team-member. */
export const updateTeamMemberBody = editTeamMemberForm.extend({
  tmId: idField(TEAM_MSG.badId),
  currentPassword,
  // Routing (docs/product.md, "Routing"): each left out keeps its value.
  ...memberRouting.partial().shape,
});
export type UpdateTeamMemberBody = z.infer<typeof updateTeamMemberBody>;

/**
 * Re-authentication before a credential changes: another Admin's or Manager's password or e-mail, and
 * one's own e-mail. (One's own password changes only through change-password.)
 */
export function needsCurrentPassword(
  actorId: number,
  target: { id: number; type: string },
  change: { password: boolean; email: boolean },
): boolean {
  if (target.id === actorId) return change.email;
  return (target.type === 'Admin' || target.type === 'Manager') && (change.password || change.email);
}

/**
 * PUT /api/admin/delete-team-member. A member who holds open orders is deleted only with a choice for
 * them: `release` (back to their queues) or `reassign` to `reassignTo` (another active member).
 */
export const deleteTeamMemberBody = z
  .object({
    teamMemberId: idField(TEAM_MSG.badId),
    openOrders: z.enum(['release', 'reassign'], { error: 'must be release or reassign' }).optional(),
    reassignTo: idField(TEAM_MSG.badId).optional(),
  })
  .refine((b) => b.openOrders !== 'reassign' || b.reassignTo !== undefined, {
    message: TEAM_MSG_ORDERS.chooseMember,
    path: ['reassignTo'],
  });

/** GET /api/admin/team-member-open-orders/:id: how many open orders the member holds. */
export const memberOpenOrders = z.object({ openOrders: z.number().int() });

/** What the Delete dialog says of a member's open orders. */
export function openOrdersText(name: string, n: number): string {
  return `${name} holds ${n} open order${n === 1 ? '' : 's'}. Release them to their queues or reassign them to another member before the account is deleted.`;
}

export const teamMemberParams = z.object({ id: idField(TEAM_MSG.badId) });

/** A team member as every response shows it: `memberRole` is the type, as the list displays it. */
export const teamMember = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  type: z.enum(ROLES),
  memberRole: z.enum(ROLES),
  ...memberRouting.shape,
});
export type TeamMember = z.infer<typeof teamMember>;
