import type { OrderStatus } from '../../shared/constants.js';
import { and, desc, eq } from 'drizzle-orm';
import { type CustomerStage, customerStageOf } from '../../shared/customer-stage.js';
import { type CustomerLanguage, DEFAULT_LANGUAGE, isCustomerLanguage } from '../../shared/languages.js';
import { formatDate, serviceToday } from '../../shared/dates.js';
import type { DbOrTx } from '../db/client.js';
import { orderEvents, orders } from '../db/schema.js';
import { notErased } from './queries.js';
import { translatorFor } from '../translator.js';

/** The language to answer in: the page's, else the order's stored one, else English. */
export function answerLanguage(pageLanguage: string | undefined, stored: string | null): CustomerLanguage {
  if (isCustomerLanguage(pageLanguage)) return pageLanguage;
  return isCustomerLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

/** The stage of a status with its message in a language (support e-mail and order id filled in). */
export function stageAnswer(
  status: OrderStatus,
  language: CustomerLanguage,
  values: { orderId: number; supportEmail: string },
): { stage: CustomerStage; stageMessage: string } {
  const { stage, messageKey } = customerStageOf(status);
  const stageMessage = translatorFor(language).t(messageKey, {
    orderId: String(values.orderId),
    supportEmail: values.supportEmail,
  });
  return { stage, stageMessage };
}

/** "Submitted to the government on <date>" in a language, once the order was marked submitted. */
export function submittedLine(
  submittedAt: Date | null | undefined,
  language: CustomerLanguage,
): string | null {
  if (!submittedAt) return null;
  return translatorFor(language).t('stage.submittedOn', { date: formatDate(serviceToday(submittedAt)) });
}

/**
 * An order as the track call needs it, deleted or not: one primary-key lookup whatever the outcome, so a
 * wrong id, a wrong e-mail and a deleted order cost the same.
 */
export async function findTrackedOrder(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select({
      orderId: orders.orderId,
      email: orders.email,
      processStatus: orders.processStatus,
      landingDomain: orders.landingDomain,
      language: orders.language,
    })
    .from(orders)
    .where(and(eq(orders.orderId, orderId), notErased))
    .limit(1);
  return row ?? null;
}

/** What the tracking answer adds to the summary: the status, the stored language, when the status began. */
export async function stageFacts(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select({
      processStatus: orders.processStatus,
      language: orders.language,
      submittedAt: orders.submittedAt,
    })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!row) return null;
  const [entered] = await db
    .select({ at: orderEvents.createdAt })
    .from(orderEvents)
    .where(
      and(
        eq(orderEvents.orderId, orderId),
        eq(orderEvents.action, 'status'),
        eq(orderEvents.toValue, row.processStatus),
      ),
    )
    .orderBy(desc(orderEvents.createdAt), desc(orderEvents.id))
    .limit(1);
  return { ...row, statusSince: entered?.at ?? null };
}
