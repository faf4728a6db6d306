import { describe, expect, it } from 'vitest';
import { acceptLanguageTags, chooseLanguage, firstCustomerLanguage, languageOfTag } from './languages.js';

describe('languageOfTag', () => {
  it('takes the primary subtag of a customer language', () => {
    expect(languageOfTag('es-AR')).toBe('es');
    expect(languageOfTag('PT_br')).toBe('pt');
    expect(languageOfTag('pap-AW')).toBe('pap');
    expect(languageOfTag('nl')).toBe('nl');
    expect(languageOfTag('en-US')).toBe('en');
  });

  it('refuses other languages and hostile values', () => {
    for (const tag of [
      'pa',
      'de',
      'fr-CA',
      '',
      ' es',
      'es\u0000',
      'es;drop',
      'e'.repeat(100),
      `es-${'x'.repeat(40)}`,
      null,
      42,
      {},
    ]) {
      expect(languageOfTag(tag)).toBeNull();
    }
  });
});

describe('acceptLanguageTags', () => {
  it('orders by q-value, keeps header order on ties and drops q=0 and *', () => {
    expect(acceptLanguageTags('de;q=0.9, es-MX;q=0.95, nl, *;q=0.1, pt;q=0')).toEqual(['nl', 'es-MX', 'de']);
    expect(firstCustomerLanguage(acceptLanguageTags('de-DE,de;q=0.9,pt-BR;q=0.8'))).toBe('pt');
  });

  it('survives empty, malformed and huge headers', () => {
    expect(acceptLanguageTags(undefined)).toEqual([]);
    expect(acceptLanguageTags(';;,,;q=x')).toEqual([]);
    expect(acceptLanguageTags(`${'de,'.repeat(10_000)}es`)).toEqual(Array(20).fill('de'));
  });
});

describe('chooseLanguage', () => {
  it('takes ?lang=, then the remembered choice, then the browser, then English', () => {
    expect(chooseLanguage({ query: 'pap', remembered: 'es', preferred: ['nl'] })).toBe('pap');
    expect(chooseLanguage({ query: null, remembered: 'es', preferred: ['nl'] })).toBe('es');
    expect(chooseLanguage({ query: 'xx', remembered: 'zz', preferred: ['de', 'nl-BE'] })).toBe('nl');
    expect(chooseLanguage({ query: 'de', remembered: null, preferred: ['fr'] })).toBe('en');
    expect(chooseLanguage({})).toBe('en');
  });
});
