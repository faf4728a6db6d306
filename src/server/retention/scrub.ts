import { ERASED_FIELDS } from '../../shared/contracts/retention.js';

/** How an erasure rewrites personal values inside text and JSON it keeps (flows/erase-order.ts). */

export const ERASURE_TEXT = `Personal data erased: ${ERASED_FIELDS.join(', ')}`;

/** The address an erased order keeps (the column cannot be empty); such an order is tracked by no one. */
export const erasedEmailOf = (orderId: number) => `erased-${orderId}@erased.invalid`;
export const ERASED = '[erased]';

export const escapeRegExp = (v: string) => v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A text with every erased value in it replaced (case-insensitive, longest value first); e-mail addresses
 * become the order's placeholder address, other values `[erased]`.
 */
export function scrubText(text: string, values: readonly string[], erasedEmail: string): string {
  let out = text;
  for (const v of values) {
    if (!out.toLowerCase().includes(v.toLowerCase())) continue;
    // Whole words only: a first name "Ed" never eats into "Completed".
    const whole = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(v)}(?![\\p{L}\\p{N}])`, 'giu');
    out = out.replace(whole, v.includes('@') ? erasedEmail : ERASED);
  }
  return out;
}

/** The same for every string inside a JSON value (the audit log's from/to values). */
export function scrubJson(value: unknown, values: readonly string[], erasedEmail: string): unknown {
  if (typeof value === 'string') return scrubText(value, values, erasedEmail);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, values, erasedEmail));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubJson(v, values, erasedEmail)]));
  }
  return value;
}

/** Audit actions about an order whose every value goes whole on erasure (what was typed about the customer). */
export const WHOLE_TEXT_ACTIONS = new Set(['order.correct', 'order.payment-reference']);

/** Keys of audit values that hold words someone wrote (reasons, notes), not facts. */
export const FREE_TEXT_KEYS =
  /^(reason|forceReason|remark|note|text|body|message|comment|subject|fileName|name)$/i;

/**
 * An audit value about an erased order: free text (FREE_TEXT_KEYS, or every value of a correction)
 * becomes `[erased]`, other strings lose the order's values.
 */
export function redactFreeText(
  value: unknown,
  all: boolean,
  values: readonly string[],
  erasedEmail: string,
): unknown {
  const walk = (v: unknown, key: string | null): unknown => {
    if (typeof v === 'string')
      return v !== '' && (all || (key !== null && FREE_TEXT_KEYS.test(key)))
        ? ERASED
        : scrubText(v, values, erasedEmail);
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(value, null);
}

/** Distinct non-trivial values, longest first (so "Maria Lopez" goes before "Maria"). */
export function distinctValues(values: readonly (string | null | undefined)[], min: number): string[] {
  const set = new Set<string>();
  for (const v of values) {
    const trimmed = v?.trim();
    if (trimmed && trimmed.length >= min) set.add(trimmed);
  }
  return [...set].sort((a, b) => b.length - a.length);
}
