import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { recentSends, waitInMinutes } from './recent-sends.js';

/**
 * How often the approved card may be mailed again (decision 111): per order and per staff member,
 * counted in mail_log itself, so the limit holds across restarts and instances without Redis. For an
 * upload the per-order count takes approval mails and resends together (decision 297).
 */
export const RESEND_LIMITS = {
  perOrder: { max: 5, windowMinutes: 60 },
  perStaff: { max: 30, windowMinutes: 60 },
} as const;

/** Key space of the advisory lock that serialises one staff member's resends (any number, fixed). */
const RESEND_LOCK_SPACE = 7_110_111;

export interface ResendRefusal {
  message: string;
  retryAfterSeconds: number;
}

/**
 * Null when one more resend is allowed, else why not and for how long. Call inside the resend's
 * transaction after the order lock: the order lock serialises the per-order count, an advisory lock
 * the per-staff count, so parallel requests cannot all see room for one more.
 */
export async function resendRefusal(
  tx: DbOrTx,
  orderId: number,
  staffId: number,
  /** For an upload: the per-order count takes approval mails and resends together. */
  opts: { uploads?: boolean } = {},
): Promise<ResendRefusal | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(${RESEND_LOCK_SPACE}, ${staffId})`);
  const { perOrder, perStaff } = RESEND_LIMITS;
  const resends = sql`kind = 'resend'`;
  const recent = await recentSends(
    tx,
    {
      where: sql`${opts.uploads ? sql`kind in ('approval', 'resend')` : resends} and order_id = ${orderId}`,
      minutes: perOrder.windowMinutes,
    },
    { where: sql`${resends} and requested_by = ${staffId}`, minutes: perStaff.windowMinutes },
  );
  if (recent.perOrder.count >= perOrder.max) {
    const wait = Math.max(1, recent.perOrder.waitSeconds ?? 60);
    return {
      message: `The card of this order has been mailed ${opts.uploads ? '' : 'again '}${perOrder.max} times in the last hour. Please try again in ${waitInMinutes(wait)}.`,
      retryAfterSeconds: wait,
    };
  }
  if (recent.perStaff.count >= perStaff.max) {
    const wait = Math.max(1, recent.perStaff.waitSeconds ?? 60);
    return {
      message: `You have mailed cards again ${perStaff.max} times in the last hour. Please try again in ${waitInMinutes(wait)}.`,
      retryAfterSeconds: wait,
    };
  }
  return null;
}
