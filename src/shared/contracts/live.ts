import { z } from 'zod';
import { ORDER_EVENT_ACTIONS, ORDER_STATUSES } from '../constants.js';
import { envelope, orderIdField } from './common.js';
import { folderName } from './orders.js';

/**
 * The live queues: the staff event stream (GET /api/admin/events, text/event-stream), presence on an
 * order, and claiming the next order of a folder.
 */

/** `order` event: one per changed order, to every staff stream. */
export const orderChangeEvent = z.object({
  orderId: z.number().int(),
  processStatus: z.enum(ORDER_STATUSES),
  /** Name of the staff member holding the order, '' when nobody does. */
  assignTo: z.string(),
  version: z.number().int(),
  /** Name of who made the change ('' for the system: intake, mail delivery, reminders). */
  by: z.string(),
  /** The order event's action: status, assign, remark, upload, mail, transaction, withdraw, … */
  action: z.enum(ORDER_EVENT_ACTIONS),
});
export type OrderChangeEvent = z.infer<typeof orderChangeEvent>;

/**
 * `notice` event: something managers should look at now (to the roles it names only); a machine's claim
 * or result of the job API too.
 */
export const staffNotice = z.object({
  kind: z.enum([
    'fraud_warning',
    'dispute_band',
    'low-rating',
    'submission_claimed',
    'submission_submitted',
    'submission_failed',
  ]),
  text: z.string(),
  orderId: z.number().int().nullable(),
  /** A low rating's score (1 or 2). */
  score: z.number().int().optional(),
});
export type StaffNotice = z.infer<typeof staffNotice>;

export const presenceViewer = z.object({ staffId: z.number().int(), name: z.string(), editing: z.boolean() });
/** `presence` event: who has the order open now. */
export const presenceEvent = z.object({ orderId: z.number().int(), viewers: z.array(presenceViewer) });
export type PresenceEvent = z.infer<typeof presenceEvent>;

export const presenceBody = z.object({ orderId: orderIdField, editing: z.boolean().default(false) }).strict();
export const presenceParams = z.object({ orderId: orderIdField });
export const presenceResponse = envelope(presenceEvent);

export const claimNextBody = z.object({ folderName }).strict();
export const claimNextResponse = envelope(z.object({ orderId: z.number().int() }));
