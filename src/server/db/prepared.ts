import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

interface PreparingSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    isResponseInArrayMode: boolean,
  ): { execute(): Promise<{ rows: unknown[] }> };
}
interface Dialect {
  sqlToQuery(query: SQL): { sql: string; params: unknown[] };
}

/**
 * Runs a raw statement as the named prepared statement `name`: parsed and planned once per connection
 * instead of on every call (decision 442, which does the same through the query builder for the one-order
 * lock). For the statements of hot background passes whose planning costs more than their execution.
 * Every call with one name must produce the same text (the parameters may differ): a name per variant.
 * Answers the rows, as `execute` does.
 */
export async function executePrepared<T>(db: DbOrTx, name: string, query: SQL): Promise<T[]> {
  const { session, dialect } = db as unknown as { session: PreparingSession; dialect: Dialect };
  const result = await session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute();
  return result.rows as T[];
}
