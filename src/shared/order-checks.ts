import emailSpellChecker from '@zootools/email-spell-checker';
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { isPossiblePhoneNumber } from 'libphonenumber-js/min';

import type { CheckCode, CheckSeverity } from './check-codes.js';

countries.registerLocale(en);

/**
 * The data checks of an order (docs/product.md, "Order checks"): pure functions over the order's fields
 * (snake_case, as the intake and the detail carry them), shared by the server (stored with the order,
 * answered by the checks route) and the screens. A check names its code, how bad it is and the fields it
 * concerns; its text lives in the message catalogs under `check.<code>` (see checkMessageKey).
 */

export { ATTENTION_STATUSES } from './check-codes.js';
export type { CheckCode, CheckFlag, CheckSeverity } from './check-codes.js';

export interface OrderCheck {
  code: CheckCode;
  severity: CheckSeverity;
  /** The order fields (snake_case) the problem concerns. */
  fields: string[];
  /** Values of the message (dates, the suggested address). */
  params?: Record<string, string>;
}

/** The fields the checks read; every one optional, as stored orders may lack them. */
export interface CheckedOrder {
  email?: string | null;
  re_enter_email?: string | null;
  arrival_date?: string | null;
  departure_date?: string | null;
  passport_number?: string | null;
  passport_expiration?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  nationality?: string | null;
  date_of_birth?: string | null;
  country_of_birth?: string | null;
  country_of_departure?: string | null;
  country_of_residence?: string | null;
  travel_mode?: string | null;
  flight_number?: string | null;
  phone_code?: string | null;
  telephone_number?: string | null;
}

export interface CheckOptions {
  /** Today's date (YYYY-MM-DD) in the service time zone (serviceToday()). */
  today: string;
  /** Days the passport must stay valid after the departure date (0: valid through the departure day). */
  minPassportValidityDays?: number;
  /** Whether the order is still being worked (an arrival in the past matters only then). */
  open?: boolean;
  /** Flags raised on the order (CHECK_FLAGS). */
  flags?: readonly string[];
}

/** The catalog key of a check's message. */
export function checkMessageKey(code: CheckCode): `check.${CheckCode}` {
  return `check.${code}`;
}

const SEVERITY_RANK: Record<CheckSeverity, number> = { block: 2, warn: 1, info: 0 };

/**
 * Checks that never put an order in Needs attention: a passed trip has its own tile and filter
 * (decision 391), so an order whose only warning is its past arrival is not a to-do.
 */
export const LEVEL_EXEMPT_CHECKS: readonly CheckCode[] = ['arrival_past'];

