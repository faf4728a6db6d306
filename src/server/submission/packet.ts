import anyAscii from 'any-ascii';
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { PacketField, PacketSection, PacketWarning } from '../../shared/contracts/submission.js';
import { alpha2Of, normalisePassport } from '../../shared/order-checks.js';
import type { OrderRow } from '../orders/repository.js';

countries.registerLocale(en);

/**
 * The submission packet (docs/product.md, "Submitting to the government"): the government form's
 * fields in the form's order, each value in the form's format. FORM below is the one place that knows
 * the portal: a change of the portal is one edit of that table.
 */

/** How the portal wants a value written. */
type Format =
  /** Capital Latin letters, no diacritics, apostrophes dropped, hyphens and single spaces kept. */
  | 'name'
  /** DD-MM-YYYY. */
  | 'date'
  /** Letters and digits only, upper case (no spaces or dashes). */
  | 'passport'
  /** The English short name the form lists. */
  | 'country'
  /** E.164 from the order's dial code and number. */
  | 'phone'
  /** Capital letters and digits, no spaces (flight numbers). */
  | 'code'
  /** Free text in Latin letters without diacritics, case kept, one line. */
  | 'text';

type OrderKey = keyof OrderRow;

interface FormField {
  key: string;
  section: PacketSection;
  label: string;
  format: Format;
  /** The order's column(s) it is built from. */
  from: OrderKey | readonly OrderKey[];
  /** The portal refuses the application without it. */
  required?: boolean;
}

/** The government form, in its order. */
export const FORM: readonly FormField[] = [
  {
    key: 'last_name',
    section: 'traveller',
    label: 'Surname',
    format: 'name',
    from: 'lastName',
    required: true,
  },
  {
    key: 'first_name',
    section: 'traveller',
    label: 'Given names',
    format: 'name',
    from: 'firstName',
    required: true,
  },
  { key: 'sex', section: 'traveller', label: 'Sex', format: 'name', from: 'sex' },
  {
    key: 'date_of_birth',
    section: 'traveller',
    label: 'Date of birth',
    format: 'date',
    from: 'dateOfBirth',
    required: true,
  },
  {
    key: 'country_of_birth',
    section: 'traveller',
    label: 'Country of birth',
    format: 'country',
    from: 'countryOfBirth',
  },
  {
    key: 'nationality',
    section: 'traveller',
    label: 'Nationality',
    format: 'country',
    from: 'nationality',
    required: true,
  },
  {
    key: 'dual_citizenship',
    section: 'traveller',
    label: 'Other nationality',
    format: 'text',
    from: 'dualCitizenship',
  },
  { key: 'occupation', section: 'traveller', label: 'Occupation', format: 'text', from: 'occupation' },
  {
    key: 'passport_number',
    section: 'passport',
    label: 'Passport number',
    format: 'passport',
    from: 'passportNumber',
    required: true,
  },
  {
    key: 'passport_expiration',
    section: 'passport',
    label: 'Passport expiry date',
    format: 'date',
    from: 'passportExpiration',
    required: true,
  },
  {
    key: 'resident_check',
    section: 'passport',
    label: 'Resident of Aruba',
    format: 'text',
    from: 'residentCheck',
  },
  {
    key: 'arrival_date',
    section: 'trip',
    label: 'Arrival date',
    format: 'date',
    from: 'arrivalDate',
    required: true,
  },
  { key: 'departure_date', section: 'trip', label: 'Departure date', format: 'date', from: 'departureDate' },
  {
    key: 'country_of_departure',
    section: 'trip',
    label: 'Country of departure',
    format: 'country',
    from: 'countryOfDeparture',
  },
  { key: 'travel_mode', section: 'trip', label: 'Travelling by', format: 'text', from: 'travelMode' },
  { key: 'airline', section: 'trip', label: 'Airline', format: 'text', from: 'airline' },
  { key: 'flight_number', section: 'trip', label: 'Flight number', format: 'code', from: 'flightNumber' },
  { key: 'vessel_name', section: 'trip', label: 'Vessel', format: 'text', from: 'vesselName' },
  {
    key: 'purpose_of_visit',
    section: 'trip',
    label: 'Purpose of visit',
    format: 'text',
    from: 'purposeOfVisit',
  },
  {
    key: 'prior_visits',
    section: 'trip',
    label: 'Visited Aruba before',
    format: 'text',
    from: 'priorVisits',
  },
  { key: 'place_of_stay', section: 'address', label: 'Type of stay', format: 'text', from: 'placeOfStay' },
  {
    key: 'name_of_place_of_stay',
    section: 'address',
    label: 'Hotel or place of stay',
    format: 'text',
    from: 'nameOfPlaceOfStay',
  },
  {
    key: 'other_hotel_name',
    section: 'address',
    label: 'Other place of stay',
    format: 'text',
    from: 'otherHotelName',
  },
  {
    key: 'local_address',
    section: 'address',
    label: 'Address in Aruba',
    format: 'text',
    from: 'localAddress',
  },
  { key: 'house_number', section: 'address', label: 'House number', format: 'text', from: 'houseNumber' },
  { key: 'email', section: 'contact', label: 'E-mail', format: 'text', from: 'email', required: true },
  {
    key: 'phone',
    section: 'contact',
    label: 'Phone',
    format: 'phone',
    from: ['phoneCode', 'telephoneNumber'],
    required: true,
  },
  { key: 'address', section: 'contact', label: 'Home address', format: 'text', from: 'address' },
  { key: 'city', section: 'contact', label: 'City', format: 'text', from: 'city' },
  { key: 'state', section: 'contact', label: 'State or province', format: 'text', from: 'state' },
  { key: 'zip_code', section: 'contact', label: 'Postal code', format: 'code', from: 'zipCode' },
  {
    key: 'country_of_residence',
    section: 'contact',
    label: 'Country of residence',
    format: 'country',
    from: 'countryOfResidence',
  },
];

