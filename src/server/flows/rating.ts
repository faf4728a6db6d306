import type { FastifyInstance } from 'fastify';
import { and, eq, notExists, sql } from 'drizzle-orm';
import { CUSTOMER_MSG } from '../../shared/contracts/customer.js';
import type { FeedbackPolicy } from '../../shared/contracts/self-service.js';
import { recordAudit } from '../audit/audit.js';
import { publishNotice } from '../live/notices.js';
import type { Config } from '../config.js';
import type { Db, DbOrTx } from '../db/client.js';
import { mailLog, orderContacts, orderRatings, orders, ratingRequests } from '../db/schema.js';
import { sqlValue } from '../db/sql-lists.js';
import { badRequest, unauthorized } from '../http/errors.js';
import { writeMail } from '../mail/outbox.js';
import { inTransaction } from '../orders/transaction.js';
import { recordEvents } from '../orders/events.js';
import { type CheckSettings, setOrderFlag } from '../orders/order-checks.js';
import { customerSide } from '../customer/self-service.js';
import { getFeedbackPolicy } from '../customer/self-service-settings.js';
import { ratingLink, validRatingSignature } from '../customer/rating-links.js';
import { now } from '../clock.js';

/**
 * "How did we do?" (docs/product.md, "Customers help themselves"): the mail once per order after it is
 * Completed with its card sent, the customer's rating (one per order, a later one replaces it), and for
 * a score of 1 or 2 a call-back for the Telecallers within the hour, the check dispute_risk and a live
 * notice to the managers.
 */

/** A score this low or lower asks for a call-back. */
export const LOW_SCORE = 2;

/** Orders rated: a completed order whose card was sent (an approval or resend mail delivered). */
const cardSent = (orderId: unknown) => sql`exists (
  select 1 from ${mailLog} m where m.order_id = ${orderId} and m.kind in ('approval', 'resend') and m.status = 'sent')`;

export async function rateOrder(
  ctx: { db: Db; config: Config; settings: CheckSettings },
  orderId: number,
  input: { score: number; comment?: string | undefined },
  ip: string | null,
): Promise<{ score: number; comment: string; thanks: string }> {
  const { db, config, settings } = ctx;
  const comment = input.comment ?? '';
  return inTransaction(db, async (tx) => {
    // One statement: the order locked (an erased one answers as unknown), its previous rating, and the
    // rating written when the order is Completed.
    const { rows } = await tx.execute<{
      process_status: string;
      language: string | null;
      landing_domain: string | null;
      previous_score: number | null;
      previous_comment: string | null;
    }>(sql`
      with o as (
        select order_id, process_status, language, landing_domain from ${orders}
        where order_id = ${orderId}
          and not exists (select 1 from order_events e where e.order_id = ${orderId} and e.action = 'erase')
        for update),
      previous as (select score, comment from ${orderRatings} where order_id = ${orderId}),
      written as (
        insert into ${orderRatings} (order_id, score, comment)
        select order_id, ${input.score}, ${comment} from o where process_status = ${sqlValue('Completed')}
        on conflict (order_id) do update set score = excluded.score, comment = excluded.comment, updated_at = now()
        returning 1)
      select o.process_status, o.language, o.landing_domain,
             previous.score as previous_score, previous.comment as previous_comment
      from o left join previous on true`);
    const order = rows[0];
    if (!order || order.process_status === 'Deleted') throw unauthorized(CUSTOMER_MSG.sessionExpired);
    const side = customerSide(config, { language: order.language, landingDomain: order.landing_domain });
    if (order.process_status !== 'Completed') throw badRequest(side.t('self.rating.linkInvalid'));
    const previous =
      order.previous_score === null
        ? null
        : { score: order.previous_score, comment: order.previous_comment ?? '' };
    await recordAudit(tx, {
      action: 'order.rating',
      actorEmail: 'customer',
      target: `order ${orderId}`,
      from: previous ? { score: previous.score, comment: previous.comment } : null,
      to: { score: input.score, comment },
      ip,
    });
    const wasLow = !!previous && previous.score <= LOW_SCORE;
    if (input.score <= LOW_SCORE && !wasLow) {
      const note = `Rated ${input.score} of 5${comment ? `: ${comment}` : ''}`.slice(0, 1000);
      await tx.insert(orderContacts).values({
        orderId,
        staffId: null,
        channel: 'call',
        outcome: 'call_back',
        callBackAt: sql`now() + interval '1 hour'` as unknown as Date,
        note,
      });
      await recordEvents(tx, [
        {
          orderId,
          actorKind: 'customer',
          action: 'contact',
          toValue: `call call_back (rated ${input.score} of 5)`,
        },
      ]);
      await setOrderFlag(tx, orderId, 'dispute_risk', true, settings, now());
      await publishNotice(tx, ['Admin', 'Manager'], {
        kind: 'low-rating',
        text: `Order #${orderId} was rated ${input.score} of 5`,
        orderId,
        score: input.score,
      });
    }
    return { score: input.score, comment, thanks: side.t('self.rating.thanks') };
  });
}

