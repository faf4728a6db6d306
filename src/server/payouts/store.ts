import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { payoutTransactions, providerPayouts } from '../db/schema.js';

/** A balance transaction as the sync stores it (minor units, signed as the provider reports them). */
export interface SyncedTransaction {
  transactionId: string;
  payoutId: string;
  type: string;
  reportingCategory: string | null;
  amount: number;
  fee: number;
  net: number;
  currency: string;
  sourceId: string | null;
  /** Every id that may name the order's payment: the source, its charge and payment intent. */
  refs: string[];
  occurredAt: Date;
}

/**
 * The order a transaction belongs to: its refund or dispute as the webhook stored it, else the charge
 * (payment_charges) or the order's own transaction id (a charge or payment intent).
 */
function orderOf(provider: string, t: SyncedTransaction) {
  const refs = t.refs.length ? t.refs : [''];
  const list = sql.join(
    refs.map((r) => sql`${r}`),
    sql`, `,
  );
  return sql`coalesce(
    (select r.order_id from payment_refunds r where r.provider = ${provider} and r.refund_id = ${t.sourceId ?? ''} limit 1),
    (select d.order_id from payment_disputes d where d.provider = ${provider} and d.dispute_id = ${t.sourceId ?? ''} limit 1),
    (select c.order_id from payment_charges c where c.provider = ${provider} and c.charge_id in (${list}) and c.order_id is not null limit 1),
    (select o.order_id from orders o where o.transaction_id in (${list}) order by o.order_id limit 1),
    (select o.order_id from payment_charges c join orders o on o.transaction_id = c.payment_intent_id
       where c.provider = ${provider} and c.charge_id in (${list}) limit 1)
  )`;
}

/** Stores a page of transactions once each (unique per provider and id); answers how many were new, matched. */
export async function storeTransactions(
  tx: DbOrTx,
  provider: string,
  rows: SyncedTransaction[],
): Promise<{ stored: number; matched: number }> {
  if (!rows.length) return { stored: 0, matched: 0 };
  const inserted = await tx
    .insert(payoutTransactions)
    .values(
      rows.map((t) => ({
        provider,
        transactionId: t.transactionId,
        payoutId: t.payoutId,
        type: t.type,
        reportingCategory: t.reportingCategory,
        amount: t.amount,
        fee: t.fee,
        net: t.net,
        currency: t.currency.toUpperCase(),
        sourceId: t.sourceId,
        orderId: orderOf(provider, t),
        occurredAt: t.occurredAt,
      })),
    )
    .onConflictDoNothing({ target: [payoutTransactions.provider, payoutTransactions.transactionId] })
    .returning({ orderId: payoutTransactions.orderId });
  return { stored: inserted.length, matched: inserted.filter((r) => r.orderId !== null).length };
}

/** Whether every transaction of the payout is already stored (a later sync skips it). */
export async function payoutSynced(tx: DbOrTx, provider: string, payoutId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: providerPayouts.id })
    .from(providerPayouts)
    .where(
      and(
        eq(providerPayouts.provider, provider),
        eq(providerPayouts.payoutId, payoutId),
        isNotNull(providerPayouts.syncedAt),
      ),
    );
  return !!row;
}

/** Records a payout; `complete` marks every transaction of it stored. */
export async function savePayout(
  tx: DbOrTx,
  provider: string,
  p: {
    payoutId: string;
    amount: number;
    currency: string;
    status: string;
    arrivalAt: Date | null;
    transactions: number;
  },
  complete: boolean,
): Promise<void> {
  const syncedAt = complete ? sql`now()` : null;
  await tx
    .insert(providerPayouts)
    .values({ provider, ...p, currency: p.currency.toUpperCase(), syncedAt })
    .onConflictDoUpdate({
      target: [providerPayouts.provider, providerPayouts.payoutId],
      set: { status: p.status, transactions: p.transactions, syncedAt },
    });
}
