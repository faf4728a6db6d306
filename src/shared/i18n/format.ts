import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import type { CustomerLanguage } from '../languages.js';
import en, { type Catalog, type MessageKey } from './en.js';

export type { Catalog, MessageKey };
export type MessageValues = Record<string, string | number>;
/** A message as ICU source text, or compiled to its AST (the customer page ships ASTs, no parser). */
export type Message = string | MessageFormatElement[];
export type AnyCatalog = Partial<Record<MessageKey, Message>>;

/** Keys of the English catalog that another catalog lacks (the CI check lists them). */
export function missingKeys(catalog: Catalog): MessageKey[] {
  return (Object.keys(en) as MessageKey[]).filter((key) => typeof catalog[key] !== 'string' || !catalog[key]);
}

/** Text with none of ICU's syntax characters: the same as source and as its compiled form. */
const PLAIN = /^[^{}<'#]*$/;
const plainOf = (message: Message | undefined): string | null =>
  typeof message === 'string' && PLAIN.test(message) ? message : null;

/** Messages only the server formats (stage messages, order checks): not shipped to the page. */
export const SERVER_ONLY_KEY = /^(?:stage\.[a-z_]+\.message|check\.[a-z_0-9]+)$/;

/**
 * A catalog compiled for the customer page: each message as its AST, or as its text when it is plain
 * (shorter, and formatted without intl-messageformat); server-only messages left out. `parse` is the
 * ICU parser (build time only).
 */
export function compileCatalog(
  catalog: Record<string, string>,
  parse: (text: string) => MessageFormatElement[],
): Record<string, Message> {
  return Object.fromEntries(
    Object.entries(catalog)
      .filter(([key]) => !SERVER_ONLY_KEY.test(key))
      .map(([key, text]) => {
        const ast = parse(text);
        const [only] = ast;
        return [key, ast.length === 1 && only?.type === 0 && PLAIN.test(only.value) ? only.value : ast];
      }),
  );
}

/** The plain text of a message without arguments (source text, or an AST of one literal); else null. */
function literalOf(message: Message | undefined): string | null {
  if (typeof message === 'string') return message;
  const [only] = message ?? [];
  return message?.length === 1 && only?.type === 0 ? only.value : null;
}

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
 * the catalog's, never built by concatenation. A key the catalog lacks falls back to `fallback` (the
 * English catalog, as source or compiled). Formatters are made once per key.
 */
export function createTranslator(
  language: CustomerLanguage,
  catalog: AnyCatalog,
  fallback: Record<MessageKey, Message>,
): Translator {
  const formats = new Map<MessageKey, IntlMessageFormat>();
  const formatOf = (key: MessageKey) => {
    let format = formats.get(key);
    if (!format) {
      const own = catalog[key];
      format = own ? new IntlMessageFormat(own, language) : new IntlMessageFormat(fallback[key], 'en');
      formats.set(key, format);
    }
    return format;
  };
  const plain = (key: MessageKey) => plainOf(catalog[key] || fallback[key]);
  const t = (key: MessageKey, values?: MessageValues) => plain(key) ?? String(formatOf(key).format(values));
  let byEnglishText: Map<string, MessageKey> | undefined;
  return {
    language,
    t,
    rich<T>(key: MessageKey, values: MessageValues, tags: Record<string, (chunks: (string | T)[]) => T>) {
      const text = plain(key);
      if (text !== null) return [text];
      const parts = formatOf(key).format<T>({ ...values, ...tags });
      return (Array.isArray(parts) ? parts : [parts]) as (string | T)[];
    },
    known(message: string) {
      // The server's and the form checks' messages, found by their English text.
      byEnglishText ??= new Map(
        (Object.keys(fallback) as MessageKey[])
          .filter((key) => key.startsWith('server.') || key.startsWith('form.'))
          .map((key) => [literalOf(fallback[key]) ?? '', key]),
      );
      const key = byEnglishText.get(message);
      return key ? t(key) : message;
    },
  };
}
