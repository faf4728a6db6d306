import { type BrandKey, brandAt, customerBrandOf } from '../../shared/brand';
import type { CustomerBrand, CustomerPageConfig } from '../../shared/contracts/customer';
import altLogo from './logo-alt.svg';
import mainLogo from './logo-main.svg';

export type { BrandKey };

export interface Brand extends CustomerBrand {
  key: BrandKey;
  logo: string;
}

/** Used when the page was not served by the API server (e.g. the Vite dev server): relative links. */
const FALLBACK: CustomerPageConfig = {
  hostBrand: 'main',
  brands: {
    main: customerBrandOf(brandAt('main', '', 'ed-card.test')),
    alt: customerBrandOf(brandAt('alt', '', 'ed-card.test')),
  },
};

let cached: CustomerPageConfig | null = null;

/** The configuration the server wrote into the page (`<meta name="edcard-customer">`). */
export function pageConfig(): CustomerPageConfig {
  if (cached) return cached;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="edcard-customer"]');
  try {
    cached = meta ? (JSON.parse(meta.content) as CustomerPageConfig) : FALLBACK;
  } catch {
    cached = FALLBACK;
  }
  return cached;
}

export function brandOf(key: BrandKey): Brand {
  const config = pageConfig();
  return { ...config.brands[key], key, logo: key === 'alt' ? altLogo : mainLogo };
}

const BRAND_KEY = 'edcard-customer-brand';

/** The brand of the last tracked order: the track page keeps it after a reload. */
export function rememberedBrand(): BrandKey {
  try {
    const value = sessionStorage.getItem(BRAND_KEY);
    if (value === 'alt' || value === 'main') return value;
  } catch {
    // Storage blocked (private mode): the host decides.
  }
  return pageConfig().hostBrand;
}

export function rememberBrand(key: BrandKey): void {
  try {
    sessionStorage.setItem(BRAND_KEY, key);
  } catch {
    // Not fatal: only the logo of a later visit depends on it.
  }
}
