/**
 * The approval notice (docs/product.md, "Mail"): one template for the mail sent with the
 * approved document, the reminder, the "View Email Content" modal and the customer preview.
 */

import { brandFor } from '../../shared/brand.js';

/** The brands are written once, in src/shared/brand.ts (mails, customer page and its fallback). */
export { brandFor };

export interface ApprovalNoticeOrder {
  order_id: number;
  first_name: string;
  last_name: string;
  email: string;
  landing_domain?: string | null;
}

export interface ApprovalNoticeOptions {
  /** Base of the links (PUBLIC_SITE_URL). */
  siteUrl: string;
  /** Landing host of the alternate brand (ALT_LANDING_HOST); orders from it get that brand. */
  altLandingHost?: string;
  /** SUPPORT_EMAIL: the support address of every brand. */
  supportEmail?: string | undefined;
  /** The one reminder mail (not downloaded yet) instead of the first notice. */
  reminder?: boolean;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Link to the customer's track-order page (served by this service for both brands). */
export function trackOrderUrl(orderId: number, opts: Pick<ApprovalNoticeOptions, 'siteUrl'>): string {
  return `${trimSlash(opts.siteUrl)}/track-order/${orderId}`;
}

export const VALIDITY_TEXT =
  'Your approved Embarkation/Disembarkation Card is valid for the trip in your application: one entry into ' +
  'Aruba and your departure. Keep a printed or digital copy with you and show it on arrival if asked.';

export function renderApprovalNotice(order: ApprovalNoticeOrder, opts: ApprovalNoticeOptions): RenderedMail {
  const brand = brandFor(order.landing_domain, opts);
  const track = trackOrderUrl(order.order_id, opts);
  const name = `${order.first_name} ${order.last_name}`.trim();
  const subject = opts.reminder
    ? `Reminder: your Aruba ED Card is ready to download (order ${order.order_id})`
    : `Your Aruba ED Card has been approved (order ${order.order_id})`;
  const intro = opts.reminder
    ? 'Your application was approved, but the card has not been downloaded yet. Please download it before you travel.'
    : 'Good news: your Aruba Embarkation Disembarkation Card application has been approved. The approved card is attached to this e-mail.';

  const text = [
    `Dear ${name},`,
    '',
    intro,
    '',
    `Username: ${order.email}`,
    `Order ID: ${order.order_id}`,
    `Track your order and download the card: ${track}`,
    '',
    VALIDITY_TEXT,
    '',
    `Need help? Contact support: ${brand.supportEmail} (${brand.links.contact})`,
    '',
    `Terms & Conditions: ${brand.links.terms}`,
    `Privacy Policy: ${brand.links.privacy}`,
    `Contact Us: ${brand.links.contact}`,
    `Refund Policy: ${brand.links.refund}`,
    '',
    `${brand.name}`,
  ].join('\n');

  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="margin:0;background:#f4f6f8;font-family:Arial,Helvetica,sans-serif;color:#222">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#fff;border-radius:8px;padding:24px">
<tr><td><h1 style="font-size:22px;margin:0 0 16px">${e(brand.name)}</h1>
<p>Dear ${e(name)},</p>
<p>${e(intro)}</p>
<table role="presentation" cellpadding="4" cellspacing="0" style="margin:12px 0">
<tr><td><strong>Username</strong></td><td>${e(order.email)}</td></tr>
<tr><td><strong>Order ID</strong></td><td>${e(String(order.order_id))}</td></tr>
</table>
<p><a href="${e(track)}" style="display:inline-block;background:#0d6efd;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">Track your order</a></p>
<p>${e(VALIDITY_TEXT)}</p>
<p>Need help? Contact support at <a href="mailto:${e(brand.supportEmail)}">${e(brand.supportEmail)}</a>.</p>
<hr style="border:none;border-top:1px solid #ddd;margin:20px 0">
<p style="font-size:12px;color:#666">
<a href="${e(brand.links.terms)}">Terms &amp; Conditions</a> |
<a href="${e(brand.links.privacy)}">Privacy Policy</a> |
<a href="${e(brand.links.contact)}">Contact Us</a> |
<a href="${e(brand.links.refund)}">Refund Policy</a>
</p></td></tr></table></td></tr></table>
</body></html>`;
  return { subject, html, text };
}
