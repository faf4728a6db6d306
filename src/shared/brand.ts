import type { CustomerBrand } from './contracts/customer.js';

/**
 * The brands, written once: the mails (server), the customer page (the configuration the server writes
 * into it) and the page's own fallback when no server wrote one (the Vite dev server) all build their
 * names, support addresses and links here. An order belongs to the alternate brand when it came from
 * ALT_LANDING_HOST.
 */

/** The back office's own name (staff screens, staff mails, the authenticator issuer). */
export const STAFF_APP_NAME = 'ED-Card';

export type BrandKey = 'main' | 'alt';

export const BRAND_NAMES: Record<BrandKey, string> = { main: 'Aruba ED Card', alt: 'Aruba Card' };

/** The landing site's pages every brand links to; `benefits` exists on the main brand's site only. */
const PAGES = {
  home: '/',
  apply: '/apply-now',
  benefits: '/additional-benefits',
  terms: '/terms-and-conditions',
  privacy: '/privacy-policy',
  refund: '/refund-policy',
  contact: '/contact-us',
} as const;

export interface Brand {
  key: BrandKey;
  name: string;
  siteUrl: string;
  supportEmail: string;
  links: { terms: string; privacy: string; contact: string; refund: string };
}

export interface BrandOptions {
  /** Base of the links (PUBLIC_SITE_URL); empty: links relative to the page. */
  siteUrl: string;
  /** Landing host of the alternate brand (ALT_LANDING_HOST). */
  altLandingHost?: string | undefined;
  /** The support address of every brand (SUPPORT_EMAIL); unset: support@ the brand's site host. */
  supportEmail?: string | undefined;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** A brand at a site: its name, its support address at the site's host, and the site's page links. */
export function brandAt(key: BrandKey, siteUrl: string, supportHost?: string): Brand {
  const base = trimSlash(siteUrl);
  const host = supportHost ?? new URL(base).hostname;
  return {
    key,
    name: BRAND_NAMES[key],
    siteUrl: base,
    supportEmail: `support@${host}`,
    links: {
      terms: `${base}${PAGES.terms}`,
      privacy: `${base}${PAGES.privacy}`,
      contact: `${base}${PAGES.contact}`,
      refund: `${base}${PAGES.refund}`,
    },
  };
}

/** The brand of an order: the alternate one when it came from ALT_LANDING_HOST. */
export function brandFor(landingDomain: string | null | undefined, opts: BrandOptions): Brand {
  const alt = !!opts.altLandingHost && landingDomain?.toLowerCase() === opts.altLandingHost.toLowerCase();
  const brand = alt ? brandAt('alt', `https://${opts.altLandingHost}`) : brandAt('main', opts.siteUrl);
  return opts.supportEmail ? { ...brand, supportEmail: opts.supportEmail } : brand;
}

/** What the customer page shows of a brand: the mail's brand plus the home, apply and benefits links. */
export function customerBrandOf(brand: Brand): CustomerBrand {
  const withBenefits = brand.key === 'main';
  return {
    name: brand.name,
    siteUrl: brand.siteUrl,
    supportEmail: brand.supportEmail,
    links: {
      home: `${brand.siteUrl}${PAGES.home}`,
      apply: `${brand.siteUrl}${PAGES.apply}`,
      ...(withBenefits ? { benefits: `${brand.siteUrl}${PAGES.benefits}` } : {}),
      ...brand.links,
    },
  };
}
