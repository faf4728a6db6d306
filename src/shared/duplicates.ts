import { normalisePassport } from './order-checks.js';

/**
 * The two rules of a possible duplicate order (docs/product.md, "Order checks, duplicates and corrections"), as pure functions: the
 * server reads the candidates through indexes (the same passport key, the same e-mail) and keeps the
 * ones these accept; the tests check that against every pair of a generated set.
 */

export type { DuplicateDecision } from './check-codes.js';

/** Which rule matched: the same passport, or the same e-mail and traveller. */
export type DuplicateRule = 'passport' | 'email';

export interface DuplicateSubject {
  order_id: number;
  email: string;
  passport_number: string | null;
  nationality: string | null;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  arrival_date: string | null;
  departure_date: string | null;
}

/** A name without accents, case or repeated spaces ("José  Pérez" -> "jose perez"). */
export function normaliseName(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Whether two strings are at most one insertion, deletion or substitution apart. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < s.length && s[i] === l[i]) i++;
  // Substitution: the rest after the difference is equal; insertion: the longer skips one character.
  return s.length === l.length ? s.slice(i + 1) === l.slice(i + 1) : s.slice(i) === l.slice(i + 1);
}

const DAY = 86_400_000;
const dayOf = (d: string | null) => (d ? Date.parse(`${d}T00:00:00Z`) / DAY : null);

/** The trip as a day range: arrival to departure (the arrival day alone without a departure). */
function tripOf(o: DuplicateSubject): [number, number] | null {
  const from = dayOf(o.arrival_date);
  const to = dayOf(o.departure_date);
  if (from === null) return to === null ? null : [to, to];
  return [from, to === null || to < from ? from : to];
}

/** Overlapping or adjacent (one ends the day before the other starts). */
function tripsTouch(a: DuplicateSubject, b: DuplicateSubject): boolean {
  const x = tripOf(a);
  const y = tripOf(b);
  return !!x && !!y && x[0] <= y[1] + 1 && y[0] <= x[1] + 1;
}

export const nationalityKey = (v: string | null) => (v ?? '').trim().toLowerCase();
export const emailKey = (v: string) => v.trim().toLowerCase();

/** The rule under which `b` is a possible duplicate of `a` (never of itself), or null. */
export function duplicateRule(a: DuplicateSubject, b: DuplicateSubject): DuplicateRule | null {
  if (a.order_id === b.order_id) return null;
  const passport = normalisePassport(a.passport_number);
  if (
    passport !== '' &&
    passport === normalisePassport(b.passport_number) &&
    nationalityKey(a.nationality) === nationalityKey(b.nationality) &&
    tripsTouch(a, b)
  ) {
    return 'passport';
  }
  if (emailKey(a.email) === emailKey(b.email)) {
    const na = normaliseName(`${a.first_name} ${a.last_name}`);
    const nb = normaliseName(`${b.first_name} ${b.last_name}`);
    const da = dayOf(a.date_of_birth);
    const db = dayOf(b.date_of_birth);
    if (withinOneEdit(na, nb) && da !== null && db !== null && Math.abs(da - db) <= 30) return 'email';
  }
  return null;
}

/** The fields that hold the same value on both orders (highlighted side by side). */
export function matchingFields(a: DuplicateSubject, b: DuplicateSubject): string[] {
  const out: string[] = [];
  if (emailKey(a.email) === emailKey(b.email)) out.push('email');
  const pa = normalisePassport(a.passport_number);
  if (pa && pa === normalisePassport(b.passport_number)) out.push('passport_number');
  if (nationalityKey(a.nationality) && nationalityKey(a.nationality) === nationalityKey(b.nationality))
    out.push('nationality');
  if (normaliseName(a.first_name) === normaliseName(b.first_name)) out.push('first_name');
  if (normaliseName(a.last_name) === normaliseName(b.last_name)) out.push('last_name');
  for (const f of ['date_of_birth', 'arrival_date', 'departure_date'] as const) {
    if (a[f] && a[f] === b[f]) out.push(f);
  }
  return out;
}
