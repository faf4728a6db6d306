import { z } from 'zod';
import { multilineText, text } from './common.js';
import { governmentReferenceField, submissionPacket } from './submission.js';

/** API keys for machines and the job API (docs/product.md, "Machines that submit"). */

const API_KEY_SCOPE_NAMES = ['submission'] as const;

/** POST /api/admin/api-keys */
export const createApiKeyBody = z
  .object({
    name: text(80).min(1, 'is required'),
    scopes: z.array(z.enum(API_KEY_SCOPE_NAMES)).min(1, 'name at least one scope').max(5),
    maxPerMinute: z.number().int().min(1).max(600).optional(),
  })
  .strict();

export const apiKeyView = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.string()),
  maxPerMinute: z.number().int(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});

/** The answer of a creation: the key itself, shown this once. */
export const createdApiKey = apiKeyView.extend({ key: z.string() });

/** A screenshot of the portal: a base64 PNG of at most 2 MB (decoded). */
export const SCREENSHOT_MAX_BYTES = 2 * 1024 * 1024;

/** POST /api/submission-jobs/{jobId}/result */
export const submissionJobResultBody = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), governmentReference: governmentReferenceField }).strict(),
  z
    .object({
      ok: z.literal(false),
      error: multilineText(2000).min(1, 'is required'),
      screenshot: z
        .string()
        .max(Math.ceil(SCREENSHOT_MAX_BYTES / 3) * 4 + 4, 'must be a PNG of at most 2 MB')
        .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64')
        .optional(),
    })
    .strict(),
]);

export const claimedJob = z.object({
  jobId: z.string(),
  orderId: z.number().int(),
  packet: submissionPacket,
});

export const jobResultAnswer = z.object({
  jobId: z.string(),
  orderId: z.number().int(),
  state: z.enum(['submitted', 'failed']),
  /** The stored screenshot of a failure (one of the order's files), null when none was sent. */
  screenshotId: z.number().int().nullable(),
});
