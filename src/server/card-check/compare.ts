import anyAscii from 'any-ascii';
import {
  CARD_FIELDS,
  type CardField,
  type CardFieldResult,
  type CardResult,
} from '../../shared/contracts/card-check.js';
import { CARD_LABELS, CARD_VALUE_PATTERNS } from './labels.js';

/** The order's values a card is compared with (null: the order holds none). */
export type CardExpectation = Record<CardField, string | null>;

/** What the PDF worker read from a card (pdf/read-card.ts). */
export interface CardText {
  pages: string[];
  qr: string[];
}

const escapeLabel = (source: string) => source.replace(/ /g, '[\\s_-]*');

/** One pattern per field, matching any of its labels at a word start; the longest labels first. */
const LABEL_PATTERNS = CARD_FIELDS.map((field) => ({
  field,
  pattern: new RegExp(
    `(?:^|[^a-z0-9])(${CARD_LABELS[field].map(escapeLabel).join('|')})(?![a-z])\\s*[:=.\\-–]?\\s*`,
    'gi',
  ),
}));

/** A QR code's text as "label: value" lines: JSON objects, key=value pairs, or lines as they are. */
export function qrLines(code: string): string[] {
  const trimmed = code.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (parsed && typeof parsed === 'object') {
        const lines: string[] = [];
        const walk = (value: unknown, key: string) => {
          if (value && typeof value === 'object') {
            for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(v, k);
          } else if (value !== null && value !== undefined) lines.push(`${key}: ${String(value)}`);
        };
        walk(parsed, '');
        return lines;
      }
    } catch {
      // not JSON: read as text
    }
  }
  return trimmed
    .split(/[\r\n;|&]+/)
    .map((part) => part.replace(/^([^=:]{1,40})=/, '$1: '))
    .map((part) => {
      try {
        return decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return part;
      }
    });
}

interface LabelHit {
  field: CardField;
  start: number;
  valueStart: number;
}

function hitsOf(line: string): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const { field, pattern } of LABEL_PATTERNS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(line); m; m = pattern.exec(line)) {
      const start = m.index + m[0].indexOf(m[1]!);
      hits.push({ field, start, valueStart: m.index + m[0].length });
      if (m[0].length === 0) pattern.lastIndex++;
    }
  }
  // Overlapping labels ("Passport number" and "Passport"): the earliest, then the longest, wins.
  hits.sort((a, b) => a.start - b.start || b.valueStart - a.valueStart);
  const kept: LabelHit[] = [];
  for (const h of hits) if (!kept.length || h.start >= kept[kept.length - 1]!.valueStart) kept.push(h);
  return kept;
}

/** Where another label (one the table does not know) starts: "Nationality:" after the value. */
const OTHER_LABEL = /\s+[A-Za-z][A-Za-z .()/]{0,30}:/;

function fieldValue(field: CardField, raw: string): string | null {
  const cut = OTHER_LABEL.exec(raw);
  const text = (cut ? raw.slice(0, cut.index) : raw).replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const pattern = CARD_VALUE_PATTERNS[field];
  const m = pattern.exec(text);
  if (!m) return null;
  return m[0].trim().replace(/[ .-]+$/, '') || null;
}

/**
 * The values of the card's fields, found by the label table in its text lines and its QR codes. The
 * first value found for a field wins (the text before the codes); each value is the one after its label
 * up to the next label on the line, or the next line when the label ends its line.
 */
