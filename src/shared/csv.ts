/**
 * CSV text for an export, safe to open in a spreadsheet in any locale (OWASP CSV injection):
 * - a cell starting with = + - @ or their full-width forms ＝ ＋ － ＠ (some spreadsheets read those as the
 *   ASCII ones; also after spaces or a quote), tab, CR or NUL gets a leading `'`, so it is text, not a formula;
 * - inside a cell, a `;`, `,`, tab or line break followed by such a character gets a `'` right after the
 *   separator: a spreadsheet that splits on `;` (semicolon locales) does not honour a quote in the middle
 *   of its field, and would otherwise start a new cell (or row) with a formula;
 * - such cells, and any with a quote, separator or line break, are wrapped in double quotes.
 * Exception: a plain phone number (`+` then digits, spaces, dots, dashes, brackets) is left as it is —
 * it holds no function or reference, so it cannot run anything, and staff read it without a stray `'`.
 */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n');
}

const LEADING_TRIGGER = /^(?:[\s"]*[=+\-@＝＋－＠]|[\t\r\0])/;
const INNER_TRIGGER = /([,;\t\r\n])([ "]*[=+\-@＝＋－＠])/g;
const PLAIN_PHONE = /^\+\d[\d ().-]{3,24}$/;
const NEEDS_QUOTES = /[",;\t\r\n\0]/;

/** One cell: neutralised and quoted as described above. Numbers are written as they are. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let neutralised = false;
  let text = value;
  if (LEADING_TRIGGER.test(text) && !PLAIN_PHONE.test(text.trim())) {
    text = `'${text}`;
    neutralised = true;
  }
  text = text.replace(
    INNER_TRIGGER,
    (match, separator: string, next: string, offset: number, whole: string) => {
      const segment = whole.slice(offset + separator.length).split(/[,;\t\r\n]/, 1)[0]!;
      if (PLAIN_PHONE.test(segment.trim())) return match;
      neutralised = true;
      return `${separator}'${next}`;
    },
  );
  return neutralised || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
