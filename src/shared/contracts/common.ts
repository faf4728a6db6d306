import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, MULTI_LINE_PATTERN, ONE_LINE_PATTERN } from '../control-characters.js';

/** The envelope every API answer uses (docs/product.md, "The API"). */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({
    status: z.union([z.literal(0), z.literal(1), z.literal(401)]),
    message: z.string(),
    data: data.optional(),
  });

export const messageOnly = z.object({
  status: z.union([z.literal(0), z.literal(1), z.literal(401)]),
  message: z.string(),
});

/** Calendar date as YYYY-MM-DD. */
export const isoDate = z.iso.date();

/** A numeric order id, accepted as a number or a digit string (the SPA sends either). */
export const orderIdField = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(Number.MAX_SAFE_INTEGER);

/**
 * Validation messages name no field: the error handler puts the field in front, once.
 * Free text is capped (no field can carry megabytes) and free of control characters.
 */
export const noControlCharacters = (schema: z.ZodString) =>
  schema.regex(ONE_LINE_PATTERN, CONTROL_CHARACTERS_MESSAGE);

/** A text area (remarks, addresses): tab and line breaks allowed, other control characters not. */
export const noControlCharactersExceptLines = (schema: z.ZodString) =>
  schema.regex(MULTI_LINE_PATTERN, CONTROL_CHARACTERS_MESSAGE);

/** One-line text: trimmed, capped, no control characters. */
export const text = (max = 200) =>
  noControlCharacters(z.string().trim().max(max, `at most ${max} characters`));

/** Text of a text area: trimmed, capped, tab and line breaks allowed. */
export const multilineText = (max = 2000) =>
  noControlCharactersExceptLines(z.string().trim().max(max, `at most ${max} characters`));

/**
 * Optional on every change of one order: the order's `version` as the client last saw it. When the
 * order has changed since, the server refuses with 409 naming who changed it; absent, no check is made.
 */
export const expectedVersionField = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be 1 or more')
  .max(2_147_483_647, 'is too large')
  .optional();

/** Admin and Manager: take over an order someone else holds, to change it. */
export const takeOverField = z.boolean().optional();
