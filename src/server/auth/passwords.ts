import { hash, verify } from '@node-rs/argon2';

/** OWASP ASVS argon2id parameters: 19 MiB memory, 2 iterations, 1 lane. */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** A hash to verify against for unknown e-mails, so both answers take about the same time. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password-used-for-timing-parity');
  return dummy;
}
