import { and, desc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { KIND_TEMPLATE_KEYS } from '../communication/builtin-templates.js';
import { renderTemplate } from '../communication/render.js';
import {
  customerLanguageOf,
  type OrderMailSnapshot,
  resolveTemplate,
  type TemplateText,
  templateValuesFor,
  templateVersionText,
  valuesOfSnapshot,
} from '../communication/templates.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { inboundMessages, mailLog } from '../db/schema.js';
import { readStored } from '../documents/storage.js';
import { documentById, loadOrder } from '../orders/repository.js';
import { ourMessageId, replyAddress } from './reply-tokens.js';
import { buildInvoicePdf } from '../pdf/build.js';

type MailRow = typeof mailLog.$inferSelect;

export class PermanentMailError extends Error {}

/**
 * The template version a mail is built from: the one recorded on its row when it was queued, or, for a
 * row written without one (the reminder scan, another writer), the current template of its kind in
 * the customer's language, which is then recorded on the row (docs/decisions/200).
 */
async function templateOf(db: DbOrTx, mail: MailRow): Promise<TemplateText> {
  if (mail.templateId !== null && mail.templateVersion !== null) {
    const recorded = await templateVersionText(db, mail.templateId, mail.templateVersion);
    if (!recorded)
      throw new PermanentMailError(`template ${mail.templateId} v${mail.templateVersion} not found`);
    return recorded;
  }
  const key = KIND_TEMPLATE_KEYS[mail.kind as keyof typeof KIND_TEMPLATE_KEYS];
  if (!key) throw new PermanentMailError(`unknown mail kind ${mail.kind}`);
  const template = await resolveTemplate(db, key, await customerLanguageOf(db, mail.orderId));
  if (!template) throw new PermanentMailError(`no template ${key}`);
  await db
    .update(mailLog)
    .set({ templateId: template.id, templateVersion: template.version })
    .where(and(eq(mailLog.id, mail.id), isNull(mailLog.templateId)));
  return template;
}

/** A mail's values: those frozen when it was queued, or (a row without them) the order as it is now. */
function mailValues(db: DbOrTx, config: Config, mail: Pick<MailRow, 'orderId' | 'templateValues'>) {
  return mail.templateValues
    ? valuesOfSnapshot(mail.templateValues as unknown as OrderMailSnapshot, config)
    : templateValuesFor(db, config, mail.orderId);
}

/**
 * A logged mail as it was built (subject, HTML and text): its recorded template version, or the current
 * template of its kind for a row that names none; read-only. Null when no template is found.
 */
export async function loggedMailRendered(
  db: DbOrTx,
  config: Config,
  mail: Pick<MailRow, 'orderId' | 'kind' | 'templateId' | 'templateVersion' | 'templateValues'>,
) {
  const values = await mailValues(db, config, mail);
  if (!values) return null;
  let template: TemplateText | null = null;
  if (mail.templateId !== null && mail.templateVersion !== null) {
    template = await templateVersionText(db, mail.templateId, mail.templateVersion);
  } else {
    const key = KIND_TEMPLATE_KEYS[mail.kind as keyof typeof KIND_TEMPLATE_KEYS];
    if (key) template = await resolveTemplate(db, key, await customerLanguageOf(db, mail.orderId));
  }
  return template ? renderTemplate(template, values) : null;
}

/** What a logged mail said (subject and plain text), for evidence (see loggedMailRendered). */
export async function loggedMailContent(
  db: DbOrTx,
  config: Config,
  mail: Pick<MailRow, 'orderId' | 'kind' | 'templateId' | 'templateVersion' | 'templateValues'> & {
    bodyText?: string | null;
    toEmail?: string;
  },
): Promise<{ subject: string; text: string } | null> {
  // A staff reply written as free text (decision 328): its own words, no template.
  if (mail.bodyText && mail.templateId === null)
    return { subject: await staffReplySubject(db, mail.orderId, mail.toEmail ?? null), text: mail.bodyText };
  const rendered = await loggedMailRendered(db, config, mail);
  return rendered ? { subject: rendered.subject, text: rendered.text } : null;
}

/**
 * Builds the message of a mail_log row from its template version and the values frozen when it was
 * queued (decision 294); a row written without them (the reminder scan) reads the order as it is now.
 */
export async function composeMail(db: DbOrTx, config: Config, mail: MailRow): Promise<Mail.Options> {
  const order = await loadOrder(db, mail.orderId, config.APP_MAIL_DOMAIN);
  if (order && mail.bodyText !== null && mail.templateId === null) {
    // A staff reply written as free text: their words, in the customer's thread (decision 328).
    return {
      to: mail.toEmail,
      ...threadHeaders(config, mail),
      ...(await customerThread(db, mail.orderId, mail.toEmail)),
      subject: await staffReplySubject(db, mail.orderId, mail.toEmail),
      text: mail.bodyText,
    };
  }
  const values = order ? await mailValues(db, config, mail) : null;
  if (!order || !values) throw new PermanentMailError(`order ${mail.orderId} not found`);
  const template = await templateOf(db, mail);
  const base = {
    to: mail.toEmail,
    ...threadHeaders(config, mail),
    ...(await customerThread(db, mail.orderId, mail.toEmail)),
    ...renderTemplate(template, values),
  };

  switch (mail.kind) {
    case 'approval':
    case 'resend': {
      if (!mail.documentId) throw new PermanentMailError('no document to attach');
      const doc = await documentById(db, mail.documentId);
      if (!doc) throw new PermanentMailError(`document ${mail.documentId} not found`);
      if (doc.withdrawnAt) throw new PermanentMailError('the document was withdrawn');
      const content = await readStored(config, doc.storageKey);
      if (!content) throw new PermanentMailError('the stored document file is missing');
      return {
        ...base,
        attachments: [{ filename: doc.originalName, content, contentType: doc.mimeType }],
      };
    }
    case 'invoice': {
      const pdf = await buildInvoicePdf(config, order, mail.createdAt);
      return {
        ...base,
        attachments: [
          {
            filename: `invoice-${order.order_id}.pdf`,
            content: Buffer.from(pdf),
            contentType: 'application/pdf',
          },
        ],
      };
    }
    default:
      return base;
  }
}

/**
 * The headers that let an answer find its order (docs/decisions/305): our signed Message-ID, carried
 * again in X-ED-Card-Message-Id for a provider that rewrites Message-ID; the per-order reply address
 * when INBOUND_REPLY_DOMAIN is set; Auto-Submitted on mails no staff member asked for (RFC 3834).
 */
export function threadHeaders(
  config: Config,
  mail: Pick<MailRow, 'id' | 'orderId' | 'requestedBy'>,
): Pick<Mail.Options, 'messageId' | 'replyTo' | 'headers'> {
  const messageId = ourMessageId(config.JWT_SECRET, config.APP_MAIL_DOMAIN, mail.id);
  const headers: Record<string, string> = {
    'X-ED-Card-Order': String(mail.orderId),
    'X-ED-Card-Message-Id': messageId,
  };
  if (mail.requestedBy === null) headers['Auto-Submitted'] = 'auto-generated';
  const domain = config.INBOUND_REPLY_DOMAIN;
  return {
    messageId,
    headers,
    ...(domain ? { replyTo: replyAddress(config.JWT_SECRET, domain, mail.orderId) } : {}),
  };
}

/**
 * Messages of the order written by the mail's recipient: from their address, or on the track page. A
 * stray mail from someone else attached to the order never lends its thread or subject to a mail to the
 * order's customer (decision 359).
 */
const fromRecipient = (to: string | null) =>
  to === null
    ? sql`true`
    : or(
        isNull(inboundMessages.fromEmail),
        sql`lower(${inboundMessages.fromEmail}) = ${to.trim().toLowerCase()}`,
      );

/** A mail after the customer wrote continues their thread: In-Reply-To and References to their last mail. */
async function customerThread(
  db: DbOrTx,
  orderId: number,
  to: string,
): Promise<Pick<Mail.Options, 'inReplyTo' | 'references'>> {
  const [last] = await db
    .select({ messageId: inboundMessages.messageId })
    .from(inboundMessages)
    .where(
      and(
        eq(inboundMessages.orderId, orderId),
        eq(inboundMessages.disposition, 'attached'),
        isNotNull(inboundMessages.messageId),
        fromRecipient(to),
      ),
    )
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
    .limit(1);
  return last?.messageId ? { inReplyTo: last.messageId, references: [last.messageId] } : {};
}

/**
 * The subject of a free-text staff reply: "Re:" and the customer's last subject when they wrote, else the
 * order number in the form the inbound matching reads back (`#<order id>`).
 */
async function staffReplySubject(db: DbOrTx, orderId: number, to: string | null): Promise<string> {
  const [last] = await db
    .select({ subject: inboundMessages.subject })
    .from(inboundMessages)
    .where(
      and(
        eq(inboundMessages.orderId, orderId),
        eq(inboundMessages.disposition, 'attached'),
        fromRecipient(to),
      ),
    )
    .orderBy(desc(inboundMessages.receivedAt), desc(inboundMessages.id))
    .limit(1);
  const subject = last?.subject?.replace(/[\r\n]+/g, ' ').trim();
  if (subject) return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
  return `ED-Card #${orderId}`;
}
