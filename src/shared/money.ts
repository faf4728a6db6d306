/**
 * Amounts in a currency's minor unit (cents), as payment providers count them. Zero-decimal currencies
 * (Stripe's list) have no minor unit.
 */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

function scale(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 1 : 100;
}

/** A decimal amount ("59.00", 59) in minor units; null when it is not a whole number of them. */
export function toMinor(amount: string | number, currency: string): number | null {
  const n = Number(amount);
  if (!Number.isFinite(n)) return null;
  const minor = Math.round(n * scale(currency));
  return Math.abs(minor - n * scale(currency)) < 1e-6 ? minor : null;
}

/** Minor units as staff read them: "59.00 USD". */
export function formatMinor(minor: number, currency: string): string {
  const s = scale(currency);
  return `${(minor / s).toFixed(s === 1 ? 0 : 2)} ${currency.toUpperCase()}`;
}

/** Minor units as a bare decimal amount, the way orders store it: "20.00" (no currency). */
export function minorToDecimal(minor: number, currency: string): string {
  const s = scale(currency);
  return (minor / s).toFixed(s === 1 ? 0 : 2);
}
