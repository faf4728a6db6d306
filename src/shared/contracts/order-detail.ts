import { z } from 'zod';
import { orderChecksAnswer } from './checks.js';
import { paymentDispute } from './payments.js';
import {
  MAIL_KINDS,
  MAIL_PROVIDERS,
  MAIL_STATUSES,
  MIN_INVOICE_ORDER_ID_LENGTH,
  MOVABLE_STATUSES,
  ORDER_EVENT_ACTIONS,
  ORDER_STATUSES,
  PROCESSING_MODES,
} from '../constants.js';
import { MSG } from '../messages.js';
import { envelope, expectedVersionField, multilineText, orderIdField } from './common.js';
import { DUE_STATES } from './due-time.js';

/**
 * Contracts of the order detail area (docs/product.md, "Order detail"): every order field and the calls
 * get-orders-details, upload-visa-document, resend-mail, send-invoice, the mail preview and the e-mail
 * content. Used by the routes, the forms and the tests. Dates/times in responses are ISO 8601 instants
 * (the client formats them, EST for history). The status move, remark and transaction calls are in
 * order-detail-actions.ts, the Defence Packs in defence-pack.ts.
 */

const nullableText = z.string().nullable();
const isoInstant = z.string();

/* ------------------------------------------------------------------ requests */

/** "AWS" | "Sendgrid", accepted in any letter case (the buttons read "SendGrid"). */
export const mailProviderField = z.preprocess(
  (v) =>
    typeof v === 'string' ? (MAIL_PROVIDERS.find((p) => p.toLowerCase() === v.trim().toLowerCase()) ?? v) : v,
  z.enum(MAIL_PROVIDERS, { error: 'must be AWS or Sendgrid' }),
);

const requiredEmail = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(254, MSG.emailInvalid)
    .pipe(z.email(MSG.emailInvalid));

/** POST /api/admin/resend-mail */
export const resendMailBody = z.object({
  orderId: orderIdField,
  email: requiredEmail(MSG.uploadEmailRequired),
  mailServiceProvider: mailProviderField,
  expectedVersion: expectedVersionField,
  /** Admin or Manager: mail the card to `email` although it is not the order's address. */
  confirmOtherAddress: z.boolean().optional(),
});
export type ResendMailBody = z.infer<typeof resendMailBody>;

/**
 * POST /api/admin/upload-visa-document, multipart/form-data: these text fields plus the file part
 * `uploadVisaDoc` (PDF, PNG, JPEG or WebP by content; at most MAX_UPLOAD_BYTES).
 */
export const uploadDocumentFields = z.object({
  orderId: orderIdField,
  email: requiredEmail(MSG.uploadEmailRequired),
  mailServiceProvider: mailProviderField,
  expectedVersion: expectedVersionField,
  /** "Upload, mail and complete": the order also moves to Completed, in the same transaction. */
  complete: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
  /** Admin or Manager: take over an order someone else holds. */
  takeOver: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
  /** Admin or Manager: mail the card to `email` although it is not the order's address. */
  confirmOtherAddress: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});
export type UploadDocumentFields = z.infer<typeof uploadDocumentFields>;
export const UPLOAD_FILE_FIELD = 'uploadVisaDoc';
export const UPLOAD_ACCEPT = 'application/pdf,image/png,image/jpeg,image/webp';

/** The upload form on the client (the file is checked by the server by content). */
export const uploadDocumentForm = z.object({
  email: requiredEmail(MSG.uploadEmailRequired),
  fileUpload: z.custom<Blob>((v) => v != null && typeof v === 'object' && 'size' in v, {
    error: MSG.fileRequired,
  }),
});

/** POST /api/admin/send-invoice. The id is text so the minimum-length message applies. */
export const sendInvoiceBody = z.object({
  orderId: z
    .union([z.string(), z.number()], { error: MSG.invoiceOrderIdRequired })
    .transform((v) => String(v).trim())
    .pipe(
      z
        .string()
        .min(1, MSG.invoiceOrderIdRequired)
        .min(MIN_INVOICE_ORDER_ID_LENGTH, MSG.invoiceOrderIdMin)
        .max(20, 'at most 20 characters'),
    ),
});
export type SendInvoiceBody = z.input<typeof sendInvoiceBody>;
/** The Send Invoice screen form (field invoiceOrderId, at least 6 characters). */
export const sendInvoiceForm = z.object({
  invoiceOrderId: z
    .string()
    .trim()
    .min(1, MSG.invoiceOrderIdRequired)
    .min(MIN_INVOICE_ORDER_ID_LENGTH, MSG.invoiceOrderIdMin),
});
export type SendInvoiceForm = z.infer<typeof sendInvoiceForm>;

/* ----------------------------------------------------------------- responses */

