import { z } from 'zod';

/** The envelope every API answer uses (DESIGN §6). */
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
  .number({ error: 'orderId: must be a number' })
  .int('orderId: must be a whole number')
  .positive('orderId: must be positive')
  .max(Number.MAX_SAFE_INTEGER);

/** Text with a length cap so that no field can carry megabytes. */
export const text = (max = 200) => z.string().trim().max(max);
