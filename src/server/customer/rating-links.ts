import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed links of the "How did we do?" mail: one signature per order (HMAC of the order id with the
 * server's secret), so a link rates only its own order and works without the customer token. The score
 * travels beside it (any of 1–5 may be chosen, a later answer replaces the earlier).
 */
export function ratingSignature(secret: string, orderId: number): string {
  return createHmac('sha256', secret).update(`rating:${orderId}`).digest('base64url').slice(0, 32);
}

export function validRatingSignature(secret: string, orderId: number, signature: string): boolean {
  const expected = Buffer.from(ratingSignature(secret, orderId));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The page a score link opens: it records the score and offers the comment. */
export function ratingLink(siteUrl: string, secret: string, orderId: number, score: number): string {
  const base = siteUrl.replace(/\/+$/, '');
  return `${base}/rate-order/${orderId}?score=${score}&sig=${ratingSignature(secret, orderId)}`;
}
