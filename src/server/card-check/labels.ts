import type { CardField } from '../../shared/contracts/card-check.js';

/**
 * The one table of what a card calls each field (docs/product.md, "Card check": how to add a label).
 * Each label is a regular expression source, matched case-insensitively at a word start, after
 * transliteration to ASCII; a label is followed by an optional ":", "-", "." or "=" and the value, on
 * the same line or, when the line ends at the label, on the next line. Longer labels come first so
 * "Passport number" wins over "Passport". QR codes are read the same way (JSON keys and key=value pairs
 * become "key: value" lines), so a code's keys are labels too.
 */
export const CARD_LABELS: Record<CardField, readonly string[]> = {
  surname: ['surnames?', 'last ?names?', 'family ?names?', 'apellidos?', 'achternaam', 'apelido'],
  given_names: [
    'given ?names?',
    'first ?names?',
    'forenames?',
    'nombres?',
    'voornamen',
    'voornaam',
    'primeiro nome',
  ],
  passport_number: [
    'passport ?(?:number|no\\.?|nr\\.?|n[o°º]|#)',
    'travel document ?(?:number|no\\.?)',
    'document ?(?:number|no\\.?)',
    'pasaporte ?(?:number|no\\.?|n[o°º])?',
    'paspoort ?(?:nummer|nr\\.?)?',
    'passport(?! ?(?:expir|issu|valid|type|country))',
  ],
  date_of_birth: ['date of birth', 'birth ?date', 'd\\.?o\\.?b\\.?', 'fecha de nacimiento', 'geboortedatum'],
  arrival_date: [
    'date of arrival',
    'arrival ?date',
    'fecha de llegada',
    'aankomstdatum',
    'arrival(?! ?(?:airport|port|city))',
  ],
  flight_number: [
    'flight ?(?:number|no\\.?|nr\\.?|n[o°º]|#)',
    'vuelo',
    'vlucht ?(?:nummer|nr\\.?)?',
    'flight',
  ],
  reference: [
    'ed ?card ?(?:number|no\\.?|n[o°º]|reference|ref\\.?|id)',
    'embarkation ?(?:/ ?)?disembarkation ?card ?(?:number|no\\.?)',
    'application ?(?:number|no\\.?|reference|id)',
    'reference ?(?:number|no\\.?)?',
    'ref\\.? ?no\\.?',
  ],
};

/** What a found value looks like for each field; text around it (a trailing label, a note) is cut. */
export const CARD_VALUE_PATTERNS: Record<CardField, RegExp> = {
  surname: /^[A-Za-z][A-Za-z' .-]{0,79}/,
  given_names: /^[A-Za-z][A-Za-z' .-]{0,79}/,
  passport_number: /^[A-Za-z0-9][A-Za-z0-9 -]{2,24}/,
  date_of_birth:
    /\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}|\d{1,2} [A-Za-z]{3,9}\.? \d{4}|[A-Za-z]{3,9}\.? \d{1,2},? \d{4}/,
  arrival_date:
    /\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}|\d{1,2} [A-Za-z]{3,9}\.? \d{4}|[A-Za-z]{3,9}\.? \d{1,2},? \d{4}/,
  flight_number: /^[A-Za-z0-9]{2,3} ?-? ?\d{1,5}[A-Za-z]?/,
  reference: /^[A-Za-z0-9][A-Za-z0-9/-]{3,39}/,
};
