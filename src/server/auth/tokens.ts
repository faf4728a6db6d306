import { createSecretKey, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { ROLES, type Role } from '../../shared/constants.js';

/** A shift: staff tokens (and their sessions) live 12 hours at most. */
export const STAFF_TOKEN_TTL = '12h';

export interface StaffTokenClaims {
  user: { id: number; name: string; type: Role };
  /** Token version: a password change or delete bumps the user's version and kills older tokens. */
  tv: number;
  /** The server-side session the token belongs to (staff_sessions.id). */
  sid: string;
}

const keys = new Map<string, KeyObject>();

/**
 * The HMAC key of a secret, imported once: handing jose the raw bytes makes it import the key again on
 * every verification, on the path of every staff request. (A process holds one or two secrets.)
 */
export function hmacKey(secret: string): KeyObject {
  let k = keys.get(secret);
  if (!k) {
    k = createSecretKey(Buffer.from(secret, 'utf8'));
    if (keys.size > 8) keys.clear();
    keys.set(secret, k);
  }
  return k;
}

export async function signStaffToken(secret: string, claims: StaffTokenClaims, ttl = STAFF_TOKEN_TTL) {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setSubject(String(claims.user.id))
    .setAudience('staff')
    .setExpirationTime(ttl)
    .sign(hmacKey(secret));
}

/** The claims of a verified token and when it expires (seconds since the epoch, the `exp` claim). */
export interface VerifiedStaffToken extends StaffTokenClaims {
  exp: number;
}

/**
 * Verifies signature, algorithm (HS256 only), audience and expiry, and that the role is one of ROLES;
 * returns null for any bad token.
 */
export async function verifyStaffToken(secret: string, token: string): Promise<VerifiedStaffToken | null> {
  try {
    const { payload } = await jwtVerify(token, hmacKey(secret), { algorithms: ['HS256'], audience: 'staff' });
    const user = payload.user as StaffTokenClaims['user'] | undefined;
    if (!user || typeof user.id !== 'number' || typeof payload.tv !== 'number') return null;
    if (!ROLES.includes(user.type)) return null;
    if (typeof payload.sid !== 'string' || payload.sid.length === 0 || payload.sid.length > 64) return null;
    if (typeof payload.exp !== 'number') return null;
    return { user, tv: payload.tv, sid: payload.sid, exp: payload.exp };
  } catch {
    return null;
  }
}

/** `Authorization` carries the raw token, as existing clients send it; `Bearer <token>` is accepted too. */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim();
  const token = value.toLowerCase().startsWith('bearer ') ? value.slice(7).trim() : value;
  return token.length > 0 && token.length < 4096 ? token : null;
}