/** Where the form's list spells a country otherwise than the ISO table's first English name. */
const FORM_COUNTRY_NAMES: Record<string, string> = {
  US: 'United States',
  GB: 'United Kingdom',
  RU: 'Russia',
  KR: 'South Korea',
  KP: 'North Korea',
  TR: 'Turkey',
  VE: 'Venezuela',
  BO: 'Bolivia',
  IR: 'Iran',
  SY: 'Syria',
  TW: 'Taiwan',
  VN: 'Vietnam',
  LA: 'Laos',
  MD: 'Moldova',
  TZ: 'Tanzania',
  CZ: 'Czech Republic',
};

/** Letters of scripts other than Latin: any-ascii spells them, but not as the passport does. */
const NON_LATIN_LETTER = /(?![\p{Script=Latin}])\p{L}/u;
const APOSTROPHES = /['\u2018\u2019\u02bc`´]/g;

interface Formatted {
  value: string;
  warning?: { code: string; message: string } | undefined;
}

/** A name in the form's letters: ASCII capitals, hyphens and single spaces. */
export function formName(original: string): Formatted {
  const ascii = anyAscii(original.normalize('NFC'))
    .replace(APOSTROPHES, '')
    .toUpperCase()
    .replace(/[^A-Z -]+/g, ' ')
    .replace(/\s*-\s*/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  const clean = !NON_LATIN_LETTER.test(original) && !/[^\p{L}\p{M}\s'\u2018\u2019\u02bc`´.-]/u.test(original);
  if (!ascii)
    return { value: '', warning: { code: 'name_unreadable', message: 'cannot be written in Latin letters' } };
  return clean
    ? { value: ascii }
    : {
        value: ascii,
        warning: {
          code: 'name_transliteration',
          message: `"${original}" cannot be transliterated cleanly: check "${ascii}" against the passport`,
        },
      };
}

/** YYYY-MM-DD → DD-MM-YYYY. */
export function formDate(iso: string): Formatted {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso.trim());
  if (!m) return { value: iso, warning: { code: 'date_format', message: 'is not a date' } };
  return { value: `${m[3]}-${m[2]}-${m[1]}` };
}

/** The English short name the form lists, for a country name or code. */
export function formCountry(value: string): Formatted {
  const alpha2 = alpha2Of(value);
  if (!alpha2)
    return {
      value: value.trim(),
      warning: { code: 'country_unknown', message: 'is not a country the form lists' },
    };
  const name = FORM_COUNTRY_NAMES[alpha2] ?? countries.getName(alpha2, 'en') ?? value.trim();
  return { value: anyAscii(name) };
}

/** E.164 from a dial code (digits, may be empty) and a national number. */
export function formPhone(code: string | null, number: string): Formatted {
  const digits = number.replace(/\D/g, '');
  const dial = (code ?? '').replace(/\D/g, '');
  const raw = dial && !number.trim().startsWith('+') ? `+${dial}${digits}` : `+${digits}`;
  const parsed = parsePhoneNumberFromString(raw);
  if (!parsed?.isPossible()) {
    return { value: raw, warning: { code: 'phone_impossible', message: 'is not a possible phone number' } };
  }
  return { value: parsed.number };
}

const oneLine = (v: string) => v.replace(/\s+/g, ' ').trim();

function format(field: FormField, order: OrderRow): Formatted & { original: string } {
  if (field.format === 'phone') {
    const number = order.telephoneNumber?.trim() ?? '';
    const original = `${order.phoneCode ? `+${order.phoneCode} ` : ''}${number}`.trim();
    return number ? { ...formPhone(order.phoneCode, number), original } : { value: '', original };
  }
  const column = field.from as OrderKey;
  const raw = order[column];
  const original = raw === null || raw === undefined ? '' : String(raw).trim();
  if (!original) return { value: '', original };
  switch (field.format) {
    case 'name':
      return { ...formName(original), original };
    case 'date':
      return { ...formDate(original), original };
    case 'passport':
      return { value: normalisePassport(original), original };
    case 'country':
      return { ...formCountry(original), original };
    case 'code':
      return {
        value: anyAscii(original)
          .toUpperCase()
          .replace(/[^A-Z0-9]/g, ''),
        original,
      };
    default:
      return { value: oneLine(anyAscii(original)), original };
  }
}

/**
 * The packet's fields and the warnings of what it cannot fill, from the order as it is now. The
 * order's failing checks are added by the caller (they need the duplicate search).
 */
export function buildPacket(order: OrderRow): { fields: PacketField[]; warnings: PacketWarning[] } {
  const fields: PacketField[] = [];
  const warnings: PacketWarning[] = [];
  for (const field of FORM) {
    const out = format(field, order);
    fields.push({
      key: field.key,
      section: field.section,
      label: field.label,
      value: out.value,
      original: out.original && out.original !== out.value ? out.original : null,
    });
    if (!out.original) {
      if (field.required) {
        warnings.push({
          key: field.key,
          code: 'missing',
          message: `${field.label} is missing: the form needs it.`,
        });
      }
      continue;
    }
    if (out.warning) {
      warnings.push({
        key: field.key,
        code: out.warning.code,
        message: `${field.label} ${out.warning.message}.`,
      });
    }
  }
  return { fields, warnings };
}
