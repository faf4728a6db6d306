import { z } from 'zod';
import { expectedVersionField, text } from './common.js';

/**
 * The card check (docs/product.md, "Card check"): what was read from the approved card, compared with
 * the order, before the card leaves.
 */
export const CARD_FIELDS = [
  'surname',
  'given_names',
  'passport_number',
  'date_of_birth',
  'arrival_date',
  'flight_number',
  'reference',
] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** match: found and equal; mismatch: found and different; absent: not found, or nothing to compare with. */
export const CARD_FIELD_STATUSES = ['match', 'mismatch', 'absent'] as const;
export type CardFieldStatus = (typeof CARD_FIELD_STATUSES)[number];

/** pass: nothing differs; mismatch: a field differs; unread: no text and no QR code on the card. */
export const CARD_RESULTS = ['pass', 'mismatch', 'unread'] as const;
export type CardResult = (typeof CARD_RESULTS)[number];

export const cardFieldResult = z.object({
  field: z.enum(CARD_FIELDS),
  expected: z.string().nullable(),
  found: z.string().nullable(),
  status: z.enum(CARD_FIELD_STATUSES),
});
export type CardFieldResult = z.infer<typeof cardFieldResult>;

export const cardCheck = z.object({
  documentId: z.number().int(),
  /** null while the card is still being read. */
  checkedAt: z.string().nullable(),
  /** null while the card is still being read. */
  result: z.enum(CARD_RESULTS).nullable(),
  fields: z.array(cardFieldResult),
  /** Another order holding the same file (sha256): the strongest sign of a card sent to the wrong traveller. */
  duplicateOf: z.number().int().nullable(),
  qr: z.array(z.string()),
  /** True when the card may not leave: a mismatch or a duplicate, not released. */
  blocked: z.boolean(),
  running: z.boolean(),
  release: z.object({ by: z.string().nullable(), at: z.string(), reason: z.string() }).nullable(),
});
export type CardCheck = z.infer<typeof cardCheck>;

/** GET /api/admin/orders/{id}/card-check: the check of the current card; null without a card. */
export const cardCheckAnswer = z.object({ cardCheck: cardCheck.nullable() });

export const releaseCardBody = z
  .object({ reason: text(500).pipe(z.string().min(3, 'at least 3 characters')) })
  .strict();

/** POST /api/admin/orders/{id}/send-arrived-card: mail the government's card and complete. */
export const sendArrivedCardBody = z.object({ expectedVersion: expectedVersionField }).strict();

/** The order fields a passport scan is compared with; each is a correctable field (PATCH /admin/orders/{id}). */
export const SCAN_FIELDS = [
  'passport_number',
  'last_name',
  'first_name',
  'nationality',
  'date_of_birth',
  'passport_expiration',
] as const;
export type ScanField = (typeof SCAN_FIELDS)[number];

export const passportScan = z.object({
  id: z.number().int(),
  source: z.string(),
  createdAt: z.string(),
  /** read: a valid MRZ; unreadable: none found, or its check digits fail. */
  status: z.enum(['read', 'unreadable']),
  reason: z.string().nullable(),
  /** The scan's value of each field, as the order writes it (nationality as the ISO name), and the order's. */
  fields: z.array(
    z.object({
      field: z.enum(SCAN_FIELDS),
      scan: z.string().nullable(),
      order: z.string().nullable(),
      differs: z.boolean(),
    }),
  ),
});
export type PassportScan = z.infer<typeof passportScan>;

export const passportScanAnswer = z.object({ passportScan: passportScan.nullable() });
