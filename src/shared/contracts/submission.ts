import { z } from 'zod';
import { expectedVersionField, takeOverField } from './common.js';

/**
 * The government step (docs/product.md, "Submitting to the government"): the submission packet and the
 * government's reference.
 */

/** The reference the portal gives: trimmed, 4–40 letters, digits and '-'. */
export const GOVERNMENT_REFERENCE_PATTERN = /^[A-Za-z0-9-]{4,40}$/;

export const governmentReferenceField = z
  .string({ error: 'is required' })
  .max(200, 'must be 4 to 40 letters, digits or -')
  .trim()
  .regex(GOVERNMENT_REFERENCE_PATTERN, 'must be 4 to 40 letters, digits or -');

/** POST /api/admin/orders/{id}/submitted: the move to Awaiting Govt with the government's reference. */
export const markSubmittedBody = z
  .object({
    governmentReference: governmentReferenceField,
    expectedVersion: expectedVersionField,
    takeOver: takeOverField,
    /** Continue although someone else moved the order seconds ago (answered 409 with recentMove). */
    confirmRecent: z.boolean().optional(),
  })
  .strict();
export type MarkSubmittedBody = z.infer<typeof markSubmittedBody>;

export const markSubmittedAnswer = z.object({
  order_id: z.number().int(),
  from: z.string(),
  process_status: z.string(),
  government_reference: z.string(),
  submitted_at: z.string(),
});

export const PACKET_SECTIONS = ['traveller', 'passport', 'trip', 'address', 'contact'] as const;
export type PacketSection = (typeof PACKET_SECTIONS)[number];

/** One field of the government form, its value already in the form's format. */
export const packetField = z.object({
  key: z.string(),
  section: z.enum(PACKET_SECTIONS),
  label: z.string(),
  value: z.string(),
  /** The order's value as the customer typed it, when the form's format changed it (e.g. Ø → O). */
  original: z.string().nullable(),
});
export type PacketField = z.infer<typeof packetField>;

export const packetWarning = z.object({
  /** The form field it concerns (null for the order's checks as a whole). */
  key: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export type PacketWarning = z.infer<typeof packetWarning>;

export const submissionPacket = z.object({
  fields: z.array(packetField),
  warnings: z.array(packetWarning),
});
export type SubmissionPacket = z.infer<typeof submissionPacket>;

/** The packet as plain text, one "Label: value" line per filled field ("Copy all as text"). */
export function packetText(fields: readonly Pick<PacketField, 'label' | 'value'>[]): string {
  return fields
    .filter((f) => f.value)
    .map((f) => `${f.label}: ${f.value}`)
    .join('\n');
}

/** The submission policy (GET/PUT /api/admin/submission-policy). */
export const submissionPolicy = z
  .object({
    /** How long before arrival the portal accepts an application; null: no window (the default). */
    windowHours: z
      .number({ error: 'must be a number or null' })
      .int('must be a whole number')
      .min(1, 'must be 1 to 2160 hours, or null for no window')
      .max(2160, 'must be 1 to 2160 hours, or null for no window')
      .nullable(),
    /** A machine's job returns its order to the queue after this many minutes without a result. */
    jobMinutes: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be 1 to 1440 minutes')
      .max(1440, 'must be 1 to 1440 minutes'),
    /** Government mail with the card sends the approval mail and completes the order by itself. */
    autoSendCard: z.boolean({ error: 'must be true or false' }),
  })
  .strict();
export type SubmissionPolicy = z.infer<typeof submissionPolicy>;

export const DEFAULT_SUBMISSION_POLICY: SubmissionPolicy = {
  windowHours: null,
  jobMinutes: 15,
  autoSendCard: false,
};
/** What the settings screen suggests: the portal accepts applications a week before arrival. */
export const SUGGESTED_WINDOW_HOURS = 168;

export const submissionPolicyAnswer = submissionPolicy.extend({
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  /** Orders whose processing date the last change moved (PUT only). */
  moved: z.number().int().optional(),
});

/** A file kept with an order that is not its card: a machine's screenshot of a failed submission. */
export const orderFileItem = z.object({
  id: z.number().int(),
  kind: z.enum(['submission_screenshot']),
  name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number().int(),
  /** The failed submission's error, for a screenshot. */
  note: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  download_url: z.string(),
});
export type OrderFileItem = z.infer<typeof orderFileItem>;
