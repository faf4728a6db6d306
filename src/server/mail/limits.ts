import { sql } from 'drizzle-orm';
import type { MailKind } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { HttpError } from '../http/errors.js';
import { recentSends, waitInMinutes } from './recent-sends.js';

/**
 * Limits on customer mail (decision 295), counted in mail_log itself like the resend limits, so they
 * hold across restarts and instances: per staff member and per order, over every path (macros, status
 * notifications, uploads, resends, invoices). Cancelled mails and the system's reminders do not count.
 */
export const CUSTOMER_MAIL_LIMITS = {
  perOrder: { max: 10, windowMinutes: 60 },
  perStaff: { max: 300, windowMinutes: 60 },
  /** The same template mail to the same order is not queued again within this window. */
  repeatMinutes: 15,
} as const;

/** Key space of the advisory lock that serialises one staff member's customer mail (any number, fixed). */
const MAIL_LOCK_SPACE = 7_110_295;

/** 429 with the seconds to wait (the error handler answers them as Retry-After). */
export function mailLimitError(message: string, retryAfterSeconds: number): HttpError {
  return new HttpError(429, message, { retryAfterSeconds });
}

/**
 * Refuses (429, nothing written) one more customer mail of `orderId` by `staffId` over the limits. Call
 * inside the mail's transaction after the order lock: the order lock serialises the per-order count, an
 * advisory lock the per-staff count. The system (staffId null) is only held to the per-order limit.
 */
export async function assertCustomerMailAllowed(
  tx: DbOrTx,
  orderId: number,
  staffId: number | null,
): Promise<void> {
  const { perOrder, perStaff } = CUSTOMER_MAIL_LIMITS;
  if (staffId !== null) await tx.execute(sql`select pg_advisory_xact_lock(${MAIL_LOCK_SPACE}, ${staffId})`);
  // The system's own mails (requested_by null) count for no one.
  const recent = await recentSends(
    tx,
    { where: sql`order_id = ${orderId} and requested_by is not null`, minutes: perOrder.windowMinutes },
    {
      where: sql`requested_by = ${staffId ?? -1} and requested_by is not null`,
      minutes: perStaff.windowMinutes,
    },
  );
  if (recent.perOrder.count >= perOrder.max) {
    const wait = Math.max(1, recent.perOrder.waitSeconds ?? 60);
    throw mailLimitError(
      `The customer of order ${orderId} has been mailed ${perOrder.max} times in the last hour. Please try again in ${waitInMinutes(wait)}.`,
      wait,
    );
  }
  if (staffId !== null && recent.perStaff.count >= perStaff.max) {
    const wait = Math.max(1, recent.perStaff.waitSeconds ?? 60);
    throw mailLimitError(
      `You have mailed customers ${perStaff.max} times in the last hour. Please try again in ${waitInMinutes(wait)}.`,
      wait,
    );
  }
}

/**
 * Minutes since the same template mail was queued for the order inside the repeat window (not
 * cancelled), or null: the caller then skips it, so moving an order back and forth mails once.
 */
export async function repeatedMailMinutes(
  tx: DbOrTx,
  orderId: number,
  templateKey: string,
): Promise<number | null> {
  const { rows } = await tx.execute<{ minutes: number }>(sql`
    select floor(extract(epoch from now() - m.created_at) / 60)::int as minutes
    from mail_log m join mail_templates t on t.id = m.template_id
    where m.order_id = ${orderId} and t.key = ${templateKey} and m.status <> 'cancelled'
      and m.created_at > now() - make_interval(mins => ${CUSTOMER_MAIL_LIMITS.repeatMinutes})
    order by m.created_at desc limit 1`);
  return rows[0] ? Number(rows[0].minutes) : null;
}

/**
 * Undo of a move: cancels the mails of the order that `staffId` caused and that are still held (not yet
 * handed to delivery). Answers what was cancelled, for the order's history.
 */
export async function cancelHeldMails(
  tx: DbOrTx,
  orderId: number,
  staffId: number,
): Promise<{ id: number; kind: MailKind }[]> {
  const { rows } = await tx.execute<{ id: string; kind: MailKind }>(sql`
    update mail_log set status = 'cancelled', updated_at = now()
    where order_id = ${orderId} and requested_by = ${staffId} and status = 'queued'
      and hold_until is not null
    returning id::text as id, kind`);
  return rows.map((r) => ({ id: Number(r.id), kind: r.kind }));
}

/**
 * Undo of "Use as approved card": cancels the held approval mail of one document that `staffId` caused,
 * if it is still inside its undo window (not handed to delivery). Null when there is none.
 */
export async function cancelHeldDocumentMail(
  tx: DbOrTx,
  orderId: number,
  documentId: number,
  staffId: number,
): Promise<{ id: number; kind: MailKind } | null> {
  const { rows } = await tx.execute<{ id: string; kind: MailKind }>(sql`
    update mail_log set status = 'cancelled', updated_at = now()
    where order_id = ${orderId} and document_id = ${documentId} and requested_by = ${staffId}
      and status = 'queued' and hold_until is not null and hold_until > now()
    returning id::text as id, kind`);
  return rows[0] ? { id: Number(rows[0].id), kind: rows[0].kind } : null;
}
