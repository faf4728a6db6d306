import { type SQL, sql } from 'drizzle-orm';

/** One group of a chain: its CTE name and what it adds to the shared condition. */
export interface ChainGroup {
  name: string;
  where: SQL;
}

/**
 * Groups of an order read one after another (a working queue's page, decision 452; claim-next's pick,
 * WORK_ORDER in claim.ts): each group is a materialized CTE that asks only for what the groups before
 * it left over of `needed` (a LIMIT of 0 reads nothing), so each walk stops at the rows the whole needs.
 * `read` writes one group's select from the group (its condition, and whatever else the caller's group
 * type carries) and its limit. Answers the CTEs (comma-joined, to follow a `with`) and the union of the
 * groups' rows.
 */
export function groupChain<G extends ChainGroup>(
  groups: readonly G[],
  needed: SQL,
  read: (group: G, limit: SQL) => SQL,
): { ctes: SQL; all: SQL } {
  const ctes = groups.map((g, i) => {
    const taken = groups.slice(0, i).map((before) => sql`(select count(*) from ${sql.raw(before.name)})`);
    const limit = taken.length ? sql`${needed} - ${sql.join(taken, sql` - `)}` : needed;
    return sql`${sql.raw(g.name)} as materialized (${read(g, limit)})`;
  });
  const all = sql.join(
    groups.map((g) => sql`select * from ${sql.raw(g.name)}`),
    sql` union all `,
  );
  return { ctes: sql.join(ctes, sql`,\n`), all };
}
