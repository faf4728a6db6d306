import { readFileSync } from 'node:fs';
import { parse } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_LANGUAGES } from '../languages.js';
import en from './en.js';
import es from './es.js';
import { compileCatalog, createTranslator, missingKeys, SERVER_ONLY_KEY } from './format.js';
import nl from './nl.js';
import pap from './pap.js';
import pt from './pt.js';

const CATALOGS = { es, nl, pap, pt };
const compiledOf = (language: string) =>
  JSON.parse(
    readFileSync(new URL(`../../client/customer/messages/${language}.json`, import.meta.url), 'utf8'),
  );

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
    const t = createTranslator('es', { 'details.download': 'Descargar ahora' }, en);
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
    const t = createTranslator('nl', nl, en);
    expect(t.known('Your order has been found.')).toBe('Uw bestelling is gevonden.');
    expect(t.known('Something else')).toBe('Something else');
  });

  it.each(Object.entries({ en, ...CATALOGS }))(
    'the page ships %s compiled from its catalog, up to date',
    (language, catalog) => {
      const compiled = compiledOf(language);
      expect(compiled, 'run npm run i18n:compile').toEqual(
        compileCatalog(catalog as Record<string, string>, (text) => parse(text)),
      );
      // The compiled messages format exactly like their source.
      const fromSource = createTranslator('es', catalog, en);
      const fromAst = createTranslator('es', compiled, compiledOf('en'));
      const values = {
        orderId: '100001',
        supportEmail: 'help@example.com',
        brand: 'B',
        stage: 'S',
        // The self-service messages' values.
        field: 'F',
        amount: '10.00 USD',
        name: 'N',
        untouched: 100,
        workedOn: 75,
        score: 3,
        fields: 'F, G',
        // The government step's submission date.
        date: '12/03/2026',
      };
      for (const key of Object.keys(en) as (keyof typeof en)[]) {
        if (key.startsWith('details.') || SERVER_ONLY_KEY.test(key)) continue;
        expect(fromAst.t(key, values)).toBe(fromSource.t(key, values));
      }
      expect(fromAst.known('Your order has been found.')).toBe(
        fromSource.known('Your order has been found.'),
      );
    },
  );
});
