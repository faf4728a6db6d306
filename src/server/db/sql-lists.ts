import { type SQL, sql } from 'drizzle-orm';

/** `'a', 'b'` for SQL text: the values of a shared list as literals (quotes doubled). */
export function sqlListText(values: readonly string[]): string {
  return values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');
}

/**
 * The values of a shared list (src/shared) as literals inside a Drizzle `sql` template, e.g.
 * sql`process_status not in (${sqlList(CLOSED_STATUSES)})`: the statuses and kinds in SQL text are the
 * constants, never copies of them. Literals, not parameters, so a partial index can still match.
 */
export function sqlList(values: readonly string[]): SQL {
  return sql.raw(sqlListText(values));
}
