// The order detail's actions on an order: moving its status, adding a remark, saving the transaction details.
import { z } from 'zod';
import { MOVABLE_STATUSES, ORDER_STATUSES } from '../constants.js';
import { MSG } from '../messages.js';
import {
  envelope,
  expectedVersionField,
  multilineText,
  noControlCharacters,
  noControlCharactersExceptLines,
  orderIdField,
  takeOverField,
  text,
} from './common.js';
import { pendingMail, remarkItem } from './order-detail.js';
import { refundReasonFields } from './payments.js';

/* ------------------------------------------------------------------ requests */

/** PUT /api/admin/move-order-status */
export const moveOrderStatusBody = z.object({
  orderId: orderIdField,
  updatingStatus: z.enum(MOVABLE_STATUSES, {
    error: 'not a status you can move an order to',
  }),
  expectedVersion: expectedVersionField,
  takeOver: takeOverField,
  /** Undo of the actor's own move a moment ago: moves back and cancels the mail it held. */
  undo: z.boolean().optional(),
  /** Continue although someone else moved the order seconds ago (answered 409 with recentMove). */
  confirmRecent: z.boolean().optional(),
  /** Admin only, to Completed: complete without a current document, for this reason (no mail). */
  forceReason: multilineText(500)
    .pipe(z.string().min(3, 'Please say why the order is completed without a card'))
    .optional(),
  /** To Completed Refunds: why (docs/product.md, "Refund reasons"). */
  ...refundReasonFields,
});
export type MoveOrderStatusBody = z.infer<typeof moveOrderStatusBody>;

/** A remark flag: "Y" when ticked; "N", "", false, null or absent mean not ticked. Stored as Y/N. */
export const remarkFlag = z
  .union([
    z.literal('Y'),
    z.literal('N'),
    z.literal('y'),
    z.literal('n'),
    z.literal(''),
    z.boolean(),
    z.null(),
  ])
  .optional()
  .transform((v): 'Y' | 'N' => (v === true || v === 'Y' || v === 'y' ? 'Y' : 'N'));

/** POST /api/admin/add-new-remark. remarkerName is accepted and ignored. */
export const addRemarkBody = z.object({
  orderId: orderIdField,
  remark: noControlCharactersExceptLines(
    z
      .string({ error: MSG.remarkRequired })
      .trim()
      .min(1, MSG.remarkRequired)
      .max(5000, 'at most 5000 characters'),
  ),
  remarkerName: text(200).optional().nullable(),
  whatsapp: remarkFlag,
  telephone: remarkFlag,
  statusRefund: remarkFlag,
  voided: remarkFlag,
  chargeBack: remarkFlag,
  reportError: remarkFlag,
  expectedVersion: expectedVersionField,
  takeOver: takeOverField,
});
export type AddRemarkBody = z.input<typeof addRemarkBody>;

/** The 'Add Comment Below' form (checkboxes as booleans; mapped to Y/N by the schema above). */
export const addRemarkForm = z.object({
  remark: noControlCharactersExceptLines(
    z.string().trim().min(1, MSG.remarkRequired).max(5000, 'at most 5000 characters'),
  ),
  whatsapp: z.boolean(),
  telephone: z.boolean(),
  statusRefund: z.boolean(),
  voided: z.boolean(),
  chargeBack: z.boolean(),
  reportError: z.boolean(),
});
export type AddRemarkForm = z.infer<typeof addRemarkForm>;

/** POST /api/admin/save-transaction-details (a path of our own: older clients had none). */
export const saveTransactionBody = z.object({
  orderId: orderIdField,
  transactionId: noControlCharacters(
    z
      .string({ error: MSG.transactionIdRequired })
      .trim()
      .min(1, MSG.transactionIdRequired)
      .max(120, 'at most 120 characters'),
  ),
  merchantName: noControlCharacters(
    z
      .string({ error: MSG.merchantNameRequired })
      .trim()
      .min(1, MSG.merchantNameRequired)
      .max(120, 'at most 120 characters'),
  ),
  expectedVersion: expectedVersionField,
  /**
   * Admin only, for an order paid through an integrated provider: why its payment reference changes
   * (audited). Staff cannot change such a reference (403).
   */
  reason: noControlCharacters(z.string().trim().max(500, 'at most 500 characters')).optional(),
});
export type SaveTransactionBody = z.infer<typeof saveTransactionBody>;
export const saveTransactionForm = saveTransactionBody.omit({ orderId: true, expectedVersion: true });
export type SaveTransactionForm = z.infer<typeof saveTransactionForm>;

/* ----------------------------------------------------------------- responses */

/** move-order-status answer: the order's new status (counts are queries, so they follow at once). */
export const moveOrderStatusResponse = envelope(
  z.object({
    order_id: z.number(),
    from: z.enum(ORDER_STATUSES),
    process_status: z.enum(ORDER_STATUSES),
    /** The customer mail the move queued (held for Undo), if any. */
    mail: pendingMail.nullable().optional(),
    /** Mails cancelled by this move (an Undo). */
    cancelledMails: z.number().int().optional(),
  }),
);
export const addRemarkResponse = envelope(
  z.object({ remark: remarkItem, process_status: z.enum(ORDER_STATUSES) }),
);
export const saveTransactionResponse = envelope(
  z.object({ order_id: z.number(), transaction_id: z.string(), merchant_name: z.string() }),
);
