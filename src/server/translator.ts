import en from '../shared/i18n/en.js';
import es from '../shared/i18n/es.js';
import { type Catalog, createTranslator, type Translator } from '../shared/i18n/format.js';
import nl from '../shared/i18n/nl.js';
import pap from '../shared/i18n/pap.js';
import pt from '../shared/i18n/pt.js';
import type { CustomerLanguage } from '../shared/languages.js';

/**
 * The server's words in a customer language: the same catalogs as the customer page, one translator
 * per language, made once. A floor module: it imports the shared catalogs only, so the order domain,
 * the customer page's answers and the mails all use it without reaching into each other.
 */
const CATALOGS: Record<CustomerLanguage, Catalog> = { en, es, nl, pap, pt };
const translators = new Map<CustomerLanguage, Translator>();

/** The server's translator of a customer language (the same catalogs as the customer page). */
export function translatorFor(language: CustomerLanguage): Translator {
  let translator = translators.get(language);
  if (!translator) {
    translator = createTranslator(language, CATALOGS[language], en);
    translators.set(language, translator);
  }
  return translator;
}
