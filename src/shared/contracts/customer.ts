/**
 * Customer area contracts (docs/product.md, "The API"). Written with `zod/mini` because the
 * customer bundle has a 60 KB gzip budget: the same schemas validate the routes and the track form.
 */
import * as z from 'zod/mini';
import { ORDER_STATUSES } from '../constants.js';
import { CONTROL_CHARACTERS_MESSAGE, ONE_LINE_PATTERN } from '../control-characters.js';
import { CUSTOMER_STAGES } from '../customer-stage.js';
import { CUSTOMER_LANGUAGES } from '../languages.js';
import { MSG } from '../messages.js';

/** Order ids are digits (docs/product.md, "Orders"); the SPA may send a number or a digit string. */
const ORDER_ID_PATTERN = /^\d{6,15}$/;
export const TRACK_ORDER_ID_INVALID = 'Order ID must be 6 to 15 digits';
export const TRACK_EMAIL_INVALID = MSG.emailInvalid;

const requiredText = (message: string, max: number) =>
  z.pipe(
    z.union([z.string(), z.number()], { error: message }),
    z.pipe(
      z.transform((v: string | number) => String(v).trim()),
      z.string().check(z.minLength(1, message), z.maxLength(max, `Must be at most ${max} characters`)),
    ),
  );

const orderIdInput = z.pipe(
  requiredText(MSG.trackOrderIdRequired, 15),
  z.string().check(z.regex(ORDER_ID_PATTERN, TRACK_ORDER_ID_INVALID)),
);

/** A numeric order id in a body, as a number. */
const orderIdNumber = z.pipe(
  orderIdInput,
  z.transform((v: string) => Number(v)),
);

/**
 * The page's language, sent with the customer calls: the server answers stage messages in it and keeps
 * it as the order's language (docs/decisions/210). Anything but a customer language is refused (400).
 */
const languageField = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.enum(CUSTOMER_LANGUAGES));

/** POST /api/front/track-order: order id and the application e-mail (compared case-insensitively). */
export const trackOrderBody = z.object({
  orderId: orderIdInput,
  email: z.pipe(
    requiredText(MSG.trackEmailRequired, 254),
    z
      .string()
      .check(
        z.regex(/^[^\s@]+@[^\s@]+$/, TRACK_EMAIL_INVALID),
        z.regex(ONE_LINE_PATTERN, CONTROL_CHARACTERS_MESSAGE),
      ),
  ),
});
export type TrackOrderInput = z.input<typeof trackOrderBody>;
/** The track call's body on the server: the form's fields and the page language (not in the page's bundle). */
export const trackOrderRequest = /* @__PURE__ */ z.extend(trackOrderBody, { lang: languageField });
export type TrackOrderBody = z.output<typeof trackOrderBody>;

/** POST /api/front/get-download-history (customer token required). */
export const downloadHistoryBody = /* @__PURE__ */ z.object({
  orderId: orderIdNumber,
  lang: languageField,
  /**
   * True when the customer chose the language (`?lang=` or the picker), false when it only comes from
   * the browser: a browser's language never replaces a choice stored on the order.
   */
  languageChosen: z.optional(z.boolean()),
});

/**
 * `file1` names the order's document as get-download-history returned it: `<document id>.<extension>`.
 * Anything else — a path, another name — is refused before any lookup.
 */
export const FILE1_PATTERN = /^(\d{1,15})\.(pdf|png|jpg|webp)$/;

/** POST /api/front/download-passport-doc-pdf (customer token required). */
export const downloadDocumentBody = z.object({
  orderId: orderIdNumber,
  /** Sent by the page for compatibility; the file name always comes from the order, never from here. */
  customername: z.optional(
    z.string().check(z.maxLength(200), z.regex(ONE_LINE_PATTERN, CONTROL_CHARACTERS_MESSAGE)),
  ),
  file1: z.string().check(z.regex(FILE1_PATTERN, 'Not a document of this order')),
});

// Response schemas: server-side validation and OpenAPI. `@__PURE__` lets the customer bundle drop them.
const status = /* @__PURE__ */ z.union([z.literal(0), z.literal(1), z.literal(401)]);

/** One row of the Downloaded History table (docs/product.md, the traveller's side). Times are formatted by the server (US Eastern). */
export const downloadHistoryRow = /* @__PURE__ */ z.object({
  order_id: z.number(),
  create_ts: z.string(),
  /** MM-DD-YYYY h:mm:ss A in US Eastern time. */
  date_time: z.string(),
  /** EST or EDT: the Eastern label of that moment. */
  time_zone: z.string(),
  ip: z.string(),
  device: z.string(),
  device_type: z.string(),
  browser: z.string(),
  os: z.string(),
  location: z.string(),
});
export type DownloadHistoryRow = z.infer<typeof downloadHistoryRow>;

