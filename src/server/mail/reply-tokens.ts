import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed names the inbound pipeline recognises (docs/decisions/305): the per-order reply address
 * `reply+<orderId>-<sig>@<INBOUND_REPLY_DOMAIN>` and our own Message-ID `<edc.<mailId>.<sig>@<domain>>`.
 * The signature is an HMAC of the secret, so a forged or altered token names nothing.
 */
const SIG_HEX = 20;

function sign(secret: string, purpose: string, value: number): string {
  return createHmac('sha256', secret).update(`${purpose}:${value}`).digest('hex').slice(0, SIG_HEX);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function replyToken(secret: string, orderId: number): string {
  return `${orderId}-${sign(secret, 'reply', orderId)}`;
}

export function replyAddress(secret: string, domain: string, orderId: number): string {
  return `reply+${replyToken(secret, orderId)}@${domain}`;
}

/** The order a reply address names, or null (not ours, altered, forged). */
export function orderOfReplyAddress(secret: string, domain: string, address: string): number | null {
  const m = /^reply\+(\d{1,15})-([0-9a-f]+)@(.+)$/i.exec(address.trim());
  if (!m || m[3]!.toLowerCase() !== domain.toLowerCase()) return null;
  const orderId = Number(m[1]);
  return sameText(m[2]!.toLowerCase(), sign(secret, 'reply', orderId)) ? orderId : null;
}

/** The Message-ID we give a mail of the outbox (with angle brackets). */
export function ourMessageId(secret: string, domain: string, mailId: number): string {
  return `<edc.${mailId}.${sign(secret, 'message', mailId)}@${domain}>`;
}

/** The outbox row one of our Message-IDs names, or null. */
export function mailOfMessageId(secret: string, messageId: string): number | null {
  const m = /^<?edc\.(\d{1,15})\.([0-9a-f]+)@[^>]+>?$/i.exec(messageId.trim());
  if (!m) return null;
  const mailId = Number(m[1]);
  return sameText(m[2]!.toLowerCase(), sign(secret, 'message', mailId)) ? mailId : null;
}
