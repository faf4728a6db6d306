import { sql } from 'drizzle-orm';
import type { Folder } from '../../shared/constants.js';
import type { Db, DbOrTx } from '../db/client.js';
import type { FolderScope } from './folders.js';
import { type ListOptions, listOrder, listSignature, REVERSE_SCAN_FROM } from './list-pages.js';

/**
 * Pages this deep (or sorted, or filtered beyond the counters) may scan many rows; a newest-first page
 * that seeks from a remembered key near it does not.
 */
export function listNeedsTimeout(
  folder: Folder,
  scope: FolderScope,
  page: number,
  limit: number,
  options: ListOptions,
): boolean {
  const offset = (page - 1) * limit;
  const { processingMode: _m, assignee: _a, ...others } = options.filters;
  const filtered = Object.values(others).some((v) => v !== undefined);
  if (filtered || (!!listOrder(folder, options) && offset > 0)) return true;
  if (offset < 1_000) return false;
  const near = options.pageKeys?.nearest(listSignature(folder, scope, options.filters, limit), page);
  return !near || (page - near.page) * limit >= REVERSE_SCAN_FROM;
}

/** PostgreSQL cancelled the statement (statement_timeout). */
export function isStatementTimeout(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '57014') return true;
  }
  return false;
}

/**
 * Runs a list read whose statements may take at most timeoutMs, so a deep page can never hold
 * pool connections for long: on PostgreSQL through the pool whose connections carry that limit (no
 * transaction round trips), else in a read-only transaction that sets it. PGlite runs on one
 * connection of its own: no limit there.
 */
export async function withListTimeout<T>(
  database: { kind: 'pglite' | 'postgres'; db: Db; timedDb?: ((timeoutMs: number) => Db) | undefined },
  timeoutMs: number,
  read: (db: DbOrTx) => Promise<T>,
): Promise<T> {
  if (database.kind !== 'postgres') return read(database.db);
  if (database.timedDb) return read(database.timedDb(timeoutMs));
  return database.db.transaction(
    async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`));
      return read(tx);
    },
    { accessMode: 'read only' },
  );
}
