import { z } from 'zod';
import { envelope } from './common.js';

/** GET /api/admin/call-backs-due: the call-backs due for the signed-in member (decision 383). */
const callBackDue = z.object({
  orderId: z.number().int(),
  name: z.string(),
  status: z.string(),
  callBackAt: z.string(),
  note: z.string(),
  /** Asked for by the customer's low rating (the Telecallers' shared queue), not logged by a member. */
  fromCustomer: z.boolean(),
});
export type CallBackDue = z.infer<typeof callBackDue>;
export const callBacksDueResponse = envelope(z.array(callBackDue));
