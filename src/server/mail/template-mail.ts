import { and, eq, isNull, sql } from 'drizzle-orm';
import { refundedSoFar } from '../payments/refunded-so-far.js';
import {
  MAIL_HOLD_SECONDS,
  type MailKind,
  type MailProvider,
  type OrderStatus,
} from '../../shared/constants.js';
import type { PendingMail } from '../../shared/contracts/order-detail.js';
import { minorToDecimal } from '../../shared/money.js';
import { completionMailSuppressed } from '../../shared/order-rules.js';
import type { DbOrTx } from '../db/client.js';
import { mailTemplates, statusNotifications } from '../db/schema.js';
import { assertCustomerMailAllowed, repeatedMailMinutes } from './limits.js';
import { writeMail } from './outbox.js';
import { customerLanguageOf, orderSnapshotFor, resolveTemplate } from '../communication/templates.js';

/** An order that has just entered a status, as the status change knows it. */
export interface EnteredOrder {
  orderId: number;
  email: string;
  /** The status it left. */
  processStatus: OrderStatus;
}

export interface TemplateMailInput {
  orderId: number;
  /** The template key; the order's language picks the translation (English when it has none). */
  templateKey: string;
  /** mail_log.kind: 'notification' (status), 'macro', or 'refund' for the refund confirmation. */
  kind: MailKind;
  toEmail: string;
  provider?: MailProvider;
  requestedBy: number | null;
  /** A mail caused by a move or a macro waits for the undo window (MAIL_HOLD_SECONDS). Default true. */
  hold?: boolean;
  /**
   * Skip the mail if the same template went to the order within the repeat window. Default true; a
   * scheduled step that happens once by itself (the waiting policy's reminders) turns it off.
   */
  repeatGuard?: boolean;
}

/** What happened to a template mail: queued (maybe held for Undo), or skipped as a repeat. */
export type TemplateMailResult =
  | { queued: true; mail: PendingMail }
  | { queued: false; reason: 'repeat'; minutes: number; templateName: string };

/** What the providers refunded of the order's payment (minor units; 0 when none is recorded). */
const refundedThroughProvider = (tx: DbOrTx, orderId: number) => refundedSoFar(tx, orderId, ['succeeded']);

async function templateNameOf(tx: DbOrTx, templateId: number): Promise<string> {
  const [t] = await tx
    .select({ name: mailTemplates.name })
    .from(mailTemplates)
    .where(eq(mailTemplates.id, templateId))
    .limit(1);
  return t?.name ?? '';
}

/**
 * Queues a template mail in the outbox (mail_log) with the template version it will be built from, its
 * values as they are now (decision 294) and its order event, in the caller's transaction. The same
 * template mailed to the order within the repeat window is skipped; over the customer-mail limits the
 * whole change is refused (429). Null when the key has no template (nothing queued).
 */
export async function queueTemplateMail(
  tx: DbOrTx,
  input: TemplateMailInput,
): Promise<TemplateMailResult | null> {
  const language = await customerLanguageOf(tx, input.orderId);
  const template = await resolveTemplate(tx, input.templateKey, language);
  if (!template) return null;
  const templateName = await templateNameOf(tx, template.id);
  const repeat =
    input.repeatGuard === false ? null : await repeatedMailMinutes(tx, input.orderId, template.key);
  if (repeat !== null) return { queued: false, reason: 'repeat', minutes: repeat, templateName };
  await assertCustomerMailAllowed(tx, input.orderId, input.requestedBy);
  const snapshot = await orderSnapshotFor(tx, input.orderId);
  // The refund confirmation states the amount actually refunded through a provider (a partial
  // refund closed by "refund and close" included), not the order's price.
  if (snapshot && input.kind === 'refund') {
    const refunded = await refundedThroughProvider(tx, input.orderId);
    if (refunded > 0) snapshot.amount = minorToDecimal(refunded, snapshot.currency);
  }
  const provider = input.provider ?? 'AWS';
  const hold = input.hold ?? true;
  const row = await writeMail(
    tx,
    {
      orderId: input.orderId,
      kind: input.kind,
      toEmail: input.toEmail,
      provider,
      requestedBy: input.requestedBy,
      templateId: template.id,
      templateVersion: template.version,
      templateValues: snapshot as unknown as Record<string, unknown> | null,
      holdUntil: hold ? sql`now() + make_interval(secs => ${MAIL_HOLD_SECONDS})` : null,
    },
    `${input.kind} ${template.key} (${template.language})`,
  );
  if (!row) return null;
  return {
    queued: true,
    mail: {
      mailId: row!.id,
      kind: input.kind,
      templateName,
      language: template.language,
      heldUntil: row.holdUntil?.toISOString() ?? null,
    },
  };
}

/** The customer mails a status change caused: queued (held for Undo) and skipped as repeats. */
export interface StatusMails {
  queued: PendingMail[];
  /** Template names not sent again because the customer got them minutes ago. */
  repeats: { templateName: string; minutes: number }[];
}

/**
 * Queues the customer mails for orders that entered status `to`, in the caller's transaction (the one
 * of the move and its order event), as the status's notification setting says. A restore (out of
 * Deleted) mails nobody; `skip` is for a change that sends its own mail (a macro's, the approval notice);
 * an order leaving ChargeBack for Completed gets no mail (completionMailSuppressed).
 */
export async function notifyStatusEntered(
  tx: DbOrTx,
  actorId: number | null,
  entered: readonly EnteredOrder[],
  to: OrderStatus,
  opts: { restore?: boolean | undefined; skip?: boolean | undefined } = {},
): Promise<StatusMails> {
  const result: StatusMails = { queued: [], repeats: [] };
  // Out of ChargeBack into Completed the customer gets no mail (src/shared/order-rules.ts).
  const mailed = entered.filter((o) => !completionMailSuppressed(o.processStatus, to));
  if (opts.restore || opts.skip || !mailed.length) return result;
  const [setting] = await tx
    .select()
    .from(statusNotifications)
    .where(eq(statusNotifications.status, to))
    .limit(1);
  if (!setting?.enabled || !setting.templateKey) return result;
  const [template] = await tx
    .select({ purpose: mailTemplates.purpose })
    .from(mailTemplates)
    .where(and(eq(mailTemplates.key, setting.templateKey), isNull(mailTemplates.deletedAt)))
    .limit(1);
  const kind = template?.purpose === 'refund' ? 'refund' : 'notification';
  for (const o of mailed) {
    const r = await queueTemplateMail(tx, {
      orderId: o.orderId,
      templateKey: setting.templateKey,
      kind,
      toEmail: o.email,
      requestedBy: actorId,
      // A bulk change (Refunded it) offers no Undo: its mails go at once.
      hold: entered.length === 1,
    });
    if (r?.queued) result.queued.push(r.mail);
    else if (r) result.repeats.push({ templateName: r.templateName, minutes: r.minutes });
  }
  return result;
}
