import { type SQL, sql } from 'drizzle-orm';
import type { OrderListRow } from '../../shared/contracts/orders.js';
import { sqlValue } from '../db/sql-lists.js';
import { dueColumnsOf, type DueClock, dueStateSql } from '../due-time/policy.js';

/** A list row as the database returns it (ids as text). */
export type RawRow = Omit<OrderListRow, 'order_id'> & { order_id: string };

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** The columns of a list row over `orders o` joined to `staff_users s`. */
export function rowColumns(clock: DueClock): SQL {
  return sql`o.order_id::text as order_id, o.process_status, o.first_name, o.last_name,
           o.arrival_date::text as arrival_date, o.email, o.telephone_number, o.phone_code,
           to_char(o.created_at at time zone 'UTC', ${sql.raw(ISO)}) as created_at,
           to_char(o.refund_date at time zone 'UTC', ${sql.raw(ISO)}) as refund_date,
           o.processing_date::text as processing_date,
           to_char(o.processing_date, 'Mon') as process_month,
           coalesce(s.name, '') as assign_to,
           o.nationality, o.processing_mode,
           to_char(o.due_at at time zone 'UTC', ${sql.raw(ISO)}) as due_at,
           ${dueStateSql(dueColumnsOf('o'), clock)} as due_state,
           o.check_level::int as check_level,
           coalesce(array(select jsonb_array_elements(o.checks)->>'code'), '{}') as check_codes,
           o.amount::text as amount, o.currency,
           case when o.process_status = ${sqlValue('ChargeBack')} then (
             select d.reason from payment_disputes d where d.order_id = o.order_id
             order by d.created_at desc, d.id desc limit 1) end as dispute_reason,
           (o.customer_replied_at is not null) as customer_replied,
           (o.customer_edited_at is not null) as customer_edited,
           o.refund_reason, o.refund_reason_text,

           o.government_reference,
           to_char(o.submission_opens_at at time zone 'UTC', ${sql.raw(ISO)}) as submission_opens_at`;
}