/** uploadDoc entry: file1 is the stored document's original file name. */
export const uploadDocItem = z.object({
  id: z.number(),
  order_id: z.number(),
  /** The one document served and mailed: the newest that has not been withdrawn. */
  current: z.boolean(),
  /** Set when an Admin or Manager withdrew it: kept for the record, never served again. */
  withdrawn_at: isoInstant.nullable(),
  withdraw_reason: nullableText,
  file1: z.string(),
  mail_service_provider: nullableText,
  mime_type: z.string(),
  size_bytes: z.number(),
  create_ts: isoInstant,
  uploaded_by: nullableText,
  /** GET with the staff token: the file itself (also answers HEAD). */
  download_url: z.string(),
});
export type UploadDocItem = z.infer<typeof uploadDocItem>;

/** Withdraw a wrongly uploaded document: why, in a few words (kept with the document). */
export const withdrawDocumentBody = z
  .object({ reason: multilineText(500).pipe(z.string().min(3, 'Please say why the document is withdrawn')) })
  .strict();
export const withdrawDocumentResponse = envelope(
  z.object({ id: z.number(), order_id: z.number(), current_document_id: z.number().nullable() }),
);

/** mailHistory entry; remainder_mail 1 means Yes (the reminder). */
export const mailHistoryItem = z.object({
  id: z.number(),
  order_id: z.number(),
  create_ts: isoInstant,
  /** File name of the attached document, or null (invoice, refund mails). */
  uploadDoc: nullableText,
  remainder_mail: z.union([z.literal(0), z.literal(1)]),
  mail_service_provider: z.string(),
  kind: z.enum(MAIL_KINDS),
  to_email: z.string(),
  /** `bounced`: sent, then a delivery report on it said it did not arrive (bounce_reason says why). */
  status: z.enum([...MAIL_STATUSES, 'bounced']),
  attempts: z.number(),
  message_id: nullableText,
  error: nullableText,
  sent_ts: isoInstant.nullable(),
  requested_by: nullableText,
  /** The mailed document: its id and the staff download path (null for mails without one). */
  document_id: z.number().nullable().optional(),
  download_url: z.string().nullable().optional(),
  /** The mail went to an address other than the order's e-mail (a resend to another address). */
  other_recipient: z.boolean().optional(),
  /** Why the mail bounced (the report's status and diagnostic); null unless it did. */
  bounce_reason: nullableText.optional(),
});
export type MailHistoryItem = z.infer<typeof mailHistoryItem>;

/** downloadHistory entry (written by the customer area on each download). */
export const downloadHistoryItem = z.object({
  id: z.number(),
  order_id: z.number(),
  create_ts: isoInstant,
  file_name: nullableText,
  ip: z.string(),
  timezone: nullableText,
  /** Dash-separated parts, e.g. "Chrome-126.0.0.0". */
  browser: nullableText,
  os: nullableText,
  device: nullableText,
  device_type: nullableText,
  location: nullableText,
});
export type DownloadHistoryItem = z.infer<typeof downloadHistoryItem>;

const yn = z.enum(['Y', 'N']);
export const remarkItem = z.object({
  id: z.number(),
  order_id: z.number(),
  us_date: z.string(),
  us_time: z.string(),
  remark_name: z.string(),
  remark: z.string(),
  whatsapp: yn,
  telephone: yn,
  status_refund: yn,
  voided: yn,
  chargeback: yn,
  report_error: yn,
  create_ts: isoInstant,
});
export type RemarkItem = z.infer<typeof remarkItem>;

/** Status timeline entry: who did what, when (action: created | status | assign | remark | upload | mail | transaction …). */
export const orderEventItem = z.object({
  id: z.number(),
  action: z.enum(ORDER_EVENT_ACTIONS),
  from_value: nullableText,
  to_value: nullableText,
  actor_name: nullableText,
  create_ts: isoInstant,
});
export type OrderEventItem = z.infer<typeof orderEventItem>;

