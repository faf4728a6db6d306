import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { orderEvents, orders } from '../db/schema.js';
import { notErased } from './queries.js';

/** The tracking answer's queries; its words in the customer's language are i18n.ts's. */

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
