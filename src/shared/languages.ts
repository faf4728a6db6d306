/**
 * The customer's languages (docs/decisions/210, 213). The customer pages and customer mails speak one of
 * these; `orders.language` stores the customer's last choice. English is the source language: every
 * other catalog falls back to it key by key.
 */
export const CUSTOMER_LANGUAGES = ['en', 'es', 'nl', 'pap', 'pt'] as const;
export type CustomerLanguage = (typeof CUSTOMER_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: CustomerLanguage = 'en';

/** Each language's name in that language, for the picker. */
export const LANGUAGE_NAMES: Record<CustomerLanguage, string> = {
  en: 'English',
  es: 'Español',
  nl: 'Nederlands',
  pap: 'Papiamento',
  pt: 'Português',
};

/** The longest language tag considered; anything longer is not a language and is ignored. */
const MAX_TAG_LENGTH = 35;

export function isCustomerLanguage(value: unknown): value is CustomerLanguage {
  return typeof value === 'string' && (CUSTOMER_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The customer language of a BCP 47 tag ("es-AR" → es, "pap-AW" → pap, "pt-BR" → pt), or null. Only
 * the primary subtag counts; "pa" (Punjabi) is not Papiamento.
 */
export function languageOfTag(tag: unknown): CustomerLanguage | null {
  if (typeof tag !== 'string' || tag.length === 0 || tag.length > MAX_TAG_LENGTH) return null;
  if (!/^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$/.test(tag)) return null;
  const primary = tag.split(/[-_]/)[0]!.toLowerCase();
  return isCustomerLanguage(primary) ? primary : null;
}

/** The first customer language among preferred tags (navigator.languages, or a parsed Accept-Language). */
export function firstCustomerLanguage(tags: readonly unknown[]): CustomerLanguage | null {
  for (const tag of tags.slice(0, 20)) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return null;
}

/**
 * The tags of an Accept-Language header, best first (q-values honoured, q=0 dropped). A header longer
 * than 1,000 characters is cut there; malformed parts are skipped.
 */
export function acceptLanguageTags(header: string | string[] | undefined): string[] {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const parts = value
    .slice(0, 1000)
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((p) => p.tag !== '' && p.tag !== '*' && p.q > 0);
  parts.sort((a, b) => b.q - a.q || a.index - b.index);
  return parts.map((p) => p.tag);
}

/** Where a customer page's language comes from, in the order it is chosen. */
export interface LanguageSources {
  /** `?lang=` in the page address. */
  query?: string | null;
  /** The customer's remembered choice (localStorage or cookie). */
  remembered?: string | null;
  /** The browser's preferred languages (navigator.languages, or Accept-Language on the server). */
  preferred?: readonly string[];
}

/** `?lang=`, then the remembered choice, then the browser's languages, then English. */
export function chooseLanguage(sources: LanguageSources): CustomerLanguage {
  return (
    languageOfTag(sources.query) ??
    languageOfTag(sources.remembered) ??
    firstCustomerLanguage(sources.preferred ?? []) ??
    DEFAULT_LANGUAGE
  );
}