/** The rating call with the mail's signed link instead of the customer token. */
export function assertRatingLink(config: Config, orderId: number, signature: string | undefined): void {
  if (!signature || !validRatingSignature(config.JWT_SECRET, orderId, signature)) {
    throw unauthorized(CUSTOMER_MSG.sessionExpired);
  }
}

/** The orders whose "How did we do?" mail is due now (at most `limit`). */
async function dueForFeedback(db: DbOrTx, policy: FeedbackPolicy, limit: number) {
  return db
    .select({
      orderId: orders.orderId,
      email: orders.email,
      firstName: orders.firstName,
      lastName: orders.lastName,
      language: orders.language,
      landingDomain: orders.landingDomain,
    })
    .from(orders)
    .where(
      and(
        eq(orders.processStatus, 'Completed'),
        notExists(
          db.select({ one: sql`1` }).from(ratingRequests).where(eq(ratingRequests.orderId, orders.orderId)),
        ),
        sql`exists (
          select 1 from ${mailLog} m where m.order_id = ${orders.orderId} and m.kind in ('approval', 'resend')
            and m.status = 'sent' and m.updated_at <= now() - make_interval(mins => ${policy.askAfterMinutes}))`,
      ),
    )
    .limit(limit);
}

/** One pass of the feedback job: each due order gets its mail once (the request row guards it). */
export async function askForFeedback(db: Db, config: Config, limit = 100): Promise<number> {
  const policy = await getFeedbackPolicy(db);
  if (!policy.enabled) return 0;
  let sent = 0;
  for (const order of await dueForFeedback(db, policy, limit)) {
    await inTransaction(db, async (tx) => {
      const [claimed] = await tx
        .insert(ratingRequests)
        .values({ orderId: order.orderId })
        .onConflictDoNothing()
        .returning({ orderId: ratingRequests.orderId });
      if (!claimed) return;
      const side = customerSide(config, order);
      const values = {
        orderId: String(order.orderId),
        name: `${order.firstName} ${order.lastName}`.trim(),
      };
      const links = [1, 2, 3, 4, 5]
        .map(
          (n) =>
            `${side.t('self.rating.score', { score: n })}: ${ratingLink(config.PUBLIC_SITE_URL, config.JWT_SECRET, order.orderId, n)}`,
        )
        .join('\n');
      await writeMail(
        tx,
        {
          orderId: order.orderId,
          kind: 'notification',
          toEmail: order.email,
          provider: 'AWS',
          requestedBy: null,
          bodyText: `${side.t('self.rating.mailSubject', values)}\n\n${side.t('self.rating.mailBody', values)}\n\n${links}`,
        },
        'feedback request',
      );
      sent++;
    });
  }
  return sent;
}

/** Whether the order's card was sent (the track page asks the question then). */
export async function ratingAsked(db: DbOrTx, orderId: number): Promise<boolean> {
  const [row] = await db
    .select({ asked: sql<boolean>`${cardSent(orderId)}` })
    .from(orders)
    .where(and(eq(orders.orderId, orderId), eq(orders.processStatus, 'Completed')));
  return !!row?.asked;
}

/** Runs the feedback requests every minute on this instance (each order's mail still goes once). */
export async function startFeedbackRequests(app: FastifyInstance): Promise<() => Promise<void>> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = askForFeedback(app.ctx.db, app.ctx.config)
      .catch((err) => app.log.warn({ err }, 'feedback requests failed'))
      .finally(() => {
        running = null;
      });
  }, 60_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
