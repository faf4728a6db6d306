import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';

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

const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

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
  // Resends inside the window, and seconds until the oldest of them leaves it.
  const recent = (column: SQL, value: number, minutes: number, kinds: SQL) => sql`(
    select count(*)::int as n,
           ceil(extract(epoch from min(created_at) + make_interval(mins => ${minutes}) - now()))::int as wait
    from mail_log
    where ${kinds} and ${column} = ${value} and status <> 'cancelled'
      and created_at > now() - make_interval(mins => ${minutes}))`;
  const { rows } = await tx.execute<{
    order_n: number;
    order_wait: number | null;
    staff_n: number;
    staff_wait: number | null;
  }>(sql`
    select o.n as order_n, o.wait as order_wait, s.n as staff_n, s.wait as staff_wait
    from ${recent(sql`order_id`, orderId, perOrder.windowMinutes, opts.uploads ? sql`kind in ('approval', 'resend')` : sql`kind = 'resend'`)} o,
         ${recent(sql`requested_by`, staffId, perStaff.windowMinutes, sql`kind = 'resend'`)} s`);
  const row = rows[0];
  if (!row) return null;
  if (row.order_n >= perOrder.max) {
    const wait = Math.max(1, row.order_wait ?? 60);
    return {
      message: `The card of this order has been mailed ${opts.uploads ? '' : 'again '}${perOrder.max} times in the last hour. Please try again in ${inMinutes(wait)}.`,
      retryAfterSeconds: wait,
    };
  }
  if (row.staff_n >= perStaff.max) {
    const wait = Math.max(1, row.staff_wait ?? 60);
    return {
      message: `You have mailed cards again ${perStaff.max} times in the last hour. Please try again in ${inMinutes(wait)}.`,
      retryAfterSeconds: wait,
    };
  }
  return null;
}
