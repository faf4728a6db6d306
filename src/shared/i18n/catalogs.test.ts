import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_LANGUAGES } from '../languages.js';
import en from './en.js';
import es from './es.js';
import { createTranslator, missingKeys } from './format.js';
import nl from './nl.js';
import pap from './pap.js';
import pt from './pt.js';

const CATALOGS = { es, nl, pap, pt };

/** The names of the ICU arguments and tags of a message, e.g. {orderId} and <b>. */
const argumentsOf = (message: string) =>
  [...message.matchAll(/\{(\w+)|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();

describe('customer catalogs', () => {
  it('has one catalog per customer language besides English', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual(CUSTOMER_LANGUAGES.filter((l) => l !== 'en').sort());
  });

  it.each(Object.entries(CATALOGS))('%s lacks no key of the English catalog', (_, catalog) => {
    expect(missingKeys(catalog)).toEqual([]);
  });

  it.each(Object.entries(CATALOGS))('%s uses the same arguments and tags as English', (language, catalog) => {
    for (const [key, text] of Object.entries(catalog)) {
      expect(argumentsOf(text), `${language} ${key}`).toEqual(argumentsOf(en[key as keyof typeof en]));
      // Parses as an ICU message (a syntax error throws here).
      expect(() => new IntlMessageFormat(text, language)).not.toThrow();
    }
  });

  it('falls back to English for a missing key and escapes nothing into markup', () => {
    const t = createTranslator('es', { 'details.download': 'Descargar ahora' });
    expect(missingKeys({ 'details.download': 'x' })).toContain('track.submit');
    expect(t.t('track.submit')).toBe('TRACK ORDER');
    expect(t.t('details.download')).toBe('Descargar ahora');
    const parts = t.rich(
      'details.doneText',
      { firstName: '<script>', lastName: 'x', orderId: '100001' },
      {
        b: (chunks) => ({ bold: chunks }),
      },
    );
    expect(parts[0]).toContain('<script>');
    expect(parts).toContainEqual({ bold: ['100001'] });
  });

  it('translates a known server message and leaves others as they are', () => {
    const t = createTranslator('nl', nl);
    expect(t.known('Your order has been found.')).toBe('Uw bestelling is gevonden.');
    expect(t.known('Something else')).toBe('Something else');
  });
});
