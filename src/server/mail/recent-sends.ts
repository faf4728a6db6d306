import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';

/** The mails of mail_log one limit counts, and how many minutes back it looks. */
export interface SendWindow {
  /** Which mails count (the order's, the staff member's, some kinds); cancelled mails never do. */
  where: SQL;
  minutes: number;
}

/** The mails inside a window, and the seconds until the oldest of them leaves it (null when none). */
export interface RecentSends {
  count: number;
  waitSeconds: number | null;
}

const inWindow = (window: SendWindow) => sql`(
    select count(*)::int as n,
           ceil(extract(epoch from min(created_at) + make_interval(mins => ${window.minutes}) - now()))::int as wait
    from mail_log
    where ${window.where} and status <> 'cancelled'
      and created_at > now() - make_interval(mins => ${window.minutes}))`;

/**
 * The one "recent sends in a window" count, behind the customer-mail limits (mail/limits.ts) and the
 * resend limits (mail/resend-limits.ts): the order's window and the staff member's in one
 * statement, counted in mail_log itself, so the limits hold across restarts and instances. Call it in
 * the mail's transaction after the locks that serialise the counts.
 */
export async function recentSends(
  tx: DbOrTx,
  perOrder: SendWindow,
  perStaff: SendWindow,
): Promise<{ perOrder: RecentSends; perStaff: RecentSends }> {
  const { rows } = await tx.execute<{
    order_n: number;
    order_wait: number | null;
    staff_n: number;
    staff_wait: number | null;
  }>(sql`
    select o.n as order_n, o.wait as order_wait, s.n as staff_n, s.wait as staff_wait
    from ${inWindow(perOrder)} o, ${inWindow(perStaff)} s`);
  const row = rows[0];
  return {
    perOrder: { count: row?.order_n ?? 0, waitSeconds: row?.order_wait ?? null },
    perStaff: { count: row?.staff_n ?? 0, waitSeconds: row?.staff_wait ?? null },
  };
}

/** A wait said in whole minutes, at least one: "1 minute", "12 minutes". */
export function waitInMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
