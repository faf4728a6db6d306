import { sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { senderAuthenticated } from '../inbound/sender-authentication.js';
import type { InboundMail } from '../inbound/parse.js';
import type { InboundResult } from '../inbound/match.js';
import { type PipelineContext, receiveMail, type StoredAttachment } from './inbound-mail.js';
import { moveAsSystem } from './move-status.js';
import { sendGovernmentCard } from './send-government-card.js';
import { attachGovernmentCard } from '../orders/documents.js';
import { addSystemRemark } from '../orders/remarks.js';
import { recordPendingCheck } from '../card-check/store.js';
import { cardGate } from '../orders/card-gate.js';
import { setOrderFlag } from '../orders/order-checks.js';
import { latestDocument, lockOrders } from '../orders/repository.js';
import { getSubmissionPolicy } from '../submission/policy.js';
import { checkStoredCard } from './card-check.js';
import { now } from '../clock.js';

/**
 * Government mail (docs/product.md, "Submitting to the government"): every inbound message (webhook and
 * mailbox) comes here first. A message to an application address `{order id}@APP_MAIL_DOMAIN` (To, Cc,
 * Delivered-To, X-Original-To) is government mail for that order when its sender's domain is one of
 * GOV_SENDER_DOMAINS and our own receiving server authenticated it (INBOUND_AUTHSERV_ID); anything
 * else sent to an application address goes to Unmatched Mail with the reason, never onto the order.
 * Other mail goes through the customer pipeline unchanged.
 */

export const NOT_AUTHENTICATED = 'sender not authenticated as the government';

/** The order an application address of the message names, if any. */
function applicationOrderOf(config: Config, mail: InboundMail): number | null {
  const domain = config.APP_MAIL_DOMAIN.toLowerCase();
  for (const address of mail.recipients) {
    const m = /^(\d{1,15})@(.+)$/.exec(address.toLowerCase());
    if (m && m[2] === domain) return Number(m[1]);
  }
  return null;
}

/** The sender is one of the government's domains and our receiving server authenticated it. */
export function isGovernmentSender(config: Config, mail: InboundMail): boolean {
  const domains = (config.GOV_SENDER_DOMAINS ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  const from = mail.fromEmail?.split('@')[1]?.toLowerCase();
  if (!from || !domains.includes(from)) return false;
  return senderAuthenticated(mail.authResults, config.INBOUND_AUTHSERV_ID, from);
}

export async function receiveInboundMail(ctx: PipelineContext, mail: InboundMail): Promise<InboundResult> {
  const orderId = applicationOrderOf(ctx.config, mail);
  if (orderId === null) return receiveMail(ctx, mail);
  const [exists] = (
    await ctx.db.execute<{ id: string }>(
      sql`select order_id::text as id from orders where order_id = ${orderId}`,
    )
  ).rows;
  if (!exists || !isGovernmentSender(ctx.config, mail)) {
    return receiveMail(ctx, mail, { unmatchedReason: NOT_AUTHENTICATED });
  }
  const policy = await getSubmissionPolicy(ctx.db);
  let arrived: { documentId: number } | null = null;
  const result = await receiveMail(ctx, mail, {
    government: {
      orderId,
      effects: async (tx, _inboundId, files) => {
        arrived = await governmentEffects(ctx.config, tx, orderId, mail, files);
      },
    },
  });
  const card = arrived as { documentId: number } | null;
  if (card) await checkAndSend(ctx, orderId, card.documentId, policy.autoSendCard);
  return result;
}

/**
 * After the message's transaction committed (decision 386): the card check reads the stored card on a
 * PDF worker (never inside the mail's transaction), then, with autoSendCard on, a second transaction
 * sends it and completes the order only when the card gate is clear and it is still the order's card.
 * Anything else (a blocking check, a check still running, a failure) leaves card_arrived_unsent and
 * the check's block on the order; the background sweep reads a card the workers had no time for.
 */
async function checkAndSend(
  ctx: PipelineContext,
  orderId: number,
  documentId: number,
  autoSendCard: boolean,
): Promise<void> {
  try {
    await checkStoredCard(ctx, documentId);
  } catch {
    return; // The check stays "running" and the sweep reads it; the card waits, flagged.
  }
  if (!autoSendCard) return;
  await ctx.db.transaction(async (tx) => {
    await lockOrders(tx, [orderId], 'Order not found');
    const latest = await latestDocument(tx, orderId);
    if (latest?.id !== documentId) return;
    if ((await cardGate(tx, orderId)).state !== 'clear') return;
    await sendGovernmentCard(tx, orderId, documentId, 'AWS');
  });
}

/** The first lines of a message, for the remark that quotes it. */
function firstLines(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(' ')
    .slice(0, 300);
}

/**
 * What government mail does to its order, in the message's transaction: a PDF becomes the approved card,
 * flagged card_arrived_unsent with its check "running" (nothing may send it before it is read; see
 * checkAndSend); without a PDF it is a rejection or a request: an Awaiting Govt order moves to Contact
 * Customer with a remark quoting it. Answers the stored card, if any.
 */
async function governmentEffects(
  config: Config,
  tx: DbOrTx,
  orderId: number,
  mail: InboundMail,
  files: readonly StoredAttachment[],
): Promise<{ documentId: number } | null> {
  const pdf = files.find((f) => f.mimeType === 'application/pdf');
  const settings = { minPassportValidityDays: config.PASSPORT_MIN_VALIDITY_DAYS };
  if (pdf) {
    const card = await attachGovernmentCard(tx, orderId, pdf);
    if (!card) return null;
    await recordPendingCheck(tx, orderId, card.documentId);
    await setOrderFlag(tx, orderId, 'card_arrived_unsent', true, settings, now());
    return card;
  }
  const { rows } = await tx.execute<{ status: string }>(
    sql`select process_status as status from orders where order_id = ${orderId} for update`,
  );
  if (rows[0]?.status !== 'AwaitingGovt') return null;
  const moved = await moveAsSystem(tx, orderId, 'Contact Customer');
  if (!moved.moved) return null;
  await addSystemRemark(
    tx,
    orderId,
    `Government wrote: ${firstLines(mail.bodyText) || mail.subject}`.slice(0, 500),
  );
  return null;
}
