import type Mail from 'nodemailer/lib/mailer/index.js';
import type { OrderFields } from '../../shared/contracts/order-detail.js';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import type { mailLog } from '../db/schema.js';
import { readStored } from '../documents/storage.js';
import { documentById, loadOrder } from '../orders/repository.js';
import { buildInvoicePdf } from '../pdf/build.js';
import { invoiceNumber } from '../pdf/invoice.js';
import {
  brandFor,
  escapeHtml,
  type RenderedMail,
  renderApprovalNotice,
  trackOrderUrl,
} from './approval-notice.js';

type MailRow = typeof mailLog.$inferSelect;

export class PermanentMailError extends Error {}

function noticeOptions(config: Config) {
  return { siteUrl: config.PUBLIC_SITE_URL, altLandingHost: config.ALT_LANDING_HOST };
}

export function renderRefundNotice(order: OrderFields, config: Config): RenderedMail {
  const brand = brandFor(order.landing_domain, noticeOptions(config));
  const name = `${order.first_name} ${order.last_name}`.trim();
  const subject = `Your refund for order ${order.order_id} has been processed`;
  const body = `Your refund of ${order.amount} ${order.currency} for order ${order.order_id} has been processed. Depending on your bank it can take 5 to 10 business days to appear on your statement.`;
  const text = [`Dear ${name},`, '', body, '', `Questions? ${brand.supportEmail}`, '', brand.name].join('\n');
  const html = `<p>Dear ${escapeHtml(name)},</p><p>${escapeHtml(body)}</p><p>Questions? <a href="mailto:${escapeHtml(brand.supportEmail)}">${escapeHtml(brand.supportEmail)}</a></p><p>${escapeHtml(brand.name)}</p>`;
  return { subject, html, text };
}

export function renderInvoiceMail(order: OrderFields, config: Config): RenderedMail {
  const brand = brandFor(order.landing_domain, noticeOptions(config));
  const name = `${order.first_name} ${order.last_name}`.trim();
  const subject = `Invoice ${invoiceNumber(order.order_id)} for your order ${order.order_id}`;
  const body = `Please find attached the invoice for your Aruba ED Card order ${order.order_id}.`;
  const track = trackOrderUrl(order.order_id, noticeOptions(config));
  const text = [`Dear ${name},`, '', body, `Track your order: ${track}`, '', brand.name].join('\n');
  const html = `<p>Dear ${escapeHtml(name)},</p><p>${escapeHtml(body)}</p><p><a href="${escapeHtml(track)}">Track your order</a></p><p>${escapeHtml(brand.name)}</p>`;
  return { subject, html, text };
}

/** Builds the message of a mail_log row from the order as it is now (the template of its kind). */
export async function composeMail(db: DbOrTx, config: Config, mail: MailRow): Promise<Mail.Options> {
  const order = await loadOrder(db, mail.orderId, config.APP_MAIL_DOMAIN);
  if (!order) throw new PermanentMailError(`order ${mail.orderId} not found`);
  const base = { to: mail.toEmail, headers: { 'X-ED-Card-Order': String(order.order_id) } };

  switch (mail.kind) {
    case 'approval':
    case 'resend': {
      if (!mail.documentId) throw new PermanentMailError('no document to attach');
      const doc = await documentById(db, mail.documentId);
      if (!doc) throw new PermanentMailError(`document ${mail.documentId} not found`);
      if (doc.withdrawnAt) throw new PermanentMailError('the document was withdrawn');
      const content = await readStored(config, doc.storageKey);
      if (!content) throw new PermanentMailError('the stored document file is missing');
      return {
        ...base,
        ...renderApprovalNotice(order, noticeOptions(config)),
        attachments: [{ filename: doc.originalName, content, contentType: doc.mimeType }],
      };
    }
    case 'reminder':
      return { ...base, ...renderApprovalNotice(order, { ...noticeOptions(config), reminder: true }) };
    case 'refund':
      return { ...base, ...renderRefundNotice(order, config) };
    case 'invoice': {
      const pdf = await buildInvoicePdf(config, order, mail.createdAt);
      return {
        ...base,
        ...renderInvoiceMail(order, config),
        attachments: [
          {
            filename: `invoice-${order.order_id}.pdf`,
            content: Buffer.from(pdf),
            contentType: 'application/pdf',
          },
        ],
      };
    }
    default:
      throw new PermanentMailError(`unknown mail kind ${mail.kind}`);
  }
}
