import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { getCountryCallingCode, type CountryCode } from 'libphonenumber-js/min';

countries.registerLocale(en);

/** Full country name for a 3-letter code (Personal Information on the order), 'Unknown Country' otherwise. */
export function countryName(alpha3: string | null | undefined): string {
  if (!alpha3) return 'Unknown Country';
  return countries.getName(alpha3.toUpperCase(), 'en') ?? 'Unknown Country';
}

/** Common short names the intake forms use that the ISO tables do not list. */
const ALIASES: Record<string, string> = {
  UK: 'GB',
  USA: 'US',
  UAE: 'AE',
  'GREAT BRITAIN': 'GB',
  ENGLAND: 'GB',
};

/**
 * Dial code for an upper-case country name (about 230 countries): UK -> 44, USA -> 1,
 * INDIA -> 91. An unknown name is returned unchanged.
 */
export function dialCode(countryNameUpper: string): string {
  const key = countryNameUpper.trim().toUpperCase();
  const alpha2 =
    ALIASES[key] ?? countries.getAlpha2Code(key, 'en') ?? (countries.isValid(key) ? key : undefined);
  if (!alpha2) return countryNameUpper;
  try {
    return getCountryCallingCode(alpha2.toUpperCase() as CountryCode);
  } catch {
    return countryNameUpper;
  }
}

/** English names of every country, for seed data and pickers. */
export function allCountries(): { alpha3: string; name: string }[] {
  return Object.entries(countries.getNames('en', { select: 'official' })).map(([alpha2, name]) => ({
    alpha3: countries.alpha2ToAlpha3(alpha2) ?? alpha2,
    name,
  }));
}
