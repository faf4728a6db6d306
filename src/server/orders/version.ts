import { sql } from 'drizzle-orm';

/**
 * The SET items that raise an order's version in the writer's own update (drizzle/0099): the order's
 * events of the same transaction then publish without a second update of the order, so the counters',
 * reports' and insights' triggers run once for the change. Raised by one per update that carries it,
 * however many events the transaction records; an order changed with no update of its own (a remark)
 * is raised by the publish trigger instead, one per event. The items name the target's columns
 * (`update orders o set …, ${VERSION_BUMP}` is fine).
 */
export const VERSION_BUMP = sql.raw('version = version + 1, version_xact = txid_current()');

/** VERSION_BUMP as the values of a query builder's `.set()` (`tx.update(orders).set({ …, ...versionBump })`). */
export const versionBump = {
  version: sql`${sql.identifier('version')} + 1`,
  versionXact: sql`txid_current()`,
};
