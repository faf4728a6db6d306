import type { OrderAction } from '../../shared/order-rules.js';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { type LockedOrder, lockOrders } from './repository.js';
import { enforceRules } from './rules.js';

/**
 * The order commands (status.ts, delete-restore.ts, assignment.ts, documents.ts, remarks.ts,
 * creation.ts): every change of an order goes through one of these. Each locks the orders it changes,
 * checks the rules inside its transaction (the shared rule table, the version the client saw, the
 * holder rule), writes the change and records its events there (events.ts), so the change, its history
 * and its live event commit together or not at all. A refusal is an OrderRefusal (refusal.ts).
 *
 * Each takes the database or a transaction as `db`: given a transaction, it runs inside it (a flow can
 * chain several commands atomically); given the database, it opens its own. The commands import the
 * database and the shared rules only: what a change means for mail, documents, payments or the audit
 * beyond the order's own rows is composed in src/server/flows/.
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Runs `fn` in the caller's transaction when `db` is one, otherwise in a new transaction. */
export function inTransaction<T>(db: DbOrTx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (db instanceof PgTransaction) return fn(db as Tx);
  return (db as Db).transaction(fn);
}

export const ORDER_NOT_FOUND = 'Order not found';

/** Locks one order (unknown: a `not_found` refusal with `notFoundMessage`). */
export async function lockOne(tx: DbOrTx, orderId: number, notFoundMessage = ORDER_NOT_FOUND) {
  return (await lockOrders(tx, [orderId], notFoundMessage))[0]!;
}

/** Locks the orders (in id order) and refuses the whole batch unless the rules allow `action` on each. */
export async function lockAllowed(
  tx: DbOrTx,
  ids: number[],
  action: OrderAction,
  actor: StaffIdentity,
  today: string,
): Promise<LockedOrder[]> {
  const locked = await lockOrders(tx, ids);
  enforceRules(locked, action, actor, today);
  return locked;
}
