import { scanWaiting } from '../src/server/inbound/waiting.js';
import type { JobContext } from './jobs.js';

/**
 * One pass of the waiting policy (`scanWaiting`, as its worker runs it every minute) with many orders
 * waiting on the customer and a few whose next look has come. The dataset's Awaiting orders are topped
 * up to `waiting` with Completed orders moved to Awaiting (their ids kept, moved back at the end); every
 * waiting order's next look is set a day ahead, then before each pass `due` of them are made due now
 * (their first look: the step they reach is not due yet, so the pass writes their next step's time and
 * sends nothing). What is timed is the pass itself: its policy and switch reads, the index range of the
 * due orders, the look at each and the one write of their next looks.
 */
export async function waitingPass(
  ctx: JobContext,
  opts: { waiting: number; due: number; passes: number },
): Promise<{ waiting: number; moved: number; setupMs: number; samples: { ms: number; looked: number }[] }> {
  const { query, db } = ctx;
  const t0 = performance.now();
  await query(`create table if not exists bench_waiting_moved (order_id bigint primary key)`);
  // Orders a stopped earlier run left in Awaiting go back first.
  await putBack(ctx);
  const [have] = await query<{ n: number }>(
    `select count(*)::int as n from orders where process_status = 'Awaiting'`,
  );
  const missing = Math.max(0, opts.waiting - (have?.n ?? 0));
  if (missing > 0) {
    await query(
      `insert into bench_waiting_moved
       select order_id from orders where process_status = 'Completed' order by order_id limit $1`,
      [missing],
    );
    await query(
      `update orders o set process_status = 'Awaiting', updated_at = now()
       from bench_waiting_moved m where o.order_id = m.order_id`,
    );
  }
  await query(
    `update orders set waiting_next_at = now() + interval '1 day'
     where process_status = 'Awaiting' and (waiting_next_at is null or waiting_next_at < now() + interval '12 hours')`,
  );
  await query(`vacuum (analyze) orders`);
  const [now] = await query<{ n: number }>(
    `select count(*)::int as n from orders where process_status = 'Awaiting'`,
  );
  const setupMs = performance.now() - t0;

  const samples: { ms: number; looked: number }[] = [];
  try {
    for (let i = 0; i < opts.passes; i++) {
      // The newest waiting orders, a different set each pass, become due now.
      const due = await query<{ order_id: string }>(
        `update orders set waiting_next_at = now() - interval '1 minute'
         where order_id in (select order_id from orders where process_status = 'Awaiting'
                            order by order_id desc offset $1 limit $2)
         returning order_id::text`,
        [i * opts.due, opts.due],
      );
      const started = performance.now();
      await scanWaiting(db, new Date());
      const ms = performance.now() - started;
      const [left] = await query<{ n: number }>(
        `select count(*)::int as n from orders where order_id = any($1::bigint[]) and waiting_next_at <= now()`,
        [due.map((d) => d.order_id)],
      );
      samples.push({ ms, looked: due.length - (left?.n ?? 0) });
    }
  } finally {
    await putBack(ctx);
  }
  return { waiting: now?.n ?? 0, moved: missing, setupMs, samples };
}

/** Moves the orders a run took from Completed back there (leaving Awaiting clears their next look). */
async function putBack({ query }: JobContext): Promise<void> {
  await query(
    `update orders o set process_status = 'Completed' from bench_waiting_moved m
     where o.order_id = m.order_id and o.process_status = 'Awaiting'`,
  );
  await query(`truncate bench_waiting_moved`);
}
