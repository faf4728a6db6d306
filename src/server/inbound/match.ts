import { and, desc, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { inboundMessages, mailLog, orderEvents, orders } from '../db/schema.js';
import type { InboundMail } from './parse.js';
import { senderAuthenticated } from './sender-authentication.js';
import { mailOfMessageId, orderOfReplyAddress } from '../mail/reply-tokens.js';
import { CLOSED_STATUSES } from '../../shared/constants.js';

/** Which order an inbound mail answers, and what the pipeline knows of a mail before it stores it. */

export const DISPOSITIONS = ['attached', 'unmatched', 'auto-reply', 'bounce', 'duplicate'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export interface InboundResult {
  orderId: number | null;
  disposition: Disposition;
  inboundId: number | null;
}

type MatchRule = 'token' | 'thread' | 'subject' | 'sender' | 'government';

export interface Match {
  orderId: number;
  by: MatchRule;
  mailId?: number | null;
  /**
   * The match may move the order: a signed name (reply address, our Message-ID, a thread), or a sender
   * our receiving server authenticated (decision 350). False: attached, marked, moves nothing.
   */
  verified: boolean;
}

/** Outbox rows named by Message-IDs: our signed ids first (no lookup), then the providers' ids. */
async function mailsByIds(db: DbOrTx, config: Config, ids: string[]) {
  if (!ids.length) return [];
  const signed = ids
    .map((id) => mailOfMessageId(config.JWT_SECRET, id))
    .filter((n): n is number => n !== null);
  const locals = ids.map((id) => id.replace(/^<|>$/g, '').split('@')[0]!).filter((l) => l.length >= 6);
  const rows = await db
    .select({
      id: mailLog.id,
      orderId: mailLog.orderId,
      toEmail: mailLog.toEmail,
      messageId: mailLog.messageId,
      ourMessageId: mailLog.ourMessageId,
      providerMessageId: mailLog.providerMessageId,
    })
    .from(mailLog)
    .where(
      or(
        signed.length ? inArray(mailLog.id, signed) : sql`false`,
        inArray(mailLog.messageId, ids),
        inArray(mailLog.ourMessageId, ids),
        locals.length ? inArray(mailLog.providerMessageId, locals) : sql`false`,
      ),
    )
    .limit(50);
  // Keep the order of `ids` (In-Reply-To first): the nearest message in the thread wins.
  const rank = (r: (typeof rows)[number]) => {
    const i = ids.findIndex(
      (id) =>
        mailOfMessageId(config.JWT_SECRET, id) === r.id ||
        id === r.messageId ||
        id === r.ourMessageId ||
        (r.providerMessageId !== null && id.replace(/^<|>$/g, '').split('@')[0] === r.providerMessageId),
    );
    return i < 0 ? ids.length : i;
  };
  return rows.sort((a, b) => rank(a) - rank(b));
}

/** The order a message answers, strongest rule first (docs/product.md, "Customers answer back"). */
export async function matchOrder(db: DbOrTx, config: Config, mail: InboundMail): Promise<Match | null> {
  const domain = config.INBOUND_REPLY_DOMAIN;
  if (domain) {
    for (const address of mail.recipients) {
      const orderId = orderOfReplyAddress(config.JWT_SECRET, domain, address);
      if (orderId !== null && (await orderExists(db, orderId)))
        return { orderId, by: 'token', verified: true };
    }
  }
  const [thread] = await mailsByIds(db, config, mail.threadIds);
  if (thread) return { orderId: thread.orderId, by: 'thread', mailId: thread.id, verified: true };
  if (mail.threadIds.length) {
    const [earlier] = await db
      .select({ orderId: inboundMessages.orderId })
      .from(inboundMessages)
      .where(
        and(inArray(inboundMessages.messageId, mail.threadIds), sql`${inboundMessages.orderId} is not null`),
      )
      .limit(1);
    if (earlier?.orderId) return { orderId: earlier.orderId, by: 'thread', verified: true };
  }
  if (!mail.fromEmail) return null;
  const verified = senderAuthenticated(
    mail.authResults,
    config.INBOUND_AUTHSERV_ID,
    mail.fromEmail.split('@').pop() ?? '',
  );
  const hash = /#(\d{6,15})\b/.exec(mail.subject);
  if (hash) {
    const orderId = Number(hash[1]);
    const [row] = await db
      .select({ orderId: orders.orderId })
      .from(orders)
      .where(
        and(
          eq(orders.orderId, sql.placeholder('orderId')),
          sql`lower(${orders.email}) = ${sql.placeholder('email')}`,
        ),
      )
      .limit(1)
      .prepare('inbound_match_subject')
      .execute({ orderId, email: mail.fromEmail });
    if (row) return { orderId, by: 'subject', verified };
  }
  const open = await db
    .select({ orderId: orders.orderId })
    .from(orders)
    .where(
      and(
        sql`lower(${orders.email}) = ${mail.fromEmail}`,
        notInArray(orders.processStatus, [...CLOSED_STATUSES]),
      ),
    )
    .limit(2);
  if (open.length === 1) return { orderId: open[0]!.orderId, by: 'sender', verified };
  return null;
}

/** An order whose personal data was erased accepts nothing (decision 352). */
export async function isErased(db: DbOrTx, orderId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, sql.placeholder('orderId')), eq(orderEvents.action, 'erase')))
    .limit(1)
    .prepare('inbound_order_erased')
    .execute({ orderId });
  return !!row;
}

