import { AUTH_MSG, NEW_PASSWORD_MIN_LENGTH } from '../../shared/contracts/auth.js';

let common: Promise<Set<string>> | undefined;

/** The ~49,000 most common passwords of public breaches, shipped offline with @zxcvbn-ts/language-common. */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    (m) => new Set((m.dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase())),
  );
  return common;
}

/**
 * The rules for a NEW password (existing ones keep working): long enough, not among the common breached
 * passwords, not the account's e-mail. Answers the message to show, or null when it is acceptable.
 */
export async function newPasswordProblem(password: string, email: string): Promise<string | null> {
  if (password.length < NEW_PASSWORD_MIN_LENGTH) return AUTH_MSG.passwordMin8;
  const lower = password.trim().toLowerCase();
  const mail = email.trim().toLowerCase();
  if (lower === mail || lower === mail.split('@')[0]) return AUTH_MSG.passwordIsEmail;
  if ((await commonPasswords()).has(lower)) return AUTH_MSG.passwordBreached;
  return null;
}