export function extractCardFields(reading: CardText): Partial<Record<CardField, string>> {
  const lines = [...reading.pages.flatMap((p) => p.split(/\r?\n/)), ...reading.qr.flatMap(qrLines)]
    .map((l) => anyAscii(l).replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  const found: Partial<Record<CardField, string>> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const hits = hitsOf(line);
    hits.forEach((hit, n) => {
      if (found[hit.field]) return;
      const end = hits[n + 1]?.start ?? line.length;
      let raw = line.slice(hit.valueStart, end);
      // A label alone at the end of its line: the value is on the next line (a table of two columns).
      if (!raw.trim() && n === hits.length - 1 && lines[i + 1] && !hitsOf(lines[i + 1]!).length)
        raw = lines[i + 1]!;
      const value = fieldValue(hit.field, raw);
      if (value) found[hit.field] = value;
    });
  }
  return found;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SPANISH_DUTCH_MONTHS: Record<string, number> = {
  ene: 1,
  abr: 4,
  mei: 5,
  ago: 8,
  dic: 12,
  okt: 10,
  mrt: 3,
};

function monthOf(name: string): number | null {
  const key = name.toLowerCase().slice(0, 3);
  const n = MONTHS.indexOf(key);
  return n >= 0 ? n + 1 : (SPANISH_DUTCH_MONTHS[key] ?? null);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date in DD-MM-YYYY, DD/MM/YYYY, DD.MM.YYYY, YYYY-MM-DD, "12 Mar 2026" or "Mar 12, 2026" as YYYY-MM-DD. */
export function normaliseCardDate(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  const parts = datePartsOf(v);
  if (!parts) return null;
  const [y, mo, d] = parts;
  if (!mo || mo > 12 || d < 1 || d > 31) return null;
  return `${y}-${pad(mo)}-${pad(d)}`;
}

/** Year, month (null: an unknown month name) and day of the date formats a card prints. */
function datePartsOf(v: string): [number, number | null, number] | null {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(v);
  if (iso) return [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  const dmy = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})/.exec(v);
  if (dmy) return [Number(dmy[3]), Number(dmy[2]), Number(dmy[1])];
  const dayMonth = /^(\d{1,2}) ([A-Za-z]{3,9})\.? (\d{4})/.exec(v);
  if (dayMonth) return [Number(dayMonth[3]), monthOf(dayMonth[2]!), Number(dayMonth[1])];
  const monthDay = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})/.exec(v);
  if (monthDay) return [Number(monthDay[3]), monthOf(monthDay[1]!), Number(monthDay[2])];
  return null;
}

/** Case, diacritics (any-ascii, as the government packet writes names), spaces, dashes, apostrophes. */
export function normaliseCardText(value: string | null | undefined): string {
  return anyAscii(value ?? '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

/** A passport number compared: as text, and the letter O read as the digit 0. */
export function normaliseCardPassport(value: string | null | undefined): string {
  return normaliseCardText(value).replace(/O/g, '0');
}

const DATE_FIELDS: ReadonlySet<CardField> = new Set(['date_of_birth', 'arrival_date']);

function comparable(field: CardField, value: string | null | undefined): string | null {
  if (DATE_FIELDS.has(field)) return normaliseCardDate(value);
  const n = field === 'passport_number' ? normaliseCardPassport(value) : normaliseCardText(value);
  return n || null;
}

/**
 * Each field of the card against the order: `absent` when the card shows nothing for it (or the order
 * holds nothing to compare), `mismatch` when both hold a value and they differ after normalising.
 * `unread`: neither text nor a QR code on the card; `mismatch` when any field differs.
 */
export function compareCard(
  reading: CardText | null,
  expected: CardExpectation,
): { result: CardResult; fields: CardFieldResult[] } {
  const found = reading ? extractCardFields(reading) : {};
  const fields = CARD_FIELDS.map((field): CardFieldResult => {
    const value = found[field] ?? null;
    const want = expected[field];
    const a = comparable(field, value);
    const b = comparable(field, want);
    const status = a === null || b === null ? 'absent' : a === b ? 'match' : 'mismatch';
    return { field, expected: want, found: value, status };
  });
  const empty = !reading || (!reading.pages.some((p) => p.trim()) && !reading.qr.length);
  const result: CardResult = empty
    ? 'unread'
    : fields.some((f) => f.status === 'mismatch')
      ? 'mismatch'
      : 'pass';
  return { result, fields };
}
