import { checkItem } from '../orders/order-checks.js';
import { isCustomerLanguage } from '../../shared/languages.js';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  TEMPLATE_LANGUAGES,
  type TemplateLanguage,
  type TemplatePurpose,
} from '../../shared/contracts/communication.js';
import type { OrderStatus } from '../../shared/constants.js';
import { statusName } from '../../shared/order-rules.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { mailTemplates, mailTemplateVersions, orderRemarks, orders } from '../db/schema.js';
import { brandFor, trackOrderUrl } from './approval-notice.js';
import { invoiceNumber } from '../pdf/invoice.js';
import { type RenderedParts, renderTemplate, type TemplateValues } from './render.js';

/** One version of a template, ready to render. */
export interface TemplateText {
  id: number;
  key: string;
  version: number;
  language: TemplateLanguage;
  purpose: TemplatePurpose;
  subject: string;
  body: string;
}

/**
 * The language to write to a customer in: the order's `language` (the customer's choice), English when
 * none is known. Every customer mail asks this one function.
 */
export async function customerLanguageOf(db: DbOrTx, orderId: number): Promise<TemplateLanguage> {
  const [row] = await db
    .select({ language: orders.language })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  const language = row?.language;
  return (TEMPLATE_LANGUAGES as readonly string[]).includes(language ?? '')
    ? (language as TemplateLanguage)
    : 'en';
}

/** The current version of the template `key` in `language`, or in English when that language has none. */
export async function resolveTemplate(
  db: DbOrTx,
  key: string,
  language: TemplateLanguage,
): Promise<TemplateText | null> {
  const rows = await db
    .select({
      id: mailTemplates.id,
      key: mailTemplates.key,
      language: mailTemplates.language,
      purpose: mailTemplates.purpose,
      version: mailTemplateVersions.version,
      subject: mailTemplateVersions.subject,
      body: mailTemplateVersions.body,
    })
    .from(mailTemplates)
    .innerJoin(
      mailTemplateVersions,
      and(
        eq(mailTemplateVersions.templateId, mailTemplates.id),
        eq(mailTemplateVersions.version, mailTemplates.currentVersion),
      ),
    )
    .where(
      and(
        eq(mailTemplates.key, key),
        isNull(mailTemplates.deletedAt),
        sql`${mailTemplates.language} in (${language}, 'en')`,
      ),
    );
  return rows.find((r) => r.language === language) ?? rows.find((r) => r.language === 'en') ?? null;
}

/** A recorded version (what a mail_log row names), whether or not the template was deleted since. */
export async function templateVersionText(
  db: DbOrTx,
  templateId: number,
  version: number,
): Promise<TemplateText | null> {
  const [row] = await db
    .select({
      id: mailTemplates.id,
      key: mailTemplates.key,
      language: mailTemplates.language,
      purpose: mailTemplates.purpose,
      version: mailTemplateVersions.version,
      subject: mailTemplateVersions.subject,
      body: mailTemplateVersions.body,
    })
    .from(mailTemplateVersions)
    .innerJoin(mailTemplates, eq(mailTemplates.id, mailTemplateVersions.templateId))
    .where(and(eq(mailTemplateVersions.templateId, templateId), eq(mailTemplateVersions.version, version)))
    .limit(1);
  return row ?? null;
}

/**
 * What a mail says about its order, read once when the mail is queued and kept on its row (decision
 * 294): the order's own fields and its latest remark. Links and brand come from the configuration.
 */
export interface OrderMailSnapshot {
  orderId: number;
  firstName: string;
  lastName: string;
  email: string;
  arrivalDate: string | null;
  amount: string;
  currency: string;
  landingDomain: string | null;
  processStatus: OrderStatus;
  remark: string;
  /** The failing checks the customer is asked about, one line each, in the order's language. */
  failingChecks?: string;
}

export async function orderSnapshotFor(db: DbOrTx, orderId: number): Promise<OrderMailSnapshot | null> {
  const [o] = await db
    .select({
      orderId: orders.orderId,
      firstName: orders.firstName,
      lastName: orders.lastName,
      email: orders.email,
      arrivalDate: orders.arrivalDate,
      amount: orders.amount,
      currency: orders.currency,
      landingDomain: orders.landingDomain,
      processStatus: orders.processStatus,
      checks: orders.checks,
      language: orders.language,
    })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!o) return null;
  // Information-only checks (a minor travelling) are not asked about.
  const language = isCustomerLanguage(o.language) ? o.language : 'en';
  const failing = o.checks
    .filter(
      (c) =>
        c.severity !== 'info' &&
        !['early_fraud_warning', 'possible_duplicate', 'card_mismatch', 'card_duplicate'].includes(c.code),
    )
    .map((c) => `• ${checkItem(c, language).message}`);
  const [remark] = await db
    .select({ remark: orderRemarks.remark })
    .from(orderRemarks)
    .where(eq(orderRemarks.orderId, orderId))
    .orderBy(desc(orderRemarks.createdAt), desc(orderRemarks.id))
    .limit(1);
  const { checks: _checks, language: _language, ...fields } = o;
  return { ...fields, remark: remark?.remark ?? '', failingChecks: failing.join('\n') };
}

/** The template values of a snapshot: its order fields, and the brand and links of the configuration. */
export function valuesOfSnapshot(o: OrderMailSnapshot, config: Config): TemplateValues {
  const opts = {
    siteUrl: config.PUBLIC_SITE_URL,
    altLandingHost: config.ALT_LANDING_HOST,
    supportEmail: config.SUPPORT_EMAIL,
  };
  const brand = brandFor(o.landingDomain, opts);
  return {
    first_name: o.firstName,
    last_name: o.lastName,
    full_name: `${o.firstName} ${o.lastName}`.trim(),
    email: o.email,
    order_id: String(o.orderId),
    arrival_date: o.arrivalDate ?? '',
    amount: o.amount,
    currency: o.currency,
    invoice_number: invoiceNumber(o.orderId),
    status: statusName(o.processStatus),
    remark: o.remark,
    brand_name: brand.name,
    track_url: trackOrderUrl(o.orderId, opts),
    site_url: brand.siteUrl,
    terms_url: brand.links.terms,
    privacy_url: brand.links.privacy,
    contact_url: brand.links.contact,
    refund_url: brand.links.refund,
    support_email: brand.supportEmail,
    failing_checks: o.failingChecks ?? '',
  };
}

/** The values of every template variable for one order (brand by the order's landing site). */
export async function templateValuesFor(
  db: DbOrTx,
  config: Config,
  orderId: number,
): Promise<TemplateValues | null> {
  const snapshot = await orderSnapshotFor(db, orderId);
  return snapshot ? valuesOfSnapshot(snapshot, config) : null;
}

/** Renders a template text for one order; null when the order does not exist. */
export async function renderForOrder(
  db: DbOrTx,
  config: Config,
  orderId: number,
  template: Pick<TemplateText, 'subject' | 'body' | 'language'>,
): Promise<RenderedParts | null> {
  const values = await templateValuesFor(db, config, orderId);
  return values ? renderTemplate(template, values) : null;
}

/**
 * A template mail of one order as the customer gets it now: the current template of `key` in the
 * customer's language (English when it has none). Null when the order or the template does not exist.
 */
export async function renderCurrentForOrder(
  db: DbOrTx,
  config: Config,
  orderId: number,
  key: string,
): Promise<RenderedParts | null> {
  const template = await resolveTemplate(db, key, await customerLanguageOf(db, orderId));
  return template ? renderForOrder(db, config, orderId, template) : null;
}
