import { and, desc, eq, gt, gte, isNotNull, lte, ne, or } from 'drizzle-orm';
import { renderBody } from '../communication/render.js';
import {
  type OrderMailSnapshot,
  templateValuesFor,
  templateVersionText,
  valuesOfSnapshot,
} from '../communication/templates.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { inboundMessages, mailLog, orderRemarks } from '../db/schema.js';

/** The longest request text shown; a longer one is cut (the mail itself has it all). */
export const MAX_REQUEST_TEXT = 4000;

/**
 * The staff's request shown with the action_needed stage (docs/decisions/212): the plain-text body of
 * the latest macro mail (a specific request such as "Request clearer passport photo") queued for the
 * order since it entered its current status, rendered from the template version the mail log names,
 * with the values of the order (the remark as it stood when the mail was queued). The generic status
 * notification is not shown: it only points back at this page. Null when there is none. Plain text:
 * the page shows it as text, never as HTML.
 */
export async function customerRequestText(
  db: DbOrTx,
  config: Config,
  orderId: number,
  since: Date | null,
): Promise<string | null> {
  const mail = await latestRequestMail(db, orderId, since);
  // A reply a member wrote in their own words (decision 392): its text as sent.
  if (mail?.bodyText) return shorten(mail.bodyText);
  if (!mail?.templateId || !mail.templateVersion) return null;
  const template = await templateVersionText(db, mail.templateId, mail.templateVersion);
  if (template?.purpose !== 'customer') return null;
  // The values frozen with the mail (decision 294); older rows: the remark as it stood then.
  if (mail.templateValues) {
    const frozen = valuesOfSnapshot(mail.templateValues as unknown as OrderMailSnapshot, config);
    return shorten(renderBody(template.body, frozen).text);
  }
  const values = await templateValuesFor(db, config, orderId);
  if (!values) return null;
  const [remark] = await db
    .select({ remark: orderRemarks.remark })
    .from(orderRemarks)
    .where(and(eq(orderRemarks.orderId, orderId), lte(orderRemarks.createdAt, mail.createdAt)))
    .orderBy(desc(orderRemarks.createdAt), desc(orderRemarks.id))
    .limit(1);
  return shorten(renderBody(template.body, { ...values, remark: remark?.remark ?? '' }).text);
}

function shorten(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  return trimmed.length > MAX_REQUEST_TEXT ? `${trimmed.slice(0, MAX_REQUEST_TEXT - 1)}…` : trimmed;
}

/**
 * The latest request of the period: a macro mail (a template) or a reply a member wrote, queued since the
 * order entered its status and not cancelled by Undo.
 */
async function latestRequestMail(db: DbOrTx, orderId: number, since: Date | null) {
  const [mail] = await db
    .select({
      templateId: mailLog.templateId,
      templateVersion: mailLog.templateVersion,
      templateValues: mailLog.templateValues,
      bodyText: mailLog.bodyText,
      createdAt: mailLog.createdAt,
    })
    .from(mailLog)
    .where(
      and(
        eq(mailLog.orderId, orderId),
        eq(mailLog.kind, 'macro'),
        ne(mailLog.status, 'cancelled'),
        or(
          and(isNotNull(mailLog.templateId), isNotNull(mailLog.templateVersion)),
          isNotNull(mailLog.bodyText),
        ),
        gte(mailLog.createdAt, since ?? new Date(0)),
      ),
    )
    .orderBy(desc(mailLog.createdAt), desc(mailLog.id))
    .limit(1);
  return mail ?? null;
}

/**
 * Whether the customer answered the current request (decision 392): a message of theirs (mail or the
 * track page's form) attached to the order after the latest request since `since`, or, without one,
 * after `since`.
 */
export async function answeredSinceRequest(
  db: DbOrTx,
  orderId: number,
  since: Date | null,
  /** False: only an answer to an actual request counts (the order is no longer waiting for one). */
  withoutRequest = true,
): Promise<boolean> {
  const request = await latestRequestMail(db, orderId, since);
  if (!request && !withoutRequest) return false;
  const after = request?.createdAt ?? since ?? new Date(0);
  const [answer] = await db
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(
      and(
        eq(inboundMessages.orderId, orderId),
        eq(inboundMessages.disposition, 'attached'),
        gt(inboundMessages.receivedAt, after),
      ),
    )
    .limit(1);
  return answer !== undefined;
}
