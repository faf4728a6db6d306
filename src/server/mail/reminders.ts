import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import type { MailProvider, OrderStatus } from '../../shared/constants.js';
import { sqlList } from '../db/sql-lists.js';
import { writeMail } from './outbox.js';

/** An order in these statuses gets no reminder: deleted, or its money is going back. */
const NO_REMINDER_STATUSES: readonly OrderStatus[] = ['Deleted', 'Refunds', 'Refunded', 'ChargeBack'];

/** A reminder is only sent for approval mails sent within this window after the delay (catch-up after downtime). */
const CATCH_UP_DAYS = 7;

/**
 * Queues the one reminder (decision 031): for each current document whose first approval mail was sent more
 * than REMINDER_AFTER_HOURS ago and that has not been downloaded since. The partial unique index on
 * mail_log(document_id) where is_reminder makes it one per document even with several instances.
 * Returns the number of reminders queued.
 */
export async function queueDueReminders(
  database: Database,
  afterHours: number,
  now = new Date(),
): Promise<number> {
  return database.db.transaction(async (tx) => {
    const { rows } = await tx.execute<{
      order_id: string;
      document_id: string;
      to_email: string;
      provider: MailProvider;
    }>(sql`
      with first_sent as (
        select distinct on (m.document_id) m.order_id, m.document_id, m.to_email, m.provider, m.updated_at as sent_at
        from mail_log m
        where m.kind in ('approval', 'resend') and m.status = 'sent' and m.document_id is not null
          and not m.is_reminder
        order by m.document_id, m.updated_at asc
      ),
      due as (
        select f.* from first_sent f
        join orders o on o.order_id = f.order_id
        where f.sent_at <= ${now.toISOString()}::timestamptz - ${afterHours} * interval '1 hour'
          and f.sent_at > ${now.toISOString()}::timestamptz - ${afterHours} * interval '1 hour' - ${`${CATCH_UP_DAYS} days`}::interval
          and o.process_status not in (${sqlList(NO_REMINDER_STATUSES)})
          and f.document_id = (select d.id from documents d where d.order_id = f.order_id and d.withdrawn_at is null
                               order by d.created_at desc, d.id desc limit 1)
          and not exists (select 1 from download_log dl where dl.order_id = f.order_id and dl.created_at >= f.sent_at)
          and not exists (select 1 from mail_log r where r.document_id = f.document_id and r.is_reminder)
        order by f.sent_at
        limit 200
      )
      select order_id::text as order_id, document_id::text as document_id, to_email, provider from due`);
    let queued = 0;
    for (const r of rows) {
      const mail = await writeMail(
        tx,
        {
          orderId: Number(r.order_id),
          kind: 'reminder',
          toEmail: r.to_email,
          provider: r.provider,
          documentId: Number(r.document_id),
          isReminder: true,
          requestedBy: null,
        },
        'reminder',
      );
      if (mail) queued++;
    }
    return queued;
  });
}
