import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CustomerBrand, CustomerPageConfig } from '../../shared/contracts/customer.js';
import type { Config } from '../config.js';
import { brandFor, customerBrandOf } from '../../shared/brand.js';
import { escapeHtml } from '../communication/approval-notice.js';

/** Paths the customer page owns (docs/product.md, "The traveller's side"). */
const CUSTOMER_PATH = /^\/(track-order|get-new-order-details|rate-order)(\/[^/?#]*)?\/?(\?|#|$)/;

export function isCustomerPath(url: string): boolean {
  return CUSTOMER_PATH.test(url);
}

/** The customer page: its own small build (docs/decisions/050), written by `vite build` beside the SPA. */
export const CUSTOMER_HTML = path.join('customer', 'index.html');
const CONFIG_PLACEHOLDER = '<!--edcard-customer-config-->';

/**
 * Origins the Google Website Translator loads from after its bootstrap script (styles, images, the
 * translation calls). Other widgets need only their own origin.
 */
const GOOGLE_TRANSLATE_ORIGINS = [
  'https://translate.google.com',
  'https://translate.googleapis.com',
  'https://translate-pa.googleapis.com',
  'https://www.gstatic.com',
  'https://fonts.gstatic.com',
  'https://www.google.com',
];

export function translateWidgetOrigins(widgetUrl: string | undefined): string[] {
  if (!widgetUrl) return [];
  const origin = new URL(widgetUrl).origin;
  return origin === 'https://translate.google.com' ? GOOGLE_TRANSLATE_ORIGINS : [origin];
}

function toCustomerBrand(landingDomain: string | null, config: Config): CustomerBrand {
  return customerBrandOf(
    brandFor(landingDomain, {
      siteUrl: config.PUBLIC_SITE_URL,
      altLandingHost: config.ALT_LANDING_HOST || undefined,
      supportEmail: config.SUPPORT_EMAIL,
    }),
  );
}

export function customerPageConfig(request: FastifyRequest, config: Config): CustomerPageConfig {
  const alt = config.ALT_LANDING_HOST.trim().toLowerCase();
  const main = toCustomerBrand(null, config);
  return {
    hostBrand: alt !== '' && request.hostname.toLowerCase() === alt ? 'alt' : 'main',
    brands: { main, alt: alt ? toCustomerBrand(alt, config) : { ...main, links: { ...main.links } } },
    ...(config.TRANSLATE_WIDGET_URL ? { translateWidgetUrl: config.TRANSLATE_WIDGET_URL } : {}),
  };
}

/** Helmet's policy plus the translation widget's origins, on customer pages only. */
export function customerCsp(base: string, widgetOrigins: string[]): string {
  if (widgetOrigins.length === 0) return base;
  const extra = widgetOrigins.join(' ');
  const directives = base
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => (/^(script-src|style-src|img-src|connect-src|font-src) /.test(d) ? `${d} ${extra}` : d));
  if (!directives.some((d) => d.startsWith('frame-src '))) directives.push(`frame-src 'self' ${extra}`);
  return directives.join(';');
}

/**
 * Serves the customer page with its configuration in a meta tag. Without a customer build (e.g. an
 * older dist) the SPA's own customer routes answer instead.
 */
export async function sendCustomerPage(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  clientDist: string,
): Promise<FastifyReply> {
  let html: string;
  try {
    html = await readFile(path.join(clientDist, CUSTOMER_HTML), 'utf8');
  } catch {
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html', clientDist);
  }
  const pageConfig = customerPageConfig(request, config);
  const meta = `<meta name="edcard-customer" content="${escapeHtml(JSON.stringify(pageConfig))}" />`;
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string') {
    reply.header(
      'content-security-policy',
      customerCsp(csp, translateWidgetOrigins(config.TRANSLATE_WIDGET_URL)),
    );
  }
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send(html.replace(CONFIG_PLACEHOLDER, meta));
}
