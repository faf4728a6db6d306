import { describe, expect, it } from 'vitest';
import { allCountries, countryName, dialCode } from './countries.js';

describe('country helpers', () => {
  it('names a 3-letter code, or Unknown Country', () => {
    expect(countryName('NLD')).toBe('Netherlands');
    expect(countryName('abw')).toBe('Aruba');
    expect(countryName('XXX')).toBe('Unknown Country');
    expect(countryName(null)).toBe('Unknown Country');
  });
  it('gives dial codes for upper-case names (UK, USA, INDIA)', () => {
    expect(dialCode('UK')).toBe('44');
    expect(dialCode('USA')).toBe('1');
    expect(dialCode('INDIA')).toBe('91');
    expect(dialCode('NETHERLANDS')).toBe('31');
    expect(dialCode('ATLANTIS')).toBe('ATLANTIS');
  });
  it('lists about 250 countries', () => {
    expect(allCountries().length).toBeGreaterThan(230);
  });
});
