import { checkItem } from '../orders/order-checks.js';
import { isCustomerLanguage } from '../../shared/languages.js';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  type MailTemplate,
  type MailTemplateBody,
  TEMPLATE_LANGUAGES,
  type TemplateLanguage,
  type TemplatePurpose,
} from '../../shared/contracts/communication.js';
import type { OrderStatus } from '../../shared/constants.js';
import { statusName } from '../../shared/order-rules.js';
import { recordAudit } from '../audit/audit.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import {
  macros,
  mailTemplates,
  mailTemplateVersions,
  orderRemarks,
  orders,
  staffUsers,
  statusNotifications,
} from '../db/schema.js';
import { conflict, notFound } from '../http/errors.js';
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

const iso = (d: Date) => d.toISOString();

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

// --- The templates screen and API ------------------------------------------------------------------

type TemplateRow = typeof mailTemplates.$inferSelect;

async function versionsOf(db: DbOrTx, templateId: number) {
  const rows = await db
    .select({ v: mailTemplateVersions, by: staffUsers.name })
    .from(mailTemplateVersions)
    .leftJoin(staffUsers, eq(staffUsers.id, mailTemplateVersions.createdBy))
    .where(eq(mailTemplateVersions.templateId, templateId))
    .orderBy(desc(mailTemplateVersions.version));
  return rows.map(({ v, by }) => ({
    version: v.version,
    subject: v.subject,
    body: v.body,
    createdBy: by ?? null,
    createdAt: iso(v.createdAt),
  }));
}

export async function listTemplates(db: DbOrTx): Promise<MailTemplate[]> {
  const rows = await db
    .select({ t: mailTemplates, v: mailTemplateVersions })
    .from(mailTemplates)
    .innerJoin(
      mailTemplateVersions,
      and(
        eq(mailTemplateVersions.templateId, mailTemplates.id),
        eq(mailTemplateVersions.version, mailTemplates.currentVersion),
      ),
    )
    .where(isNull(mailTemplates.deletedAt))
    .orderBy(mailTemplates.key, mailTemplates.language);
  return rows.map(({ t, v }) => templateOf(t, v));
}

function templateOf(t: TemplateRow, v: typeof mailTemplateVersions.$inferSelect): MailTemplate {
  return {
    id: t.id,
    key: t.key,
    name: t.name,
    language: t.language,
    purpose: t.purpose,
    version: v.version,
    subject: v.subject,
    body: v.body,
    updatedAt: iso(t.updatedAt),
  };
}

export async function getTemplate(db: DbOrTx, id: number): Promise<MailTemplate> {
  const [row] = await db
    .select({ t: mailTemplates, v: mailTemplateVersions })
    .from(mailTemplates)
    .innerJoin(
      mailTemplateVersions,
      and(
        eq(mailTemplateVersions.templateId, mailTemplates.id),
        eq(mailTemplateVersions.version, mailTemplates.currentVersion),
      ),
    )
    .where(and(eq(mailTemplates.id, id), isNull(mailTemplates.deletedAt)))
    .limit(1);
  if (!row) throw notFound('No such mail template.');
  return { ...templateOf(row.t, row.v), versions: await versionsOf(db, id) };
}

/** The purpose of a key: every language of one key serves one purpose. */
async function assertPurposeOfKey(tx: DbOrTx, key: string, purpose: TemplatePurpose, exceptId?: number) {
  const [other] = await tx
    .select({ id: mailTemplates.id, purpose: mailTemplates.purpose })
    .from(mailTemplates)
    .where(and(eq(mailTemplates.key, key), isNull(mailTemplates.deletedAt)))
    .limit(1);
  if (other && other.id !== exceptId && other.purpose !== purpose) {
    throw conflict(
      `Templates with the key ${key} are for ${other.purpose} mails; use that purpose or another key.`,
    );
  }
}

/** One live template per key and language: a second one is refused (the message ends with `ending`). */
async function assertKeyLanguageFree(tx: DbOrTx, key: string, language: TemplateLanguage, ending: string) {
  const [clash] = await tx
    .select({ id: mailTemplates.id })
    .from(mailTemplates)
    .where(
      and(eq(mailTemplates.key, key), eq(mailTemplates.language, language), isNull(mailTemplates.deletedAt)),
    )
    .limit(1);
  if (clash) throw conflict(`A template ${key} in ${language} exists already${ending}`);
}

/**
 * A key for a new template named `name`: its letters and digits in lower case joined by dashes, with a
 * number added when a template (of any language, deleted ones too) already has it, so it names a new mail.
 */
