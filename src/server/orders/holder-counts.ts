import { type SQL, sql } from 'drizzle-orm';

/**
 * A member's load as routing and the capacity check read it: one row of order_holder_counts, which
 * statement triggers on orders and order_events keep (drizzle/0114), instead of visiting every order the
 * member holds and their assign events. `staffId`: a column or a value.
 */

/** How many open orders the member holds (their My Orders count). */
export function heldOpenOrders(staffId: SQL): SQL {
  return sql`coalesce((select h.n from order_holder_counts h where h.assigned_to = ${staffId}), 0)::int`;
}

/**
 * A member's load for many members at once (a routing pass reads every member on shift): one join of
 * order_holder_counts. `join` follows the member's table in a from list; `held` (open orders held) and
 * `lastAssignedAt` (when an order was last assigned to them, as text; null: never) are then columns of
 * the select list.
 */
export function holderLoadJoin(staffId: SQL): { join: SQL; held: SQL; lastAssignedAt: SQL } {
  return {
    join: sql`left join order_holder_counts hl on hl.assigned_to = ${staffId}`,
    held: sql`coalesce(hl.n, 0)::int`,
    lastAssignedAt: sql`hl.last_assigned_at::text`,
  };
}
