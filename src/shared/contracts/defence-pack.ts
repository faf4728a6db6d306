// The Defence Packs: the request of a pack's PDF or its evidence as JSON, and that evidence.
import { z } from 'zod';
import { DEFENCE_PACK_TYPES } from '../constants.js';
import { envelope, orderIdField } from './common.js';
import {
  downloadHistoryItem,
  mailHistoryItem,
  orderEventItem,
  orderFields,
  remarkItem,
  uploadDocItem,
} from './order-detail.js';

const nullableText = z.string().nullable();
const isoInstant = z.string();

/** POST /api/admin/get-defence-pack-pdf → application/pdf */
export const defencePackBody = z.object({
  orderId: orderIdField,
  defencePackType: z.coerce.number({ error: 'must be 1 or 2' }).pipe(
    z.union([z.literal(DEFENCE_PACK_TYPES[0]), z.literal(DEFENCE_PACK_TYPES[1])], {
      error: 'must be 1 or 2',
    }),
  ),
});
export type DefencePackBody = z.input<typeof defencePackBody>;

/** POST /api/admin/defence-pack-details → the evidence as JSON. defencePackType defaults to 2 (everything). */
export const defencePackDetailsBody = z.object({
  orderId: orderIdField,
  defencePackType: defencePackBody.shape.defencePackType.optional(),
});

/** defence-pack-details: the evidence the PDFs are built from, sections in time order. */
export const defencePackDetails = z.object({
  defencePackType: z.union([z.literal(1), z.literal(2)]),
  generated_at: isoInstant,
  order: orderFields,
  document: uploadDocItem.nullable(),
  mails: z.array(mailHistoryItem),
  mailAttempts: z.array(
    z.object({
      mail_id: z.number(),
      attempt: z.number(),
      provider: z.string(),
      ok: z.boolean(),
      message_id: nullableText,
      error: nullableText,
      create_ts: isoInstant,
    }),
  ),
  downloads: z.array(downloadHistoryItem),
  /**
   * Always empty: remarks and raw order events are internal notes, never evidence for a bank (the fields
   * stay for existing clients). Pack 2 carries statusHistory and mailContents instead.
   */
  remarks: z.array(remarkItem),
  events: z.array(orderEventItem),
  /** Pack 2: what the customer was sent, as rendered from each mail's template version (subject and text). */
  mailContents: z.array(z.object({ mail_id: z.number(), subject: z.string(), text: z.string() })).optional(),
  /** Pack 2: the order's history in words (placed, moves between statuses by their queue names, uploads). */
  statusHistory: z.array(z.object({ create_ts: isoInstant, text: z.string() })).optional(),
  /**
   * What was submitted to the government: when, by whom, the reference, and the packet's fields as
   * the order holds them now (docs/product.md, "Submitting to the government").
   * Null: never submitted.
   */
  submission: z
    .object({
      submitted_at: isoInstant.nullable(),
      /** The staff member's name (this JSON is for staff); the PDF names only the role. */
      submitted_by: nullableText,
      submitted_by_role: nullableText,
      government_reference: nullableText,
      fields: z.array(z.object({ label: z.string(), value: z.string() })),
    })
    .nullable()
    .optional(),
  /** The card check's release of the current card (a card that did not match, let go with a reason). */
  cardRelease: z.object({ by: nullableText, at: isoInstant, reason: z.string() }).nullable().optional(),
  /** Set when the order's personal data was erased: when, by whom (null: the retention policy), what. */
  erasure: z
    .object({ erased_at: isoInstant, by: nullableText, erased: z.string(), reason: nullableText })
    .nullable()
    .optional(),
});
export type DefencePackDetails = z.infer<typeof defencePackDetails>;
export const defencePackDetailsResponse = envelope(defencePackDetails);
