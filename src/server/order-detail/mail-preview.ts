import { eq } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import type { MailPreview } from '../../shared/contracts/order-detail.js';
import { completionMailSuppressed } from '../../shared/order-rules.js';
import { renderForOrder, customerLanguageOf, resolveTemplate } from '../communication/templates.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { macros, mailTemplates, orders, statusNotifications } from '../db/schema.js';
import { conflict, notFound } from '../http/errors.js';
import { repeatedMailMinutes } from '../mail/limits.js';
import { NO_CARD_MESSAGE } from '../orders/status-checks.js';
import { latestDocument } from '../orders/repository.js';

/** The template key a move to `status` mails, as its notification setting says (null: none). */
async function notificationKey(db: DbOrTx, status: OrderStatus): Promise<string | null> {
  const [setting] = await db
    .select()
    .from(statusNotifications)
    .where(eq(statusNotifications.status, status))
    .limit(1);
  return setting?.enabled && setting.templateKey ? setting.templateKey : null;
}

/**
 * What the customer would get from a move or a macro, before it is done (decision 298): the template's
 * name and language and the mail rendered for this order. Null when the action mails nobody.
 */
export async function previewCustomerMail(
  db: DbOrTx,
  config: Config,
  orderId: number,
  query: { status?: OrderStatus | undefined; macroId?: number | undefined },
): Promise<MailPreview> {
  const [order] = await db
    .select({ id: orders.orderId, status: orders.processStatus })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!order) throw notFound('Order not found');
  let key: string | null = null;
  if (query.macroId !== undefined) {
    const [macro] = await db.select().from(macros).where(eq(macros.id, query.macroId)).limit(1);
    if (!macro) throw notFound('No such macro.');
    key =
      macro.moveTo && completionMailSuppressed(order.status, macro.moveTo)
        ? null
        : (macro.templateKey ?? (macro.moveTo ? await notificationKey(db, macro.moveTo) : null));
  } else if (query.status) {
    // A move that will be refused announces no mail: it says why instead (decision 296).
    if (query.status === 'Completed' && !(await latestDocument(db, orderId))) {
      throw conflict(NO_CARD_MESSAGE, { orders: [{ orderId, message: NO_CARD_MESSAGE }] });
    }
    // Out of ChargeBack into Completed the customer gets no mail (src/shared/order-rules.ts).
    key = completionMailSuppressed(order.status, query.status)
      ? null
      : await notificationKey(db, query.status);
  }
  if (!key) return null;
  const template = await resolveTemplate(db, key, await customerLanguageOf(db, orderId));
  if (!template) return null;
  const rendered = await renderForOrder(db, config, orderId, template);
  if (!rendered) return null;
  const [named] = await db
    .select({ name: mailTemplates.name })
    .from(mailTemplates)
    .where(eq(mailTemplates.id, template.id))
    .limit(1);
  return {
    templateName: named?.name ?? key,
    language: template.language,
    subject: rendered.subject,
    html: rendered.html,
    repeatMinutes: await repeatedMailMinutes(db, orderId, key),
  };
}
