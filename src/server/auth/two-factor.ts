import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, or, lt, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { DbOrTx } from '../db/client.js';
import { staffRecoveryCodes, staffUsers } from '../db/schema.js';
import { now } from './clock.js';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s. */
const PERIOD = 30;
const ISSUER = 'ED-Card';
export const RECOVERY_CODE_COUNT = 10;

function totpOf(secretBase32: string, label = 'staff'): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUrl(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

/** The time step of a valid code (one step either side for clock drift), or null. */
export function totpStep(secretBase32: string, code: string, at = now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = at.getTime();
  const delta = totpOf(secretBase32).validate({ token, timestamp, window: 1 });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / PERIOD) + delta;
}

/** The current code of a secret (tests, with the injected clock). */
export function totpCode(secretBase32: string, at = now()): string {
  return totpOf(secretBase32).generate({ timestamp: at.getTime() });
}

/**
 * Accepts a step once: the row moves to this step only if it was below it, so a code (or an older one)
 * replayed in its window fails, even by two requests at the same instant.
 */
export async function claimTotpStep(db: DbOrTx, userId: number, step: number): Promise<boolean> {
  const rows = await db
    .update(staffUsers)
    .set({ totpLastStep: step })
    .where(
      and(eq(staffUsers.id, userId), or(isNull(staffUsers.totpLastStep), lt(staffUsers.totpLastStep, step))),
    )
    .returning({ id: staffUsers.id });
  return rows.length > 0;
}

const hashCode = (code: string) =>
  createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');

/** Ten fresh recovery codes (xxxxx-xxxxx); the old ones die. Only their hashes are kept. */
export async function replaceRecoveryCodes(
  db: DbOrTx,
  userId: number,
  count = RECOVERY_CODE_COUNT,
): Promise<string[]> {
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  if (count === 0) return [];
  const codes = Array.from({ length: count }, () => {
    const raw = randomBytes(8).toString('hex').slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await db.insert(staffRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashCode(c) })));
  return codes;
}

/** Uses an unused recovery code (atomically: a code works once). */
export async function redeemRecoveryCode(db: DbOrTx, userId: number, code: string): Promise<boolean> {
  if (!/^[0-9a-f]{5}-?[0-9a-f]{5}$/i.test(code.trim())) return false;
  const rows = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now() })
    .where(
      and(
        eq(staffRecoveryCodes.userId, userId),
        eq(staffRecoveryCodes.codeHash, hashCode(code.trim())),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
  return Number(row?.n ?? 0);
}

/**
 * TOTP secrets are stored encrypted (AES-256-GCM, key derived from JWT_SECRET), so a database dump
 * alone does not give the second factor away.
 */
function keyOf(jwtSecret: string): Buffer {
  return createHash('sha256').update(`totp-secret-key:${jwtSecret}`).digest();
}

export function sealSecret(secretBase32: string, jwtSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(jwtSecret), iv);
  const data = Buffer.concat([cipher.update(secretBase32, 'utf8'), cipher.final()]);
  return `v1.${iv.toString('base64url')}.${data.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
}

export function openSecret(sealed: string, jwtSecret: string): string | null {
  const [v, iv, data, tag] = sealed.split('.');
  if (v !== 'v1' || !iv || !data || !tag) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(jwtSecret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}
