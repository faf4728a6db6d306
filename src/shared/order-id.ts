/**
 * The URL form of an order id (docs/product.md, "Orders"): the numeric id doubled, base64 without padding.
 * Obfuscation only — never a permission: every request still checks the role.
 */
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function toBase64(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 3) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    const n = (a << 16) | ((b || 0) << 8) | (c || 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    if (i + 1 < text.length) out += B64[(n >> 6) & 63]!;
    if (i + 2 < text.length) out += B64[n & 63]!;
  }
  return out;
}

function fromBase64(encoded: string): string | null {
  if (!/^[A-Za-z0-9+/]*$/.test(encoded) || encoded.length % 4 === 1) return null;
  let out = '';
  for (let i = 0; i < encoded.length; i += 4) {
    const chunk = encoded.slice(i, i + 4);
    const n = [...chunk].reduce((acc, ch, j) => acc | (B64.indexOf(ch) << (18 - 6 * j)), 0);
    out += String.fromCharCode((n >> 16) & 255);
    if (chunk.length > 2) out += String.fromCharCode((n >> 8) & 255);
    if (chunk.length > 3) out += String.fromCharCode(n & 255);
  }
  return out;
}

export function encodeOrderId(orderId: number | string): string {
  return toBase64(String(Number(orderId) * 2));
}

/** Returns the numeric order id, or null when the text is not a valid encoded id. */
export function decodeOrderId(encoded: string): number | null {
  const text = fromBase64(encoded);
  if (text === null || !/^\d+$/.test(text)) return null;
  const doubled = Number(text);
  if (!Number.isSafeInteger(doubled) || doubled % 2 !== 0 || doubled === 0) return null;
  return doubled / 2;
}
