import { eq } from 'drizzle-orm';
import { CUSTOMER_MSG } from '../../shared/contracts/customer.js';
import type { DbOrTx } from '../db/client.js';
import { inboundAttachments, inboundMessages, orders } from '../db/schema.js';
import { removeStored } from '../documents/storage.js';
import { scanCustomerFiles } from './passport-scan.js';
import { HttpError } from '../http/errors.js';
import { inTransaction } from '../orders/transaction.js';
import { customerAnswered } from '../orders/customer-answers.js';
import { lockOrders } from '../orders/repository.js';
import type { InboundMail } from '../inbound/parse.js';
import { isErased } from '../inbound/match.js';
import { type PipelineContext, storeAttachments } from './inbound-mail.js';

/**
 * Why the track page may not take an answer for this order (decision 352): an erased (or unknown) order
 * answers as an expired session (401), a Deleted one with the cancelled-order message (409).
 */
export async function trackReplyRefusal(db: DbOrTx, orderId: number): Promise<HttpError | null> {
  const [order] = await db
    .select({ processStatus: orders.processStatus })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!order || (await isErased(db, orderId))) return new HttpError(401, CUSTOMER_MSG.sessionExpired);
  if (order.processStatus === 'Deleted') return new HttpError(409, CUSTOMER_MSG.orderCancelled);
  return null;
}

/** The customer's answer on the track page: the same effects as a mail that matched its order. */
export async function receiveTrackReply(
  ctx: PipelineContext,
  orderId: number,
  message: string,
  files: InboundMail['attachments'],
): Promise<{ inboundId: number }> {
  const { db, config } = ctx;
  const stored = await storeAttachments(config, { attachments: files });
  // On the track page the customer is told at once what is wrong with a file; nothing is kept then.
  const refused = stored.refused[0];
  if (refused) {
    for (const f of stored.stored) await removeStored(config, f.key);
    throw new HttpError(422, `${refused.name}: ${refused.reason}`);
  }
  try {
    const result = await inTransaction(db, async (tx) => {
      const [order] = await lockOrders(tx, [orderId], 'Order not found');
      const refusal = await trackReplyRefusal(tx, orderId);
      if (refusal) throw refusal;
      const { visible, quoted } = { visible: message.trim(), quoted: '' };
      const [row] = await tx
        .insert(inboundMessages)
        .values({
          orderId,
          source: 'track',
          disposition: 'attached',
          matchedBy: 'track',
          fromEmail: order!.email.toLowerCase(),
          fromName: `${order!.firstName} ${order!.lastName}`.trim() || null,
          bodyText: visible,
          quotedText: quoted,
          sizeBytes: Buffer.byteLength(message) + files.reduce((n, f) => n + f.size, 0),
          refusedAttachments: stored.refused,
        })
        .returning({ id: inboundMessages.id });
      if (stored.stored.length)
        await tx.insert(inboundAttachments).values(
          stored.stored.map((f) => ({
            inboundId: row!.id,
            storageKey: f.key,
            originalName: f.name,
            mimeType: f.mimeType,
            sizeBytes: f.size,
            sha256: f.sha256,
          })),
        );
      await customerAnswered(tx, orderId, 'answer on the track page', null);
      return { inboundId: row!.id };
    });
    scanCustomerFiles(ctx, orderId, stored.stored);
    return result;
  } catch (err) {
    for (const f of stored.stored) await removeStored(config, f.key);
    throw err;
  }
}
