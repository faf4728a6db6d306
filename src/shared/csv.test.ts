import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';

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
    expect(csv.split('\r\n')).toEqual(['a,b', `'=1+1,"x,y"`, `'@SUM(A1),"say ""hi"""`, `'-2,`, `'+cmd,3`]);
  });
});