/** Every order field by its snake_case API name, plus the bookkeeping columns. */
export const orderFields = z.object({
  order_id: z.number(),
  transaction_id: nullableText,
  merchant_name: nullableText,
  email: z.string(),
  re_enter_email: nullableText,
  processing_mode: z.enum(PROCESSING_MODES),
  process_status: z.enum(ORDER_STATUSES),
  landing_domain: nullableText,
  arrival_date: nullableText,
  resident_check: nullableText,
  passport_number: nullableText,
  passport_expiration: nullableText,
  last_name: z.string(),
  first_name: z.string(),
  nationality: nullableText,
  date_of_birth: nullableText,
  sex: nullableText,
  country_of_birth: nullableText,
  country_of_departure: nullableText,
  travel_mode: nullableText,
  airline: nullableText,
  flight_number: nullableText,
  departure_date: nullableText,
  vessel_name: nullableText,
  country_of_residence: nullableText,
  zip_code: nullableText,
  state: nullableText,
  city: nullableText,
  address: nullableText,
  residence_number: nullableText,
  occupation: nullableText,
  purpose_of_visit: nullableText,
  dual_citizenship: nullableText,
  phone_code: nullableText,
  telephone_number: nullableText,
  prior_visits: nullableText,
  place_of_stay: nullableText,
  name_of_place_of_stay: nullableText,
  other_hotel_name: nullableText,
  local_address: nullableText,
  house_number: nullableText,
  /** {order_id}@{APP_MAIL_DOMAIN}: the order's Application Email Address. */
  application_email: z.string(),
  processing_date: z.string(),
  process_month: z.string(),
  refund_date: isoInstant.nullable(),
  /** Why the order is (being) refunded (docs/product.md, "Refund reasons") and the text of 'other'. */
  refund_reason: z.string().nullable().optional(),
  refund_reason_text: z.string().nullable().optional(),
  assign_to: nullableText,
  amount: z.string(),
  currency: z.string(),
  created_at: isoInstant,
  updated_at: isoInstant,
  /** Raised by every change; send it back as `expectedVersion` to refuse stale changes. */
  version: z.number().int(),
  /** When the order is due under the due-time policy; null for Completed, Refunded and Deleted. */
  due_at: isoInstant.nullable(),
  due_state: z.enum(DUE_STATES).nullable(),
  /** Since when the due clock stands still (the order waits on someone else); null when it runs. */
  due_paused_at: isoInstant.nullable().optional(),
  /** The end of the arrival day of an order still worked; past it the order is "Trip passed". */
  trip_ends_at: isoInstant.nullable().optional(),
  /** The customer answered and no one has read the conversation since ("Customer replied" badge). */
  customer_replied: z.boolean().optional(),
  /** Mail to the order's address bounced: the delivery report's reason (the header's badge); else null. */
  failing_address: nullableText.optional(),
  /** The customer corrected the order on the track page and no one has opened it since. */
  customer_edited: z.boolean().optional(),
  /** The government's reference (docs/product.md, "Submitting to the government"); null until stored. */
  government_reference: nullableText.optional(),
  /** When the order was marked submitted to the government with its reference. */
  submitted_at: isoInstant.nullable().optional(),
  /** With a submission window: when the government's portal accepts the order; null without one. */
  submission_opens_at: isoInstant.nullable().optional(),
});
export type OrderFields = z.infer<typeof orderFields>;

export const orderDetails = orderFields.extend({
  uploadDoc: z.array(uploadDocItem),
  mailHistory: z.array(mailHistoryItem),
  downloadHistory: z.array(downloadHistoryItem),
  remarks: z.array(remarkItem),
  events: z.array(orderEventItem),
  /**
   * The order's failing data checks and its possible duplicates: the same lists as GET
   * /api/admin/orders/{id}/checks answers under the same names.
   */
  checks: orderChecksAnswer.shape.checks.optional(),
  duplicates: orderChecksAnswer.shape.duplicates.optional(),
  /** The order's latest dispute at the payment provider (open ones first), or null. */
  dispute: paymentDispute.nullable().optional(),
});
export type OrderDetails = z.infer<typeof orderDetails>;
export const orderDetailsResponse = envelope(orderDetails);

/** GET /api/admin/get-email-content/{orderId}: the approval notice for the "View Email Content" modal. */
export const emailContent = z.object({
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  /** The short message for "Send Whatsapp Message" and the wa.me link to the customer's number (null without one). */
  whatsappText: z.string(),
  whatsappUrl: z.string().nullable(),
  /** The template the WhatsApp text comes from: the one its status suggests (WHATSAPP_TEMPLATE_BY_STATUS). */
  whatsappTemplate: z.string().optional(),
});
export type EmailContent = z.infer<typeof emailContent>;
export const emailContentResponse = envelope(emailContent);

/**
 * GET /api/admin/orders/{orderId}/mail-preview: the mail of a move to `status`, or of macro `macroId`
 * (neither: no action, no mail).
 */
export const mailPreviewQuery = z
  .object({
    status: z.enum(MOVABLE_STATUSES, { error: 'not a status you can move an order to' }).optional(),
    macroId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  })
  .strict()
  .refine((q) => q.status === undefined || q.macroId === undefined, 'give status or macroId, not both');
export const mailPreviewResponse = envelope(
  z
    .object({
      templateName: z.string(),
      language: z.string(),
      subject: z.string(),
      html: z.string(),
      /** The customer got this template minutes ago: it would not be sent again now. */
      repeatMinutes: z.number().nullable(),
    })
    .nullable(),
);
export type MailPreview = z.infer<typeof mailPreviewResponse>['data'];

/** A customer mail a change queued: which template, in which language, held for Undo until when. */
export const pendingMail = z.object({
  mailId: z.number(),
  kind: z.enum(MAIL_KINDS),
  templateName: z.string(),
  language: z.string(),
  /** The mail waits until then (the undo window); null: it goes at once. */
  heldUntil: isoInstant.nullable(),
});
export type PendingMail = z.infer<typeof pendingMail>;

/** upload / resend / send-invoice answer: the queued mail (delivery happens in the background). */
export const queuedMailResponse = envelope(
  z.object({ mailId: z.number(), documentId: z.number().nullable(), status: z.string() }),
);
