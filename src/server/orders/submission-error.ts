import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';

/** The error of the order's last failed machine submission, on one line and short (the check's message). */
export async function lastSubmissionError(db: DbOrTx, orderId: number): Promise<string> {
  const { rows } = await db.execute<{ error: string | null }>(sql`
    select error from submission_jobs where order_id = ${orderId} and state = 'failed'
    order by finished_at desc nulls last limit 1`);
  const line = (rows[0]?.error ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '');
  if (!line) return 'no error was given';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
