import { and, eq, sql } from 'drizzle-orm';
import { brandFor } from '../../shared/brand.js';
import type { OrderStatus } from '../../shared/constants.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { orderEvents, orders } from '../db/schema.js';
import { notErased } from './queries.js';
import { translatorFor } from '../translator.js';
import { answerLanguage } from './i18n.js';

/**
 * What the customer's own changes share (docs/product.md, "Customers help themselves"): which statuses
 * allow them, the customer's language and the support address of the order's brand.
 */

/** Statuses before submission: the customer may still correct and cancel (not Awaiting Govt or later). */
export const SELF_SERVICE_STATUSES: readonly OrderStatus[] = [
  'New',
  'Awaiting',
  'Customer Called',
  'Contact Customer',
];
export const selfServiceOpen = (status: string) =>
  (SELF_SERVICE_STATUSES as readonly string[]).includes(status);

/** Edits one order accepts from its customer in a day (rolling 24 hours). */
export const CUSTOMER_EDITS_PER_DAY = 10;

export interface CustomerSide {
  language: CustomerLanguage;
  supportEmail: string;
  t: ReturnType<typeof translatorFor>['t'];
}

/** The order's language (the page's when it sent one) and support address, with its translator. */
export function customerSide(
  config: Config,
  order: { language: string | null; landingDomain: string | null },
  pageLanguage?: string,
): CustomerSide {
  const language = answerLanguage(pageLanguage, order.language);
  const supportEmail = brandFor(order.landingDomain, {
    siteUrl: config.PUBLIC_SITE_URL,
    altLandingHost: config.ALT_LANDING_HOST || undefined,
    supportEmail: config.SUPPORT_EMAIL,
  }).supportEmail;
  return { language, supportEmail, t: translatorFor(language).t };
}

/** The order as the customer routes need it first (language, brand, status), or null (also once erased). */
export async function customerOrder(db: DbOrTx, orderId: number) {
  const [row] = await db
    .select({
      orderId: orders.orderId,
      processStatus: orders.processStatus,
      language: orders.language,
      landingDomain: orders.landingDomain,
      version: orders.version,
    })
    .from(orders)
    .where(and(eq(orders.orderId, sql.placeholder('orderId')), notErased))
    .limit(1)
    .prepare('customer_self_service_order')
    .execute({ orderId });
  return row ?? null;
}

/** The customer's corrections of an order in the last 24 hours (a named prepared statement, as the order's read above). */
export async function customerEditsToday(tx: DbOrTx, orderId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(orderEvents)
    .where(
      and(
        eq(orderEvents.orderId, sql.placeholder('orderId')),
        eq(orderEvents.action, 'correction'),
        eq(orderEvents.actorKind, 'customer'),
        sql`${orderEvents.createdAt} > now() - interval '24 hours'`,
      ),
    )
    .prepare('customer_edits_today')
    .execute({ orderId });
  return row?.n ?? 0;
}
