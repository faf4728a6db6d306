import type { OrderStatus } from '../../shared/constants.js';
import { type CustomerStage, customerStageOf } from '../../shared/customer-stage.js';
import { formatDate, serviceToday } from '../../shared/dates.js';
import { type CustomerLanguage, DEFAULT_LANGUAGE, isCustomerLanguage } from '../../shared/languages.js';
import { translatorFor } from '../translator.js';

/**
 * The customer answers' words: which language an answer is in, and the texts of the tracking answer in
 * it, through the server's translator (translator.ts). The queries behind them are stage-queries.ts.
 */

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