/**
 * The mail a delivery report is about, by a name only we can make (decision 351): our signed Message-ID
 * (the returned Message-ID or X-ED-Card-Message-Id), or our signed reply address (the report sent to it,
 * or the returned Reply-To) and then that order's mail to the reported recipient. Anything else (an
 * order number, a provider's id, an address) names nothing.
 */
export async function reportedMail(
  db: DbOrTx,
  config: Config,
  mail: InboundMail,
): Promise<{ id: number; orderId: number } | null> {
  const report = mail.report!;
  const signed = report.originalIds
    .map((id) => mailOfMessageId(config.JWT_SECRET, id))
    .filter((n): n is number => n !== null);
  if (signed.length) {
    const [row] = await db
      .select({ id: mailLog.id, orderId: mailLog.orderId })
      .from(mailLog)
      .where(inArray(mailLog.id, signed))
      .orderBy(desc(mailLog.id))
      .limit(1);
    return row ?? null;
  }
  const domain = config.INBOUND_REPLY_DOMAIN;
  if (!domain) return null;
  const orderId = [...report.originalReplyTo, ...mail.recipients]
    .map((a) => orderOfReplyAddress(config.JWT_SECRET, domain, a))
    .find((n): n is number => n !== null);
  if (orderId === undefined) return null;
  const [row] = await db
    .select({ id: mailLog.id, orderId: mailLog.orderId })
    .from(mailLog)
    .where(
      and(
        eq(mailLog.orderId, orderId),
        eq(mailLog.status, 'sent'),
        report.recipient ? sql`lower(${mailLog.toEmail}) = ${report.recipient}` : undefined,
      ),
    )
    .orderBy(desc(mailLog.id))
    .limit(1);
  return row ?? null;
}

export async function orderExists(db: DbOrTx, orderId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.orderId })
    .from(orders)
    .where(eq(orders.orderId, sql.placeholder('orderId')))
    .limit(1)
    .prepare('inbound_order_exists')
    .execute({ orderId });
  return !!row;
}

/** Our own mail coming back (a forwarding loop, a copy to ourselves): never recorded. */
export function isOwnMail(config: Config, mail: InboundMail): boolean {
  if (mail.messageId && mailOfMessageId(config.JWT_SECRET, mail.messageId) !== null) return true;
  const ours = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM;
  return !!mail.fromEmail && mail.fromEmail === ours.trim().toLowerCase() && mail.ourOrderHeader !== null;
}
