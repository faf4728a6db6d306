// The templates screen and its API: listing, reading, creating, saving a new version and deleting templates.
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type {
  MailTemplate,
  MailTemplateBody,
  TemplateLanguage,
  TemplatePurpose,
} from '../../shared/contracts/communication.js';
import { statusName } from '../../shared/order-rules.js';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import {
  macros,
  mailTemplates,
  mailTemplateVersions,
  staffUsers,
  statusNotifications,
} from '../db/schema.js';
import { conflict, notFound } from '../http/errors.js';

const iso = (d: Date) => d.toISOString();

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
