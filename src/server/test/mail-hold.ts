import type { Database } from '../db/client.js';

/**
 * Ends the undo window of the held mails (of the given orders, or all) at once, as if its seconds had
 * passed: for tests about what a move or macro mails, not when. The hold itself is tested in
 * mail/mail-rules.test.ts with the real window.
 */
export async function endUndoWindow(database: Database, orderIds?: number[]): Promise<number> {
  const { rows } = await database.sql.query<{ id: number }>(
    `update mail_log set hold_until = now()
     where status = 'queued' and hold_until > now() and ($1::bigint[] is null or order_id = any($1::bigint[]))
     returning id`,
    [orderIds ?? null],
  );
  return rows.length;
}