/** The order summary a tracked customer may see. */
export const customerOrderSummary = /* @__PURE__ */ z.object({
  order_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  process_status: z.enum(ORDER_STATUSES),
  /** The alternate brand when the order's landing_domain equals ALT_LANDING_HOST. */
  brand: z.enum(['main', 'alt']),
  /** A document exists and can be downloaded. */
  downloadable: z.boolean(),
});
export type CustomerOrderSummary = z.infer<typeof customerOrderSummary>;

/** The tracking answer's summary: the order summary and where the order is (docs/decisions/211). */
export const customerTrackingSummary = /* @__PURE__ */ z.extend(customerOrderSummary, {
  /** Where the order is, in the customer's terms (src/shared/customer-stage.ts). */
  stage: z.enum(CUSTOMER_STAGES),
  /** What the stage means and what to do, in the page's language. */
  stageMessage: z.string(),
  /** action_needed only: the staff's request as plain text (docs/decisions/212); otherwise null. */
  stageRequest: z.nullable(z.string()),
  /** The customer answered the current request (decision 392): the stage says the answer was received. */
  stageAnswered: z.optional(z.boolean()),
  /** "Submitted to the government on <date>" once the order was submitted; otherwise null. */
  stageSubmitted: z.optional(z.nullable(z.string())),
});
export type CustomerTrackingSummary = z.infer<typeof customerTrackingSummary>;

export const trackOrderResponse = /* @__PURE__ */ z.object({
  status,
  message: z.string(),
  data: z.optional(z.object({ token: z.string(), expiresIn: z.number() })),
  /**
   * A deleted order tracked with its right e-mail: no token, only that it was cancelled and how to reach
   * support (a wrong e-mail still answers "no order matches").
   */
  cancelled: z.optional(
    z.object({
      order_id: z.number(),
      brand: z.enum(['main', 'alt']),
      stage: z.literal('cancelled'),
      stageMessage: z.string(),
    }),
  ),
});
export type TrackOrderResponse = z.infer<typeof trackOrderResponse>;

export const downloadHistoryResponse = /* @__PURE__ */ z.object({
  status,
  message: z.string(),
  data: z.optional(z.array(downloadHistoryRow)),
  mainResult: z.optional(customerTrackingSummary),
  path: z.optional(z.object({ file1: z.nullable(z.string()) })),
});
export type DownloadHistoryResponse = z.infer<typeof downloadHistoryResponse>;

export const downloadDocumentResponse = /* @__PURE__ */ z.object({
  status,
  message: z.string(),
  data: z.optional(z.object({ url: z.string(), expiresIn: z.number() })),
});
export type DownloadDocumentResponse = z.infer<typeof downloadDocumentResponse>;

export const approvalNoticeResponse = /* @__PURE__ */ z.object({
  status,
  message: z.string(),
  data: z.optional(z.object({ subject: z.string(), html: z.string(), text: z.string() })),
});
export type ApprovalNoticeResponse = z.infer<typeof approvalNoticeResponse>;

/** Config the server writes into the customer page (`<meta name="edcard-customer">`). */
export interface CustomerPageConfig {
  /** The brand of the host the page was opened on (alt when it is ALT_LANDING_HOST). */
  hostBrand: 'main' | 'alt';
  brands: { main: CustomerBrand; alt: CustomerBrand };
  /** Third-party translation widget script; absent: no widget. */
  translateWidgetUrl?: string;
}

export interface CustomerBrand {
  name: string;
  siteUrl: string;
  supportEmail: string;
  links: {
    home: string;
    apply: string;
    /** Main brand only. */
    benefits?: string;
    terms: string;
    privacy: string;
    refund: string;
    contact: string;
  };
}

/** Sentinel messages the page reacts to. */
export const CUSTOMER_MSG = {
  trackFailed: 'No order matches this Order ID and e-mail address.',
  trackSuccess: 'Your order has been found.',
  sessionExpired: 'Your session has expired. Please track your order again.',
  orderCancelled: 'This order was cancelled.',
  downloadRecorded: 'Your download will start shortly.',
  noDocument: 'Your approved card is not available yet.',
  linkExpired: 'This download link has expired or is invalid. Please start the download again.',
  linkUsed: 'This download link has already been used. Please start the download again.',
} as const;