/** 2 with a blocking check, 1 with a warning, 0 otherwise: what the order stores for its lists. */
export function checkLevel(checks: readonly Pick<OrderCheck, 'severity' | 'code'>[]): number {
  return checks.reduce(
    (level, c) => (LEVEL_EXEMPT_CHECKS.includes(c.code) ? level : Math.max(level, SEVERITY_RANK[c.severity])),
    0,
  );
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a calendar date (YYYY-MM-DD); null when it is not one. */
function dayNumber(date: string | null | undefined): number | null {
  const m = date ? DATE.exec(date) : null;
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const back = new Date(ms);
  // 2026-02-30 is not a date: Date.UTC would roll it over to March.
  if (back.getUTCDate() !== Number(m[3]) || back.getUTCMonth() !== Number(m[2]) - 1) return null;
  return ms / 86_400_000;
}

function isoOf(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Whole years from `birth` to `on` (both YYYY-MM-DD). Someone born on 29 February turns a year older on
 * 1 March in common years.
 */
export function ageOn(birth: string, on: string): number | null {
  if (dayNumber(birth) === null || dayNumber(on) === null) return null;
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** Common short names the intake forms use that the ISO tables do not list (upper case). */
const COUNTRY_ALIASES = new Set(['UK', 'USA', 'UAE', 'GREAT BRITAIN', 'ENGLAND', 'SCOTLAND', 'WALES']);

/** Whether a country field names a country: an ISO name (English), an alpha-2 or alpha-3 code, or an alias. */
export function isKnownCountry(value: string): boolean {
  const v = value.trim();
  if (!v) return false;
  if (COUNTRY_ALIASES.has(v.toUpperCase())) return true;
  if (/^[A-Za-z]{2,3}$/.test(v) && countries.isValid(v.toUpperCase())) return true;
  return countries.getAlpha2Code(v, 'en') !== undefined;
}

/** The alpha-2 code of a country field, when it names one. */
export function alpha2Of(value: string | null | undefined): string | undefined {
  const v = value?.trim().toUpperCase() ?? '';
  if (!v) return undefined;
  if (v === 'UK' || v === 'GREAT BRITAIN' || v === 'ENGLAND') return 'GB';
  if (v === 'USA') return 'US';
  if (/^[A-Z]{2}$/.test(v) && countries.isValid(v)) return v;
  if (/^[A-Z]{3}$/.test(v) && countries.isValid(v)) return countries.alpha3ToAlpha2(v);
  return countries.getAlpha2Code(value!.trim(), 'en');
}

/** A passport number as the duplicate rules compare it: letters and digits only, upper case. */
export function normalisePassport(value: string | null | undefined): string {
  return (value ?? '').replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/**
 * Passport number formats where the issuing country's is known (ICAO 9303 allows up to 9 characters in
 * the machine-readable zone; several countries publish their own).
 */
const PASSPORT_FORMATS: Record<string, RegExp> = {
  US: /^(?:\d{9}|[A-Z]\d{8})$/,
  CA: /^[A-Z]{2}\d{6}$/,
  GB: /^(?:\d{9}|[A-Z]{2}\d{7})$/,
  NL: /^[A-NP-Z]{2}[A-NP-Z0-9]{6}\d$/,
  DE: /^[CFGHJKLMNPRTVWXYZ0-9]{9}$/,
  FR: /^\d{2}[A-Z]{2}\d{5}$/,
  IN: /^[A-Z]\d{7}$/,
  BR: /^[A-Z]{2}\d{6}$/,
  CO: /^[A-Z]{2}\d{6,7}$|^\d{8,10}$/,
  VE: /^\d{9}$/,
};
/**
 * A passport number of the nationality's format made from a letter and eight digits (demo and test data;
 * the number `A12345678` itself fits every other country).
 */
export function passportOfFormat(
  nationality: string | null | undefined,
  letter: string,
  digits: string,
): string {
  const passportLetter = letter.toUpperCase() === 'O' ? 'P' : letter.toUpperCase();
  const eightDigits = digits.padStart(8, '0').slice(-8);
  switch (alpha2Of(nationality)) {
    case 'CA':
    case 'BR':
    case 'CO':
      return `${passportLetter}${passportLetter}${eightDigits.slice(0, 6)}`;
    case 'GB':
    case 'VE':
      return `${eightDigits}${eightDigits[0]}`;
    case 'NL':
      return `${passportLetter}X${eightDigits.slice(0, 6)}${eightDigits[7]}`;
    case 'DE':
      return `C${eightDigits}`;
    case 'FR':
      return `${eightDigits.slice(0, 2)}${passportLetter}${passportLetter}${eightDigits.slice(2, 7)}`;
    case 'IN':
      return `${passportLetter}${eightDigits.slice(0, 7)}`;
    default:
      return `${passportLetter}${eightDigits}`;
  }
}

/** Any other country: letters and digits, 5 to 12 of them after spaces and dashes are taken out. */
const PASSPORT_ANY = /^[A-Z0-9]{5,12}$/;

/** An IATA airline code (two characters, not both digits) or an ICAO one (three letters), then 1–4 digits. */
const FLIGHT_NUMBER = /^(?:[A-Z]{2}|[A-Z]\d|\d[A-Z]|[A-Z]{3})[ -]?\d{1,4}[A-Z]?$/i;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
const NAME_BAD = /[\d\u0000-\u001f\u007f-\u009f]/;

/** An address as two fields are compared: spaces around it and letter case do not count. */
const comparableEmail = (v: string | null | undefined) => (v ?? '').trim().toLowerCase();

/** Mail providers and country domains of this service's travellers, beside the library's own lists. */
const DOMAINS = [
  ...emailSpellChecker.POPULAR_DOMAINS,
  ...['yahoo.com.br', 'hotmail.com.br', 'uol.com.br', 'bol.com.br', 'terra.com.br', 'ig.com.br'],
  ...['ziggo.nl', 'kpnmail.nl', 'hotmail.nl', 'live.nl', 'planet.nl', 'xs4all.nl', 'home.nl'],
  ...['setarnet.aw', 'hotmail.es', 'yahoo.es', 'gmail.co', 'hotmail.co.uk', 'yahoo.co.uk'],
];
const TLDS = [
  ...emailSpellChecker.POPULAR_TLDS,
  ...['aw', 'cw', 'sx', 'nl', 'com.br', 'com.co', 'com.ve', 'com.ar', 'com.mx', 'es', 'pt', 'ca'],
];

/** The suggested address for a likely mistyped e-mail domain (gmial.com -> gmail.com), if any. */
export function emailSuggestion(email: string | null | undefined): string | null {
  const e = (email ?? '').trim();
  if (!e.includes('@')) return null;
  const found = emailSpellChecker.run({ email: e, domains: DOMAINS, topLevelDomains: TLDS });
  return found && found.full.toLowerCase() !== e.toLowerCase() ? found.full : null;
}

/** Every check that fails for the order, blocking ones first. */
export function runOrderChecks(order: CheckedOrder, options: CheckOptions): OrderCheck[] {
  const out: OrderCheck[] = [];
  const add = (code: CheckCode, severity: CheckSeverity, fields: string[], params?: Record<string, string>) =>
    out.push(params ? { code, severity, fields, params } : { code, severity, fields });
  const today = dayNumber(options.today);
  const arrival = dayNumber(order.arrival_date);
  const departure = dayNumber(order.departure_date);
  const expiry = dayNumber(order.passport_expiration);
  const birth = dayNumber(order.date_of_birth);
  // The trip ends on the departure date; without one, on the arrival date.
  const tripEnd = departure ?? arrival;
  const tripEndField = departure !== null ? 'departure_date' : 'arrival_date';

  if (expiry !== null) {
    if (today !== null && expiry < today) {
      add('passport_expired', 'block', ['passport_expiration'], { expiry: order.passport_expiration! });
    } else if (tripEnd !== null && expiry < tripEnd) {
      add('passport_expires_during_trip', 'block', ['passport_expiration', tripEndField], {
        expiry: order.passport_expiration!,
        departure: isoOf(tripEnd),
      });
    } else if (tripEnd !== null && expiry < tripEnd + (options.minPassportValidityDays ?? 0)) {
      add('passport_validity_short', 'warn', ['passport_expiration', tripEndField], {
        expiry: order.passport_expiration!,
        days: String(options.minPassportValidityDays ?? 0),
      });
    }
  }
  if ((options.open ?? true) && arrival !== null && today !== null && arrival < today) {
    add('arrival_past', 'warn', ['arrival_date'], { arrival: order.arrival_date! });
  }
  if (arrival !== null && departure !== null && departure < arrival) {
    add('departure_before_arrival', 'block', ['arrival_date', 'departure_date']);
  }
  if (birth !== null && today !== null) {
    if (birth > today) add('birth_date_future', 'block', ['date_of_birth']);
    else if ((ageOn(order.date_of_birth!, options.today) ?? 0) > 120)
      add('age_over_120', 'block', ['date_of_birth']);
    else {
      const age = ageOn(
        order.date_of_birth!,
        order.arrival_date && arrival !== null ? order.arrival_date : options.today,
      );
      if (age !== null && age < 18)
        add('minor', 'info', ['date_of_birth'], { age: String(Math.max(age, 0)) });
    }
  }
  if (order.re_enter_email && comparableEmail(order.re_enter_email) !== comparableEmail(order.email)) {
    add('email_mismatch', 'block', ['email', 're_enter_email']);
  }
  const suggestion = emailSuggestion(order.email);
  if (suggestion) add('email_typo', 'warn', ['email'], { suggestion });
  if (order.telephone_number?.trim()) {
    const code = (order.phone_code ?? '').replace(/\D/g, '');
    const digits = order.telephone_number.replace(/\D/g, '');
    const possible = code ? isPossiblePhoneNumber(`+${code}${digits}`) : isPossiblePhoneNumber(`+${digits}`);
    if (!possible) add('phone_impossible', 'warn', ['phone_code', 'telephone_number']);
  }
  const unknownCountries = (
    ['nationality', 'country_of_birth', 'country_of_departure', 'country_of_residence'] as const
  ).filter((f) => {
    const v = order[f];
    return typeof v === 'string' && v.trim() !== '' && !isKnownCountry(v);
  });
  if (unknownCountries.length) add('country_unknown', 'warn', unknownCountries);
  const badNames = (['first_name', 'last_name'] as const).filter((f) => NAME_BAD.test(order[f] ?? ''));
  if (badNames.length) add('name_characters', 'warn', badNames);
  const flight = order.flight_number?.trim();
  if (flight && !FLIGHT_NUMBER.test(flight)) add('flight_number_shape', 'warn', ['flight_number']);
  if (order.passport_number?.trim()) {
    const passport = normalisePassport(order.passport_number);
    const format = PASSPORT_FORMATS[alpha2Of(order.nationality) ?? ''] ?? PASSPORT_ANY;
    if (!format.test(passport)) add('passport_number_shape', 'warn', ['passport_number', 'nationality']);
  }
  for (const flag of options.flags ?? []) {
    if (flag === 'early_fraud_warning') add('early_fraud_warning', 'block', []);
    if (flag === 'dispute_risk') add('dispute_risk', 'warn', []);
    if (flag === 'fraud_warning') add('fraud_warning', 'block', []);
    if (flag === 'risk_hold') add('risk_hold', 'block', []);
    else if (flag === 'card_mismatch' || flag === 'card_duplicate') add(flag, 'block', []);
    else if (flag === 'card_unreadable' || flag === 'passport_scan_unreadable') add(flag, 'info', []);
    else if (flag === 'passport_scan_mismatch') add(flag, 'warn', []);
    if (flag === 'card_arrived_unsent') add('card_arrived_unsent', 'warn', []);
    if (flag === 'submission_failed') add('submission_failed', 'warn', []);
  }
  return out.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
}
