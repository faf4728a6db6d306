import type { OrderFields } from '../../shared/contracts/order-detail.js';
import { formatLongDate } from '../../shared/dates.js';
import { PdfWriter } from './writer.js';

export function invoiceNumber(orderId: number): string {
  return `INV-${orderId}`;
}

/** The invoice of an order: order, customer, service, mode, amount, currency, date, transaction, merchant. */
export async function renderInvoicePdf(order: OrderFields, issuedAt: Date): Promise<Uint8Array> {
  const w = await PdfWriter.create(
    `Invoice ${invoiceNumber(order.order_id)}`,
    `Invoice ${invoiceNumber(order.order_id)}`,
  );
  w.title('Invoice');
  w.field('Invoice number', invoiceNumber(order.order_id));
  w.field('Invoice date', formatLongDate(issuedAt));
  w.field('Order ID', order.order_id);
  w.field('Order date', formatLongDate(order.created_at));

  w.heading('Billed to');
  w.field('Customer', `${order.first_name} ${order.last_name}`);
  w.field('Email', order.email);
  w.field('Phone', order.telephone_number ? `+${order.phone_code ?? ''} ${order.telephone_number}` : '-');
  w.field(
    'Address',
    [order.address, order.city, order.state, order.zip_code].filter(Boolean).join(', ') || '-',
  );

  w.heading('Service');
  w.field('Service', 'Aruba Embarkation Disembarkation Card application');
  w.field('Processing mode', order.processing_mode);
  w.field('Arrival date', order.arrival_date ? formatLongDate(order.arrival_date) : '-');
  w.field('Amount', `${order.amount} ${order.currency}`);
  w.field('Currency', order.currency);
  w.field('Total paid', `${order.amount} ${order.currency}`);

  w.heading('Payment');
  w.field('Transaction ID', order.transaction_id);
  w.field('Merchant', order.merchant_name);
  w.gap(16);
  w.paragraph('Thank you for your order. Keep this invoice for your records.', 9);
  return w.doc.save();
}
