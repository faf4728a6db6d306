import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { PayoutSyncAnswer } from '../../shared/contracts/finance.js';
import type { AppContext } from '../context.js';
import { stripeClient } from '../payments/stripe-gateway.js';
import { PROVIDER } from '../payments/stripe-risk.js';
import { payoutSynced, type SyncedTransaction, savePayout, storeTransactions } from '../payouts/store.js';

/**
 * The payout sync (docs/product.md, "Finance report", decision 374): reads the provider's payouts and the
 * balance transactions of each (`GET /v1/payouts`, `GET /v1/balance_transactions?payout=…`, 100 a page,
 * `starting_after`/`has_more`) and stores each transaction once, matched to its order. A payout whose
 * transactions are all stored is skipped by later runs. A run is bounded in pages and time: one that
 * stops at its bound answers `complete: false` and the next run carries on (what is stored stays).
 */

type Ctx = Pick<AppContext, 'config' | 'db'>;

export interface SyncBounds {
  /** Provider requests at most (each a page of up to 100). */
  maxPages: number;
  /** Stop starting new pages after this long. */
  maxMs: number;
}

/** What the admin route runs on the request: a few pages, answered within seconds. */
export const ROUTE_BOUNDS: SyncBounds = { maxPages: 20, maxMs: 8_000 };
/** The hourly job: 10,000 transactions and more. */
export const JOB_BOUNDS: SyncBounds = { maxPages: 400, maxMs: 120_000 };
const EVERY_MS = 60 * 60 * 1000;
const PAGE = 100;

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v == null ? null : typeof v === 'string' ? v : v.id;

/** The ids that name the payment behind a transaction: the source and, when expanded, its charge/intent. */
function refsOf(source: Stripe.BalanceTransaction['source']): { sourceId: string | null; refs: string[] } {
  const sourceId = idOf(source as string | { id: string } | null);
  const refs = new Set<string>(sourceId ? [sourceId] : []);
  if (source && typeof source === 'object') {
    const o = source as unknown as Record<string, unknown>;
    for (const k of ['charge', 'payment_intent']) {
      const id = idOf(o[k] as string | { id: string } | null | undefined);
      if (id) refs.add(id);
    }
  }
  return { sourceId, refs: [...refs] };
}

const running = new WeakMap<object, Promise<PayoutSyncAnswer>>();

/** One sync at a time per app: a second caller shares the run in progress. */
export function syncPayouts(ctx: Ctx, bounds: SyncBounds): Promise<PayoutSyncAnswer> {
  const current = running.get(ctx.db);
  if (current) return current;
  const run = runSync(ctx, bounds).finally(() => running.delete(ctx.db));
  running.set(ctx.db, run);
  return run;
}

async function runSync(ctx: Ctx, bounds: SyncBounds): Promise<PayoutSyncAnswer> {
  const client = stripeClient(ctx.config);
  const started = Date.now();
  let pages = 0;
  const answer: PayoutSyncAnswer = { payouts: 0, transactions: 0, stored: 0, matched: 0, complete: true };
  const budgetLeft = () => pages < bounds.maxPages && Date.now() - started < bounds.maxMs;

  let payoutsAfter: string | undefined;
  for (;;) {
    if (!budgetLeft()) return { ...answer, complete: false };
    pages += 1;
    const list = await client.payouts.list({
      limit: PAGE,
      ...(payoutsAfter ? { starting_after: payoutsAfter } : {}),
    });
    for (const payout of list.data) {
      answer.payouts += 1;
      if (await payoutSynced(ctx.db, PROVIDER, payout.id)) continue;
      const done = await syncPayout(ctx, client, payout, answer, () => {
        if (!budgetLeft()) return false;
        pages += 1;
        return true;
      });
      if (!done) return { ...answer, complete: false };
    }
    if (!list.has_more || !list.data.length) return answer;
    payoutsAfter = list.data[list.data.length - 1]?.id;
  }
}

async function syncPayout(
  ctx: Ctx,
  client: Stripe,
  payout: Stripe.Payout,
  answer: PayoutSyncAnswer,
  takePage: () => boolean,
): Promise<boolean> {
  let after: string | undefined;
  let seen = 0;
  for (;;) {
    if (!takePage()) return false;
    const list = await client.balanceTransactions.list({
      payout: payout.id,
      limit: PAGE,
      expand: ['data.source'],
      ...(after ? { starting_after: after } : {}),
    });
    const rows: SyncedTransaction[] = [];
    for (const t of list.data) {
      seen += 1;
      // The payout's own transaction moves the balance to the bank: it is no income or cost.
      if (t.type === 'payout') continue;
      rows.push({
        transactionId: t.id,
        payoutId: payout.id,
        type: t.type,
        reportingCategory: t.reporting_category ?? null,
        amount: t.amount,
        fee: t.fee,
        net: t.net,
        currency: t.currency,
        ...refsOf(t.source),
        occurredAt: new Date(t.created * 1000),
      });
    }
    answer.transactions += rows.length;
    const { stored, matched } = await ctx.db.transaction((tx) => storeTransactions(tx, PROVIDER, rows));
    answer.stored += stored;
    answer.matched += matched;
    if (!list.has_more || !list.data.length) break;
    after = list.data[list.data.length - 1]?.id;
  }
  await savePayout(
    ctx.db,
    PROVIDER,
    {
      payoutId: payout.id,
      amount: payout.amount,
      currency: payout.currency,
      status: payout.status,
      arrivalAt: payout.arrival_date ? new Date(payout.arrival_date * 1000) : null,
      transactions: seen,
    },
    true,
  );
  return true;
}

/** The hourly payout sync (where a Stripe key is configured); returns its stop function. */
export async function startPayoutSync(app: FastifyInstance): Promise<() => Promise<void>> {
  const ctx = app.ctx;
  if (!ctx.config.STRIPE_SECRET_KEY) return async () => {};
  let last: Promise<unknown> = Promise.resolve();
  const tick = () => {
    last = syncPayouts(ctx, JOB_BOUNDS).catch((err) => app.log.error({ err }, 'payout sync failed'));
  };
  const timer = setInterval(tick, EVERY_MS);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await last;
  };
}
