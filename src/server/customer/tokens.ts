import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { hmacKey } from '../auth/tokens.js';

/** A tracked customer may read and download for this long before tracking again. */
export const CUSTOMER_TOKEN_TTL_SECONDS = 30 * 60;
/** A signed download URL works once, within this long: enough for the page's 1 s delay and a slow phone. */
export const DOWNLOAD_TOKEN_TTL_SECONDS = 60;

// Distinct audiences: a staff token is never a customer token, and neither is a download token.
const CUSTOMER_AUDIENCE = 'customer';
const DOWNLOAD_AUDIENCE = 'customer-download';
const ISSUER = 'ed-card';

/** The customer token scoped to one order: its subject is the order id. */
export async function signCustomerToken(
  secret: string,
  orderId: number,
  ttlSeconds = CUSTOMER_TOKEN_TTL_SECONDS,
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(CUSTOMER_AUDIENCE)
    .setSubject(String(orderId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(hmacKey(secret));
}

/** The order id the token was issued for, or null for a bad, expired or foreign token. */
export async function verifyCustomerToken(secret: string, token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, hmacKey(secret), {
      algorithms: ['HS256'],
      audience: CUSTOMER_AUDIENCE,
      issuer: ISSUER,
    });
    return orderIdOf(payload.sub);
  } catch {
    return null;
  }
}

export interface DownloadGrant {
  orderId: number;
  documentId: number;
}

/** A verified download grant with its id (jti): download_log keeps it, so each URL delivers once. */
export interface VerifiedDownloadGrant extends DownloadGrant {
  grantId: string;
}

/** The token inside a signed download URL: bound to one order and one document, short-lived. */
export async function signDownloadToken(
  secret: string,
  grant: DownloadGrant,
  ttlSeconds = DOWNLOAD_TOKEN_TTL_SECONDS,
): Promise<string> {
  return new SignJWT({ doc: grant.documentId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(DOWNLOAD_AUDIENCE)
    .setSubject(String(grant.orderId))
    .setJti(randomBytes(9).toString('base64url'))
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(hmacKey(secret));
}

export async function verifyDownloadToken(
  secret: string,
  token: string,
): Promise<VerifiedDownloadGrant | null> {
  try {
    const { payload } = await jwtVerify(token, hmacKey(secret), {
      algorithms: ['HS256'],
      audience: DOWNLOAD_AUDIENCE,
      issuer: ISSUER,
    });
    const orderId = orderIdOf(payload.sub);
    const documentId = payload.doc;
    if (orderId === null || typeof documentId !== 'number' || !Number.isSafeInteger(documentId)) return null;
    if (typeof payload.jti !== 'string' || !/^[\w-]{12,64}$/.test(payload.jti)) return null;
    return { orderId, documentId, grantId: payload.jti };
  } catch {
    return null;
  }
}

function orderIdOf(sub: string | undefined): number | null {
  if (!sub || !/^\d{1,15}$/.test(sub)) return null;
  return Number(sub);
}
