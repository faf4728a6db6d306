import { and, asc, eq } from 'drizzle-orm';
import type { OrderFileItem } from '../../shared/contracts/submission.js';
import type { DbOrTx } from '../db/client.js';
import { orderFiles, orders, staffUsers } from '../db/schema.js';
import { notFound } from '../http/errors.js';

/**
 * Files kept with an order that are not its approved card (a machine's screenshot of a failed
 * submission). Read by order, and served only through the order they belong to.
 */

export function orderFileUrl(orderId: number, fileId: number): string {
  return `/api/admin/orders/${orderId}/files/${fileId}`;
}

/** The order's files, oldest first; 404 when the order does not exist. */
export async function listOrderFiles(db: DbOrTx, orderId: number): Promise<OrderFileItem[]> {
  const [order] = await db
    .select({ id: orders.orderId })
    .from(orders)
    .where(eq(orders.orderId, orderId))
    .limit(1);
  if (!order) throw notFound('Order not found');
  const rows = await db
    .select({ f: orderFiles, by: staffUsers.name })
    .from(orderFiles)
    .leftJoin(staffUsers, eq(staffUsers.id, orderFiles.createdBy))
    .where(eq(orderFiles.orderId, orderId))
    .orderBy(asc(orderFiles.createdAt), asc(orderFiles.id));
  return rows.map(({ f, by }) => ({
    id: f.id,
    kind: f.kind,
    name: f.originalName,
    mime_type: f.mimeType,
    size_bytes: f.sizeBytes,
    note: f.note,
    created_by: by ?? null,
    created_at: f.createdAt.toISOString(),
    download_url: orderFileUrl(f.orderId, f.id),
  }));
}

/** One file of the order, or null (another order's file is not this order's: null too). */
export async function orderFileOf(
  db: DbOrTx,
  orderId: number,
  fileId: number,
): Promise<{ storageKey: string; name: string; mimeType: string; sizeBytes: number } | null> {
  const [row] = await db
    .select({
      storageKey: orderFiles.storageKey,
      name: orderFiles.originalName,
      mimeType: orderFiles.mimeType,
      sizeBytes: orderFiles.sizeBytes,
    })
    .from(orderFiles)
    .where(and(eq(orderFiles.id, fileId), eq(orderFiles.orderId, orderId)))
    .limit(1);
  return row ?? null;
}