async function newKeyFromName(tx: DbOrTx, name: string): Promise<string> {
  const base =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 50)
      .replace(/-+$/, '') || 'template';
  const stem = base.length >= 2 ? base : `template-${base}`;
  const { rows } = await tx.execute<{ key: string }>(
    sql`select key from mail_templates where key = ${stem} or key like ${`${stem}-%`}`,
  );
  const taken = new Set(rows.map((r) => r.key));
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n += 1) if (!taken.has(`${stem}-${n}`)) return `${stem}-${n}`;
}

export async function createTemplate(db: DbOrTx, actor: StaffIdentity, body: MailTemplateBody) {
  return db.transaction(async (tx) => {
    const key = body.key ?? (await newKeyFromName(tx, body.name));
    await assertPurposeOfKey(tx, key, body.purpose);
    await assertKeyLanguageFree(tx, key, body.language, '; change that one.');
    const [t] = await tx
      .insert(mailTemplates)
      .values({
        key,
        language: body.language,
        purpose: body.purpose,
        name: body.name,
        createdBy: actor.id,
      })
      .returning();
    await tx.insert(mailTemplateVersions).values({
      templateId: t!.id,
      version: 1,
      subject: body.subject,
      body: body.body,
      createdBy: actor.id,
    });
    await recordAudit(tx, {
      action: 'template.create',
      actorId: actor.id,
      target: `template ${t!.id} (${key}, ${body.language})`,
      to: { name: body.name, subject: body.subject, version: 1 },
    });
    return t!.id;
  });
}

/** Every save is a new version; the older ones stay (the mail log names them). */
export async function updateTemplate(db: DbOrTx, actor: StaffIdentity, id: number, body: MailTemplateBody) {
  return db.transaction(async (tx) => {
    const [t] = await tx
      .select()
      .from(mailTemplates)
      .where(and(eq(mailTemplates.id, id), isNull(mailTemplates.deletedAt)))
      .for('update');
    if (!t) throw notFound('No such mail template.');
    const key = body.key ?? t.key;
    if (
      t.purpose !== 'customer' &&
      (key !== t.key || body.language !== t.language || body.purpose !== t.purpose)
    ) {
      throw conflict('The key, language and purpose of a built-in mail template cannot change.');
    }
    await assertPurposeOfKey(tx, key, body.purpose, id);
    if (key !== t.key || body.language !== t.language) {
      await assertKeyLanguageFree(tx, key, body.language, '.');
    }
    const [current] = await tx
      .select()
      .from(mailTemplateVersions)
      .where(
        and(eq(mailTemplateVersions.templateId, id), eq(mailTemplateVersions.version, t.currentVersion)),
      );
    const version = t.currentVersion + 1;
    await tx.insert(mailTemplateVersions).values({
      templateId: id,
      version,
      subject: body.subject,
      body: body.body,
      createdBy: actor.id,
    });
    await tx
      .update(mailTemplates)
      .set({
        key,
        language: body.language,
        purpose: body.purpose,
        name: body.name,
        currentVersion: version,
        updatedAt: sql`now()`,
      })
      .where(eq(mailTemplates.id, id));
    await recordAudit(tx, {
      action: 'template.update',
      actorId: actor.id,
      target: `template ${id} (${key}, ${body.language})`,
      from: { name: t.name, subject: current?.subject, version: t.currentVersion },
      to: { name: body.name, subject: body.subject, version },
    });
  });
}

/**
 * Deletes a template (kept with its versions for the mail log). A built-in mail's English template and
 * a template a macro or status notification still uses (with no other language left) are refused.
 */
export async function deleteTemplate(db: DbOrTx, actor: StaffIdentity, id: number) {
  await db.transaction(async (tx) => {
    const [t] = await tx
      .select()
      .from(mailTemplates)
      .where(and(eq(mailTemplates.id, id), isNull(mailTemplates.deletedAt)))
      .for('update');
    if (!t) throw notFound('No such mail template.');
    if (t.language === 'en') {
      if (t.purpose !== 'customer')
        throw conflict('The English template of a built-in mail cannot be deleted.');
      const [usedByMacro] = await tx
        .select({ name: macros.name })
        .from(macros)
        .where(eq(macros.templateKey, t.key))
        .limit(1);
      if (usedByMacro)
        throw conflict(`The macro "${usedByMacro.name}" sends this template; change it first.`);
      const [usedByStatus] = await tx
        .select({ status: statusNotifications.status })
        .from(statusNotifications)
        .where(and(eq(statusNotifications.templateKey, t.key), eq(statusNotifications.enabled, true)))
        .limit(1);
      if (usedByStatus) {
        throw conflict(
          `Orders entering ${statusName(usedByStatus.status)} are mailed this template; change the notification first.`,
        );
      }
    }
    await tx
      .update(mailTemplates)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(mailTemplates.id, id));
    await recordAudit(tx, {
      action: 'template.delete',
      actorId: actor.id,
      target: `template ${id} (${t.key}, ${t.language})`,
      from: { name: t.name, version: t.currentVersion },
    });
  });
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
