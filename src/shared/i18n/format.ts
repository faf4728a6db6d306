import { IntlMessageFormat } from 'intl-messageformat';
import type { CustomerLanguage } from '../languages.js';
import en, { type Catalog, type MessageKey } from './en.js';

export type { Catalog, MessageKey };
export type MessageValues = Record<string, string | number>;

/** Keys of the English catalog that another catalog lacks (the CI check lists them). */
export function missingKeys(catalog: Catalog): MessageKey[] {
  return (Object.keys(en) as MessageKey[]).filter((key) => typeof catalog[key] !== 'string' || !catalog[key]);
}

/** The keys whose English text the server or the form checks send as a message (looked up by text). */
const BY_ENGLISH_TEXT = new Map<string, MessageKey>(
  (Object.entries(en) as [MessageKey, string][])
    .filter(([key]) => key.startsWith('server.') || key.startsWith('form.'))
    .map(([key, text]) => [text, key]),
);

export interface Translator {
  language: CustomerLanguage;
  /** The message formatted with its values; the English one when this catalog lacks it. */
  t(key: MessageKey, values?: MessageValues): string;
  /**
   * A message with tags (`<b>…</b>`): each tag's content goes through `tags[name]`; the parts come back
   * in order, to render as children.
   */
  rich<T>(
    key: MessageKey,
    values: MessageValues,
    tags: Record<string, (chunks: (string | T)[]) => T>,
  ): (string | T)[];
  /** A message the server or a form check sent in English, translated when it is a known one. */
  known(message: string): string;
}

/**
 * One language's messages with ICU formatting (intl-messageformat): plural, select and placeholders are
 * the catalog's, never built by concatenation. Formatters are made once per key.
 */
export function createTranslator(language: CustomerLanguage, catalog: Catalog): Translator {
  const formats = new Map<MessageKey, IntlMessageFormat>();
  const formatOf = (key: MessageKey) => {
    let format = formats.get(key);
    if (!format) {
      const own = catalog[key];
      format = own ? new IntlMessageFormat(own, language) : new IntlMessageFormat(en[key], 'en');
      formats.set(key, format);
    }
    return format;
  };
  const t = (key: MessageKey, values?: MessageValues) => String(formatOf(key).format(values));
  return {
    language,
    t,
    rich<T>(key: MessageKey, values: MessageValues, tags: Record<string, (chunks: (string | T)[]) => T>) {
      const parts = formatOf(key).format<T>({ ...values, ...tags });
      return (Array.isArray(parts) ? parts : [parts]) as (string | T)[];
    },
    known(message: string) {
      const key = BY_ENGLISH_TEXT.get(message);
      return key ? t(key) : message;
    },
  };
}

/** The English translator (the fallback, always at hand). */
export const english = createTranslator('en', en);
