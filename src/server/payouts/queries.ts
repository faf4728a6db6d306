import { desc, isNull } from 'drizzle-orm';
import type { UnmatchedTransaction } from '../../shared/contracts/finance.js';
import type { DbOrTx } from '../db/client.js';
import { payoutTransactions } from '../db/schema.js';

/** Synced transactions no order was found for, newest first. */
export async function unmatchedTransactions(db: DbOrTx, limit: number): Promise<UnmatchedTransaction[]> {
  const rows = await db
    .select()
    .from(payoutTransactions)
    .where(isNull(payoutTransactions.orderId))
    .orderBy(desc(payoutTransactions.occurredAt), desc(payoutTransactions.id))
    .limit(limit);
  return rows.map((r) => ({
    transactionId: r.transactionId,
    payoutId: r.payoutId,
    type: r.type,
    reportingCategory: r.reportingCategory,
    amount: r.amount,
    fee: r.fee,
    net: r.net,
    currency: r.currency,
    sourceId: r.sourceId,
    occurredAt: r.occurredAt.toISOString(),
  }));
}
