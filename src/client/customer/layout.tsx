import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ToastContainer } from 'react-toastify';
import type { MessageKey } from '../../shared/i18n/en';
import { CUSTOMER_LANGUAGES, type CustomerLanguage, LANGUAGE_NAMES } from '../../shared/languages';
import { type Brand, type BrandKey, brandOf, rememberBrand, rememberedBrand } from './brand';
import { I18nProvider, useI18n } from './i18n';
import { loadTranslateWidget, TRANSLATE_ELEMENT_ID } from './translate-widget';
import './customer.css';

interface LayoutState {
  brand: Brand;
  setBrand: (key: BrandKey) => void;
}

const LayoutContext = createContext<LayoutState | null>(null);

/** The brand of the page and a way for a page to switch it (the order's landing_domain decides). */
export function useBrand(): LayoutState {
  const state = useContext(LayoutContext);
  if (!state) throw new Error('useBrand outside the customer layout');
  return state;
}

/** The customer's language picker: each language named in itself. */
function LanguagePicker() {
  const { t, language, choose } = useI18n();
  return (
    <label className="c-language">
      <span className="c-sr-only">{t.t('language.label')}</span>
      <select value={language} onChange={(e) => choose(e.currentTarget.value as CustomerLanguage)}>
        {CUSTOMER_LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

function Header({ brand }: { brand: Brand }) {
  const [open, setOpen] = useState(false);
  const { t } = useI18n();
  const { links } = brand;
  const items: [MessageKey, string | undefined][] = [
    ['nav.home', links.home],
    ['nav.apply', links.apply],
    ['nav.benefits', brand.key === 'main' ? links.benefits : undefined],
    ['nav.terms', links.terms],
    ['nav.privacy', links.privacy],
    ['nav.refund', links.refund],
    ['nav.contact', links.contact],
  ];
  return (
    <header className="c-header">
      <div className="c-header-bar">
        <a className="c-logo" href={links.home}>
          <img src={brand.logo} alt={brand.name} width="200" height="48" />
        </a>
        <div className="c-header-tools">
          <LanguagePicker />
          <button
            type="button"
            className="c-menu-toggle"
            aria-expanded={open}
            aria-controls="customer-nav"
            onClick={() => setOpen((v) => !v)}
          >
            <span className="c-menu-icon" aria-hidden="true" />
            <span className="c-sr-only">{t.t(open ? 'layout.closeMenu' : 'layout.openMenu')}</span>
          </button>
        </div>
      </div>
      <nav
        id="customer-nav"
        className={open ? 'c-nav c-nav-open' : 'c-nav'}
        aria-label={t.t('layout.mainNav')}
      >
        <ul>
          {items.map(([key, href]) =>
            href ? (
              <li key={key}>
                <a href={href}>{t.t(key)}</a>
              </li>
            ) : null,
          )}
        </ul>
        <div id={TRANSLATE_ELEMENT_ID} className="c-translate" />
      </nav>
    </header>
  );
}

function Footer({ brand }: { brand: Brand }) {
  const { t } = useI18n();
  return (
    <footer className="c-footer">
      <p>
        {t.t('layout.footer', { brand: brand.name })}{' '}
        <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
      </p>
    </footer>
  );
}

function toastPosition() {
  return window.matchMedia?.('(max-width: 480px)').matches ? 'bottom-center' : 'top-right';
}

function Layout({ children }: { children: ReactNode }) {
  const [key, setKey] = useState<BrandKey>(rememberedBrand);
  const brand = useMemo(() => brandOf(key), [key]);
  useEffect(() => {
    // After first paint: the widget is never on the critical path.
    const timer = setTimeout(loadTranslateWidget, 0);
    return () => clearTimeout(timer);
  }, []);
  const setBrand = useCallback((next: BrandKey) => {
    rememberBrand(next);
    setKey(next);
  }, []);
  const state = useMemo(() => ({ brand, setBrand }), [brand, setBrand]);
  const { t } = useI18n();
  return (
    <LayoutContext.Provider value={state}>
      <div className={`c-page c-brand-${brand.key}`}>
        <a className="c-skip" href="#customer-main">
          {t.t('layout.skip')}
        </a>
        <Header brand={brand} />
        <main id="customer-main" className="c-main">
          {children}
        </main>
        <Footer brand={brand} />
      </div>
      {/* Error toasts stay until closed (docs/decisions/143), one of each kind (notify.ts); on a phone at the bottom. */}
      <ToastContainer position={toastPosition()} autoClose={false} closeOnClick={false} draggable />
    </LayoutContext.Provider>
  );
}

/**
 * Header, footer and toasts around a customer page. The customer entry wraps its routes once, so the
 * layout (and a toast shown just before navigating) survives the move from one page to the other; a page
 * rendered alone (the SPA's own routes, e.g. on the Vite dev server) brings its own.
 */
export function CustomerLayout({ children }: { children: ReactNode }) {
  const outer = useContext(LayoutContext);
  return outer ? (
    children
  ) : (
    <I18nProvider>
      <Layout>{children}</Layout>
    </I18nProvider>
  );
}
