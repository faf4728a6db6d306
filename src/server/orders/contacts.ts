import { asc, eq, sql } from 'drizzle-orm';
import type { ContactChannel, ContactOutcome } from '../../shared/constants.js';
import type { DbOrTx } from '../db/client.js';
import { orderContacts, orders, staffUsers } from '../db/schema.js';
import type { StaffIdentity } from '../context.js';
import { refuseConflict } from './refusal.js';
import { changeStatus } from './status.js';
import type { StatusEffects } from './status-effects.js';
import { inTransaction } from './transaction.js';
import { recordEvents } from './events.js';
import { lockOrders } from './repository.js';
import { applyHolderRule, assertVersion } from './rules.js';
import { CLOSED_STATUSES } from '../../shared/constants.js';
import { sqlList, sqlValue } from '../db/sql-lists.js';
import { versionBump } from './version.js';

/**
 * Calls and WhatsApp contacts with the customer, logged with their outcome in the order's conversation
 * (decision 331). A call-back puts the order in the caller's My Orders; from its time on it counts as a
 * call-back due.
 */

export interface LogContactInput {
  orderId: number;
  channel: ContactChannel;
  outcome: ContactOutcome;
  callBackAt?: string | undefined;
  note?: string | undefined;
  takeOver?: boolean | undefined;
  expectedVersion?: number | undefined;
  /** Reached: the move to Customer Called in the same transaction (the order rules apply). */
  moveToCustomerCalled?: boolean | undefined;
}

/** Logs one contact in one transaction with its order event; a call-back assigns the order to the caller. */
export async function logContact(
  db: DbOrTx,
  actor: StaffIdentity,
  input: LogContactInput,
  effects: StatusEffects,
): Promise<{
  contactId: number;
  assignedTo: number | null;
  callBackAt: string | null;
  processStatus: string;
}> {
  return inTransaction(db, async (tx) => {
    const [order] = await lockOrders(tx, [input.orderId], 'Order not found');
    if (order!.processStatus === 'Deleted') {
      throw refuseConflict('The order is deleted: restore it before logging a contact.');
    }
    await assertVersion(tx, order!, input.expectedVersion);
    const callBack = input.outcome === 'call_back' && input.callBackAt ? new Date(input.callBackAt) : null;
    let assignedTo = order!.assignedTo;
    if (callBack) {
      if (assignedTo === null) {
        await tx
          .update(orders)
          .set({ assignedTo: actor.id, updatedAt: sql`now()`, ...versionBump })
          .where(eq(orders.orderId, input.orderId));
        await recordEvents(tx, [
          { orderId: input.orderId, actorId: actor.id, action: 'assign', toValue: String(actor.id) },
        ]);
      } else {
        // Someone else holds it: the holder rule of every change (Admin and Manager may take over).
        await applyHolderRule(tx, order!, actor, input.takeOver ?? false);
      }
      assignedTo = actor.id;
    }
    const [row] = await tx
      .insert(orderContacts)
      .values({
        orderId: input.orderId,
        staffId: actor.id,
        channel: input.channel,
        outcome: input.outcome,
        callBackAt: callBack,
        note: input.note ?? '',
      })
      .returning({ id: orderContacts.id });
    await recordEvents(tx, [
      {
        orderId: input.orderId,
        actorId: actor.id,
        action: 'contact',
        toValue: `${input.channel} ${input.outcome}${callBack ? ` ${callBack.toISOString()}` : ''}`,
      },
    ]);
    const moved =
      input.moveToCustomerCalled && input.outcome === 'reached' && order!.processStatus !== 'Customer Called'
        ? await changeStatus(
            tx,
            actor,
            {
              orderId: input.orderId,
              to: 'Customer Called',
              takeOver: input.takeOver,
              // The version check above shows the member saw the order as it is: a move seconds ago
              // by someone else is already on their screen.
              confirmRecent: input.expectedVersion !== undefined,
            },
            effects,
          )
        : null;
    return {
      contactId: row!.id,
      assignedTo,
      callBackAt: callBack?.toISOString() ?? null,
      processStatus: moved?.to ?? order!.processStatus,
    };
  });
}

/** The contacts of one order, oldest first, with the name of who logged each. */
export async function contactsOf(db: DbOrTx, orderId: number) {
  return db
    .select({
      id: orderContacts.id,
      at: orderContacts.createdAt,
      channel: orderContacts.channel,
      outcome: orderContacts.outcome,
      callBackAt: orderContacts.callBackAt,
      note: orderContacts.note,
      staffName: staffUsers.name,
    })
    .from(orderContacts)
    .leftJoin(staffUsers, eq(staffUsers.id, orderContacts.staffId))
    .where(eq(orderContacts.orderId, orderId))
    .orderBy(asc(orderContacts.createdAt), asc(orderContacts.id));
}

const CLOSED_LIST = sqlList(CLOSED_STATUSES);

/**
 * Call-backs due for one staff member: the last logged contact of the order is a call-back whose time has
 * come, and either the member holds the order (an open one), or the customer asked for it by a low rating
 * (logged by nobody, on a Completed order nobody works) and the member is a Telecaller: those are the
 * Telecallers' shared queue until one of them logs a contact (decision 383). Read from the due call-backs (a
 * partial index: few rows) towards their orders, not from every order the member holds: the folder counts
 * ask this on every request and live update.
 */
function dueCallBacks(staffId: number) {
  return sql`
    from order_contacts c
    join orders o on o.order_id = c.order_id
    where c.outcome = 'call_back' and c.call_back_at <= now()
      and not exists (
        select 1 from order_contacts later
        where later.order_id = c.order_id and (later.created_at, later.id) > (c.created_at, c.id))
      and (
        (o.assigned_to = ${staffId} and o.process_status not in (${CLOSED_LIST}))
        or (c.staff_id is null and o.process_status <> ${sqlValue('Deleted')}
            and exists (select 1 from staff_users s where s.id = ${staffId} and s.role = 'Telecaller'
                          and s.deleted_at is null)))`;
}

export async function callBackDueCount(db: DbOrTx, staffId: number): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n ${dueCallBacks(staffId)}`);
  return Number(rows[0]?.n ?? 0);
}

/** The call-backs due for one staff member (as counted above), the longest waiting first. */
export async function callBacksDue(db: DbOrTx, staffId: number) {
  const { rows } = await db.execute<{
    order_id: string;
    first_name: string;
    last_name: string;
    process_status: string;
    call_back_at: string;
    note: string;
    from_customer: boolean;
  }>(sql`
    select o.order_id::text, o.first_name, o.last_name, o.process_status,
           to_char(c.call_back_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as call_back_at,
           c.note, c.staff_id is null as from_customer
    ${dueCallBacks(staffId)}
    order by c.call_back_at, o.order_id
    limit 200`);
  return rows.map((r) => ({
    orderId: Number(r.order_id),
    name: `${r.first_name} ${r.last_name}`.trim(),
    status: r.process_status,
    callBackAt: r.call_back_at,
    note: r.note,
    fromCustomer: r.from_customer === true,
  }));
}
