import { and, eq, isNull, sql } from 'drizzle-orm';
import type { StaffIdentity } from '../context.js';
import type { Db } from '../db/client.js';
import { inboundAttachments, inboundMessages } from '../db/schema.js';
import { notFound } from '../http/errors.js';
import { recordEvents } from '../orders/events.js';
import { lockOrders } from '../orders/repository.js';

/**
 * "Save as document" (decision 358): a file a customer sent is kept with the order's documents without
 * becoming the approved card and without any mail. The order is locked, the file marked saved and the
 * history written in one transaction; saving it again changes nothing.
 */
export async function saveAttachmentAsDocument(
  db: Db,
  actor: StaffIdentity,
  input: { orderId: number; attachmentId: number },
): Promise<{ attachmentId: number; name: string; savedAt: string; alreadySaved: boolean }> {
  return db.transaction(async (tx) => {
    await lockOrders(tx, [input.orderId], 'Order not found');
    const [file] = await tx
      .select({
        id: inboundAttachments.id,
        name: inboundAttachments.originalName,
        savedAt: inboundAttachments.savedAt,
      })
      .from(inboundAttachments)
      .innerJoin(inboundMessages, eq(inboundMessages.id, inboundAttachments.inboundId))
      .where(and(eq(inboundAttachments.id, input.attachmentId), eq(inboundMessages.orderId, input.orderId)))
      .limit(1);
    if (!file) throw notFound('File not found');
    if (file.savedAt) {
      return {
        attachmentId: file.id,
        name: file.name,
        savedAt: file.savedAt.toISOString(),
        alreadySaved: true,
      };
    }
    const [saved] = await tx
      .update(inboundAttachments)
      .set({ savedAt: sql`now()`, savedBy: actor.id })
      .where(and(eq(inboundAttachments.id, file.id), isNull(inboundAttachments.savedAt)))
      .returning({ savedAt: inboundAttachments.savedAt });
    await recordEvents(tx, [
      {
        orderId: input.orderId,
        actorId: actor.id,
        action: 'upload',
        toValue: `${file.name} saved as a document (not the approved card)`.slice(0, 200),
      },
    ]);
    return {
      attachmentId: file.id,
      name: file.name,
      savedAt: saved!.savedAt!.toISOString(),
      alreadySaved: false,
    };
  });
}
