import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';
import type { MessageKey } from '../../shared/i18n/en';
import { type AnyCatalog, createTranslator, type Message, type Translator } from '../../shared/i18n/format';
import {
  type CustomerLanguage,
  chooseLanguage,
  DEFAULT_LANGUAGE,
  isCustomerLanguage,
  languageOfTag,
} from '../../shared/languages';
import enMessages from './messages/en.json';

/**
 * The customer pages' languages (docs/decisions/213): the catalogs of src/shared/i18n compiled to
 * message ASTs (scripts/i18n-compile.mjs), so the page ships intl-messageformat without its parser.
 * English is built in (it is the source and the fallback of every key); each other language is its own
 * lazy chunk, loaded only when chosen.
 */
type Compiled = { default: unknown };
const LOADERS: Record<Exclude<CustomerLanguage, 'en'>, () => Promise<Compiled>> = {
  es: () => import('./messages/es.json'),
  nl: () => import('./messages/nl.json'),
  pap: () => import('./messages/pap.json'),
  pt: () => import('./messages/pt.json'),
};
const EN = enMessages as unknown as Record<MessageKey, Message>;
const english = createTranslator('en', EN, EN);

export const LANGUAGE_STORAGE_KEY = 'edcard-customer-language';

/** The customer's remembered choice (the picker or a `?lang=` link), or null. */
export function rememberedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function rememberLanguage(language: CustomerLanguage): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage blocked: the choice lasts as long as the page.
  }
}

export interface PageLanguage {
  language: CustomerLanguage;
  /** The customer chose it (`?lang=` or the picker), rather than the browser's preference. */
  chosen: boolean;
}

/** `?lang=`, then the remembered choice, then navigator.languages, then English. A `?lang=` is remembered. */
export function pageLanguage(search = window.location.search): PageLanguage {
  const query = new URLSearchParams(search).get('lang');
  const remembered = rememberedLanguage();
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  const language = chooseLanguage({ query, remembered, preferred });
  const fromQuery = languageOfTag(query) !== null;
  if (fromQuery) rememberLanguage(language);
  return { language, chosen: fromQuery || languageOfTag(remembered) !== null };
}

const loaded = new Map<CustomerLanguage, Translator>([['en', english]]);

/** The translator of a language: English at once, another after its chunk; English if the chunk fails. */
export async function loadTranslator(language: CustomerLanguage): Promise<Translator> {
  const ready = loaded.get(language);
  if (ready) return ready;
  if (language === 'en') return english;
  try {
    const { default: catalog } = await LOADERS[language]();
    const translator = createTranslator(language, catalog as AnyCatalog, EN);
    loaded.set(language, translator);
    return translator;
  } catch {
    return english;
  }
}

interface I18nState extends PageLanguage {
  t: Translator;
  /** Switches the page to a language the customer picked, and remembers it. */
  choose: (language: CustomerLanguage) => void;
}

const I18nContext = createContext<I18nState | null>(null);

const fallbackState: I18nState = {
  language: DEFAULT_LANGUAGE,
  chosen: false,
  t: english,
  choose: () => {},
};

/** The page's translator; English outside a provider (a customer page rendered inside the staff SPA). */
export function useI18n(): I18nState {
  return useContext(I18nContext) ?? fallbackState;
}

/** Chooses the page language once, renders in it (already loaded by main.tsx when it can be) and lets the picker change it. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [initial] = useState(pageLanguage);
  const [state, setState] = useState<PageLanguage & { t: Translator }>(() => ({
    ...initial,
    t: loaded.get(initial.language) ?? english,
  }));
  useEffect(() => {
    // Not preloaded (a page rendered without main.tsx): load now, English meanwhile.
    if (state.t.language !== state.language) {
      void loadTranslator(state.language).then((t) => setState((s) => ({ ...s, t })));
    }
  }, [state.language, state.t.language]);
  // Set in the same commit as the text, so the page never reads in one language and is tagged another.
  useLayoutEffect(() => {
    document.documentElement.lang = state.t.language;
  }, [state.t.language]);
  const choose = useCallback((language: CustomerLanguage) => {
    if (!isCustomerLanguage(language)) return;
    rememberLanguage(language);
    void loadTranslator(language).then((t) => setState({ language, chosen: true, t }));
  }, []);
  const value = useMemo(() => ({ ...state, choose }), [state, choose]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** Loads the chosen language's chunk before the first render, so the page never flashes in English. */
export function preloadPageLanguage(): Promise<unknown> {
  return loadTranslator(pageLanguage().language);
}
