import type { OrderDetails, UploadDocItem } from '../../shared/contracts/order-detail';

/** The order's current document (the newest not withdrawn), the one served, mailed and downloaded. */
export function currentDocument(order: Pick<OrderDetails, 'uploadDoc'>): UploadDocItem | undefined {
  return order.uploadDoc.find((d) => d.current);
}
