import { sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { senderAuthenticated } from '../inbound/sender-authentication.js';
import type { InboundMail } from '../inbound/parse.js';
import {
  type InboundResult,
  type PipelineContext,
  receiveMail,
  type StoredAttachment,
} from '../inbound/pipeline.js';
import {
  addSystemRemark,
  attachGovernmentCard,
  moveAsSystem,
  sendGovernmentCard,
} from '../orders/commands.js';
import { setOrderFlag } from '../orders/order-checks.js';
import { getSubmissionPolicy } from '../submission/policy.js';

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
  return receiveMail(ctx, mail, {
    government: {
      orderId,
      effects: (tx, _inboundId, files) =>
        governmentEffects(ctx.config, tx, orderId, mail, files, policy.autoSendCard),
    },
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
 * What government mail does to its order, in the message's transaction: a PDF becomes the approved card
 * (then sent and completed, or flagged card_arrived_unsent); without a PDF it is a rejection or a request:
 * an Awaiting Govt order moves to Contact Customer with a remark quoting it.
 */
async function governmentEffects(
  config: Config,
  tx: DbOrTx,
  orderId: number,
  mail: InboundMail,
  files: readonly StoredAttachment[],
  autoSendCard: boolean,
): Promise<void> {
  const pdf = files.find((f) => f.mimeType === 'application/pdf');
  const settings = { minPassportValidityDays: config.PASSPORT_MIN_VALIDITY_DAYS };
  if (pdf) {
    const card = await attachGovernmentCard(tx, orderId, pdf);
    if (!card) return;
    // The card check of the card-check work runs here, on the stored card; a blocking result keeps
    // the card unsent (the order stays in Awaiting Govt with card_arrived_unsent).
    const blocked = false;
    if (autoSendCard && !blocked && (await sendGovernmentCard(tx, orderId, card.documentId, 'AWS'))) return;
    await setOrderFlag(tx, orderId, 'card_arrived_unsent', true, settings);
    return;
  }
  const { rows } = await tx.execute<{ status: string }>(
    sql`select process_status as status from orders where order_id = ${orderId} for update`,
  );
  if (rows[0]?.status !== 'AwaitingGovt') return;
  const moved = await moveAsSystem(tx, orderId, 'Contact Customer');
  if (!moved.moved) return;
  await addSystemRemark(
    tx,
    orderId,
    `Government wrote: ${firstLines(mail.bodyText) || mail.subject}`.slice(0, 500),
  );
}
