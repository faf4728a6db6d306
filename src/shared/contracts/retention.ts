import { z } from 'zod';

/** Retention of personal data: orders whose travel ended more than `days` ago are erased (names to initials). */
export const DEFAULT_RETENTION_DAYS = 365;

export const retentionSettings = z.strictObject({
  days: z
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(30, 'must be at least 30 days')
    .max(3650, 'must be at most 3650 days (10 years)'),
});
export type RetentionSettings = z.infer<typeof retentionSettings>;

/** POST /api/admin/orders/{id}/erase: why the personal data of this order is erased now. */
export const eraseOrderBody = z.strictObject({
  reason: z
    .string({ error: 'Please give the reason for the erasure' })
    .trim()
    .min(3, 'Please give the reason for the erasure')
    .max(500, 'at most 500 characters')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .refine((v) => !/[\u0000-\u001f\u007f\ud800-\udfff]/u.test(v), 'must not contain control characters'),
});

export const eraseOrderParams = z.object({ id: z.string().regex(/^\d{1,15}$/, 'must be an order id') });

export const erasureResult = z.object({
  orderId: z.number(),
  erasedAt: z.string(),
  fields: z.array(z.string()),
  documents: z.number(),
});
export type ErasureResult = z.infer<typeof erasureResult>;

/** What an erasure removes, as staff read it (also the text of the order event and the Defence Pack). */
export const ERASED_FIELDS = [
  'passport number and expiry',
  'date of birth',
  'names (initials kept)',
  'e-mail address',
  'telephone',
  'home and local address',
  'occupation',
  'flight or vessel',
  'accommodation names',
  'transaction id and merchant name',
  'documents and their names',
  'the conversation: messages, their files, subjects and senders',
  'payment references of disputes',
  'remark texts',
  'file names, reasons, corrections and transaction values in the history',
  'mail addresses in the mail log and the mails in the outbox',
  'free text and these values wherever the audit log held them',
  'download devices and the last part of download IP addresses',
] as const;
