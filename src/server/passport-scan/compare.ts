import countries from 'i18n-iso-countries';
import type { PassportScan, ScanField } from '../../shared/contracts/card-check.js';
import { alpha2Of } from '../../shared/order-checks.js';
import { normaliseCardPassport, normaliseCardText } from '../card-check/compare.js';
import type { MrzValues } from './mrz.js';

type OrderValues = {
  passportNumber: string | null;
  lastName: string;
  firstName: string;
  nationality: string | null;
  dateOfBirth: string | null;
  passportExpiration: string | null;
};

/** ICAO codes that are not ISO alpha-3 (Germany writes "D", British nationals' variants). */
const ICAO_CODES: Record<string, string> = {
  D: 'DEU',
  GBD: 'GBR',
  GBN: 'GBR',
  GBO: 'GBR',
  GBS: 'GBR',
  GBP: 'GBR',
};

const iso3 = (code: string) => {
  const c = code.replace(/</g, '');
  return ICAO_CODES[c] ?? c;
};

/** The MRZ's country as the order writes it: the English ISO name, or the code as read (UTO). */
function countryName(code: string): string {
  const alpha2 = countries.alpha3ToAlpha2(iso3(code));
  return (alpha2 && countries.getName(alpha2, 'en')) || code;
}

/**
 * A valid MRZ against the order: passport number (the letter O as 0), names (case, diacritics, spaces
 * and dashes; the MRZ writes names in Latin capitals), nationality (by country), birth date and expiry.
 * A field the order leaves empty is shown, not counted as a difference.
 */
export function compareScan(values: MrzValues, order: OrderValues): PassportScan['fields'] {
  const rows: [ScanField, string | null, string | null, (a: string, b: string) => boolean][] = [
    [
      'passport_number',
      values.documentNumber,
      order.passportNumber,
      (a, b) => normaliseCardPassport(a) === normaliseCardPassport(b),
    ],
    ['last_name', values.surname, order.lastName, (a, b) => normaliseCardText(a) === normaliseCardText(b)],
    [
      'first_name',
      values.givenNames,
      order.firstName,
      (a, b) => normaliseCardText(a) === normaliseCardText(b),
    ],
    [
      'nationality',
      countryName(values.nationality),
      order.nationality,
      (_a, b) => {
        const alpha2 = countries.alpha3ToAlpha2(iso3(values.nationality));
        return alpha2
          ? alpha2Of(b) === alpha2
          : normaliseCardText(values.nationality) === normaliseCardText(b);
      },
    ],
    ['date_of_birth', values.dateOfBirth, order.dateOfBirth, (a, b) => a === b],
    ['passport_expiration', values.expiry, order.passportExpiration, (a, b) => a === b],
  ];
  return rows.map(([field, scan, current, same]) => {
    const orderValue = current?.trim() ? current.trim() : null;
    return {
      field,
      scan,
      order: orderValue,
      differs: scan !== null && orderValue !== null && !same(scan, orderValue),
    };
  });
}
