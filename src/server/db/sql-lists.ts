import { type SQL, sql } from 'drizzle-orm';
import type { OrderStatus, ProcessingMode } from '../../shared/constants.js';

/** `'a'` for SQL text: one value as a literal (quotes doubled). */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `'a', 'b'` for SQL text: the values of a shared list as literals (quotes doubled). */
export function sqlListText(values: readonly string[]): string {
  return values.map(literal).join(', ');
}

/**
 * The values of a shared list (src/shared) as literals inside a Drizzle `sql` template, e.g.
 * sql`process_status not in (${sqlList(CLOSED_STATUSES)})`: the statuses and kinds in SQL text are the
 * constants, never copies of them. Literals, not parameters, so a partial index can still match.
 */
export function sqlList(values: readonly string[]): SQL {
  return sql.raw(sqlListText(values));
}

/** A single status or processing mode SQL text names, typed by its union in src/shared/constants.ts. */
type SqlValue = OrderStatus | ProcessingMode;

/** `'New'` for SQL text built as a string (queries run with `$1` parameters). */
export function sqlValueText(value: SqlValue): string {
  return literal(value);
}

/**
 * One status or processing mode as a literal inside a Drizzle `sql` template, e.g.
 * sql`process_status = ${sqlValue('New')}`: the compiler checks the word, the index still matches.
 */
export function sqlValue(value: SqlValue): SQL {
  return sql.raw(literal(value));
}
