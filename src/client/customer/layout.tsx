import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ToastContainer } from 'react-toastify';
import { type Brand, type BrandKey, brandOf, rememberBrand, rememberedBrand } from './brand';
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

function Header({ brand }: { brand: Brand }) {
  const [open, setOpen] = useState(false);
  const { links } = brand;
  const items: [string, string | undefined][] = [
    ['Home', links.home],
    ['Apply Now', links.apply],
    ['Additional Benefits', brand.key === 'main' ? links.benefits : undefined],
    ['Terms & Conditions', links.terms],
    ['Privacy Policy', links.privacy],
    ['Refund Policy', links.refund],
    ['Contact Us', links.contact],
  ];
  return (
    <header className="c-header">
      <div className="c-header-bar">
        <a className="c-logo" href={links.home}>
          <img src={brand.logo} alt={brand.name} width="200" height="48" />
        </a>
        <button
          type="button"
          className="c-menu-toggle"
          aria-expanded={open}
          aria-controls="customer-nav"
          onClick={() => setOpen((v) => !v)}
        >
          <span className="c-menu-icon" aria-hidden="true" />
          <span className="c-sr-only">{open ? 'Close menu' : 'Open menu'}</span>
        </button>
      </div>
      <nav id="customer-nav" className={open ? 'c-nav c-nav-open' : 'c-nav'} aria-label="Main">
        <ul>
          {items.map(([label, href]) =>
            href ? (
              <li key={label}>
                <a href={href}>{label}</a>
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
  return (
    <footer className="c-footer">
      <p>
        © 2025 {brand.name}. All rights reserved.{' '}
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
  return (
    <LayoutContext.Provider value={state}>
      <div className={`c-page c-brand-${brand.key}`}>
        <a className="c-skip" href="#customer-main">
          Skip to content
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
  return outer ? children : <Layout>{children}</Layout>;
}
