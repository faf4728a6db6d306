import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import QRCode from 'qrcode';
import type { Config } from '../src/server/config.js';
import type { Db } from '../src/server/db/client.js';
import { storeBuffer } from '../src/server/documents/storage.js';
import { checkStoredCard } from '../src/server/flows/card-check.js';
import { JOB_BOUNDS, syncPayouts } from '../src/server/flows/payout-sync.js';
import { routeOrders } from '../src/server/flows/route-orders.js';
import { OPENING_LEAD_MS, startSubmissionWindowOpener } from '../src/server/flows/submission-window.js';
import { setClockForTests } from '../src/server/clock.js';
import { readCardInWorker } from '../src/server/pdf/build.js';
import { startStripeDouble } from '../src/server/test/stripe-server.js';
import { SERVICE_TIME_ZONE } from '../src/shared/constants.js';
import { waitingPass } from './waiting-pass.js';

/**
 * The background work of the sixth round's features, run in the server under test's own process (the
 * app's database, configuration and PDF workers) and timed there: a submission window opening for many
 * orders at once, a routing pass, the payout sync against the local Stripe double, and the card check
 * of a stored card, and a pass of the waiting policy (bench/waiting-pass.ts). Each job prepares its data with plain SQL, runs the product's own function, and puts
 * the data back where the benchmark's other rows read it.
 */

export type JobRequest =
  | { job: 'window-open'; orders: number }
  | { job: 'routing-setup'; staff: number }
  | { job: 'routing-decision'; count: number }
  | { job: 'routing-arrivals'; reference: string }
  | { job: 'routing-teardown' }
  | { job: 'payout-sync'; transactions: number }
  | { job: 'card-check-setup'; count: number }
  | { job: 'card-check'; docs: number[]; concurrency: number }
  | { job: 'waiting-pass'; waiting: number; due: number; passes: number };

export interface JobContext {
  db: Db;
  config: Config;
  query: <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;
}

const SUBMISSION_POLICY_KEY = 'submissionPolicy';
const ROUTING_POLICY_KEY = 'routingPolicy';
const ROUTER_EMAIL = (i: number) => `bench-router-${i + 1}@bench.test`;

/** The order ids the routing rows took out of the routed folders (given back by the teardown). */
let parked: number[] = [];
/** Those of them whose processing day has come: each can arrive again for the decision row. */
let arriving: number[] = [];

export async function runJob(ctx: JobContext, req: JobRequest): Promise<unknown> {
  switch (req.job) {
    case 'window-open':
      return windowOpen(ctx, req.orders);
    case 'routing-setup':
      return routingSetup(ctx, req.staff);
    case 'routing-decision':
      return routingDecision(ctx, req.count);
    case 'routing-arrivals':
      return routingArrivals(ctx, req.reference);
    case 'routing-teardown':
      return routingTeardown(ctx);
    case 'payout-sync':
      return payoutSync(ctx, req.transactions);
    case 'card-check-setup':
      return cardCheckSetup(ctx, req.count);
    case 'card-check':
      return cardCheck(ctx, req.docs, req.concurrency);
    case 'waiting-pass':
      return waitingPass(ctx, req);
  }
}

/**
 * A submission window opening for `count` orders at once, end to end, as the background job does it on
 * PostgreSQL. Up to `count` New orders are given an arrival the day after tomorrow (service day) and the
 * policy a 30-hour window, so they open today at 18:00 service time (not midnight: the opener job, not
 * the day's change, opens them) and their processing date is the day after the opening, as the window
 * leaves an order before it opens. The server's clock is set 12 s before that moment (it then runs at
 * the real pace) and the opener is started with its lead (OPENING_LEAD_MS): it wakes, prepares the
 * opening in a transaction and commits on the moment. Another connection counts the orders in New Orders
 * every 10 ms: the row is the time from the moment until all of them are there. Then the clock, the
 * orders' dates and the policy are put back.
 */
async function windowOpen(ctx: JobContext, count: number) {
  const { query } = ctx;
  const zone = SERVICE_TIME_ZONE;
  const before = await query<{ value: unknown }>(`select value from app_settings where key = $1`, [
    SUBMISSION_POLICY_KEY,
  ]);
  await query(
    `create table if not exists bench_window_backup (order_id bigint primary key, arrival_date date,
       processing_date date, ordered_processing_date date, submission_opens_at timestamptz)`,
  );
  await query(`truncate bench_window_backup`);
  const t0 = performance.now();
  await query(
    `insert into bench_window_backup
     select order_id, arrival_date, processing_date, ordered_processing_date, submission_opens_at
     from orders where process_status = 'New' order by order_id desc limit $1`,
    [count],
  );
  await query(
    `insert into app_settings (key, value, updated_at) values ($1, $2::jsonb, now())
     on conflict (key) do update set value = app_settings.value || excluded.value`,
    [SUBMISSION_POLICY_KEY, JSON.stringify({ windowHours: 30 })],
  );
  // The arrival day after tomorrow, 30 hours before its start: today 18:00 service time.
  const [moment] = await query<{ at: Date; today: string }>(
    `with d as (select ((now() at time zone $1)::date + 2) as arrival)
     update orders o set arrival_date = d.arrival,
            submission_opens_at = ((d.arrival::timestamp - interval '30 hours') at time zone $1),
            ordered_processing_date = d.arrival - 2,
            processing_date = d.arrival - 1
     from d, bench_window_backup b where o.order_id = b.order_id
     returning o.submission_opens_at as at, (d.arrival - 2)::text as today`,
    [zone],
  );
  const setupMs = performance.now() - t0;
  if (!moment) throw new Error('No New orders to open');
  const opening = new Date(moment.at).getTime();
  const offset = opening - 12_000 - Date.now();
  setClockForTests(() => new Date(Date.now() + offset));
  const stop = await startSubmissionWindowOpener(
    ctx.db,
    { error: (obj, msg) => console.error(msg, obj) },
    { leadMs: OPENING_LEAD_MS },
  );
  let landedMs = Number.NaN;
  let opened = 0;
  try {
    for (;;) {
      const [row] = await query<{ n: string }>(
        `select count(*)::text as n from orders o join bench_window_backup b using (order_id)
         where o.process_status = 'New' and o.processing_date <= $1::date`,
        [moment.today],
      );
      opened = Number(row?.n ?? 0);
      const at = Date.now() + offset - opening;
      if (opened >= count || at > 20_000) {
        landedMs = at;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await stop();
    setClockForTests(null);
  }
  const t2 = performance.now();
  await query(
    `update orders o set arrival_date = b.arrival_date, processing_date = b.processing_date,
            ordered_processing_date = b.ordered_processing_date, submission_opens_at = b.submission_opens_at
     from bench_window_backup b where o.order_id = b.order_id`,
  );
  if (before.length) {
    await query(`update app_settings set value = $2::jsonb where key = $1`, [
      SUBMISSION_POLICY_KEY,
      JSON.stringify(before[0]!.value),
    ]);
  } else {
    await query(`delete from app_settings where key = $1`, [SUBMISSION_POLICY_KEY]);
  }
  const [picked] = await query<{ n: string }>(`select count(*)::text as n from bench_window_backup`);
  await query(`drop table bench_window_backup`);
  return {
    picked: Number(picked?.n ?? 0),
    moved: opened,
    landedMs,
    setupMs,
    restoreMs: performance.now() - t2,
  };
}

/**
 * Routing with `staff` members on shift all week (capacity 200 each, no languages) and New and Priority
 * Orders routed. The orders already waiting in those folders are parked on the bench's Admin first
 * (routing would otherwise spend its passes on the seed's backlog): the rows then measure the orders
 * that arrive.
 */
async function routingSetup(ctx: JobContext, staff: number) {
  const { query } = ctx;
  const t0 = performance.now();
  const [admin] = await query<{ id: number }>(
    `select id from staff_users where email = 'admin@demo.test' and deleted_at is null`,
  );
  if (!admin) throw new Error('The bench Admin (admin@demo.test) is missing');
  const allDay = JSON.stringify(
    Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]]),
    ),
  );
  for (let i = 0; i < staff; i++) {
    const email = ROUTER_EMAIL(i);
    const [row] = await query<{ id: number }>(`select id from staff_users where email = $1`, [email]);
    if (row) {
      await query(
        `update staff_users set shift = $2::jsonb, capacity = 200, away = false, away_until = null, languages = '{}'
         where id = $1`,
        [row.id, allDay],
      );
    } else {
      await query(
        `insert into staff_users (name, email, password_hash, role, capacity, languages, shift)
         values ($1, $2, '!bench-no-login', 'Team', 200, '{}', $3::jsonb)`,
        [`Bench router ${i + 1}`, email, allDay],
      );
    }
  }
  const rows = await query<{ order_id: string; routable: boolean }>(
    `update orders set assigned_to = $1
     where process_status = 'New' and assigned_to is null
     returning order_id::text, processing_date <= (now() at time zone $2)::date as routable`,
    [admin.id, SERVICE_TIME_ZONE],
  );
  parked = rows.map((r) => Number(r.order_id));
  // Future Orders (a processing date still ahead) are parked too but are no arrival: routing skips them.
  arriving = rows.filter((r) => r.routable).map((r) => Number(r.order_id));
  await query(
    `insert into app_settings (key, value, updated_at) values ($1, $2::jsonb, now())
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [
      ROUTING_POLICY_KEY,
      JSON.stringify({
        routing: { newOrder: 'auto', priorityOrder: 'auto', customerAnswers: 'off' },
        idleMinutesToRelease: null,
      }),
    ],
  );
  return { parked: parked.length, ms: performance.now() - t0 };
}

/**
 * One arriving order at a time: a parked order is made unassigned again (as an intake leaves it), then
 * one routing pass (`routeOrders`, as the routing worker runs it) is timed. A pass that found the order
 * already taken by the worker's own pass counts as "assigned 0".
 */
async function routingDecision(ctx: JobContext, count: number) {
  const samples: { ms: number; assigned: number }[] = [];
  for (let i = 0; i < count && arriving.length; i++) {
    const id = arriving.pop()!;
    await ctx.query(`update orders set assigned_to = null where order_id = $1`, [id]);
    const t0 = performance.now();
    const assigned = await routeOrders(ctx.db, new Date());
    samples.push({ ms: performance.now() - t0, assigned });
  }
  return samples;
}

/** The arrived orders (client reference prefix) and when routing assigned each. */
async function routingArrivals(ctx: JobContext, reference: string) {
  const rows = await ctx.query<{ created: string; assigned: string | null }>(
    `select o.created_at::text as created,
            (select min(e.created_at) from order_events e
              where e.order_id = o.order_id and e.action = 'assign')::text as assigned
     from orders o where o.client_reference like $1`,
    [`${reference}%`],
  );
  return rows.map((r) => ({
    createdMs: Date.parse(r.created),
    assignedMs: r.assigned ? Date.parse(r.assigned) : null,
  }));
}

/** Routing off again, the bench members off shift, their orders and the parked ones unassigned. */
async function routingTeardown(ctx: JobContext) {
  const { query } = ctx;
  await query(`delete from app_settings where key = $1`, [ROUTING_POLICY_KEY]);
  const members = await query<{ id: number }>(
    `update staff_users set shift = null where email like $1 returning id`,
    ['bench-router-%@bench.test'],
  );
  const ids = members.map((m) => m.id);
  const released = ids.length
    ? await query(`update orders set assigned_to = null where assigned_to = any($1::int[]) returning 1`, [
        ids,
      ])
    : [];
  if (parked.length) {
    await query(`update orders set assigned_to = null where order_id = any($1::bigint[])`, [parked]);
  }
  const back = parked.length;
  parked = [];
  arriving = [];
  return { released: released.length, unparked: back };
}

/**
 * The payout sync against the local Stripe double (the one the tests use, started in this process):
 * `transactions` charges in payouts of 100 (each with its own payout transaction), sources naming the
 * orders' transaction ids so the match runs as it does for real charges. The sync is the hourly job's
 * (JOB_BOUNDS), with the app's configuration pointed at the double.
 */
async function payoutSync(ctx: JobContext, transactions: number) {
  const stripe = await startStripeDouble();
  try {
    const refs = await ctx.query<{ t: string }>(
      `select transaction_id as t from orders where transaction_id is not null order by order_id desc limit $1`,
      [transactions],
    );
    const run = randomBytes(4).toString('hex');
    const at = Math.floor(Date.now() / 1000) - 86_400 * 3;
    const perPayout = 100;
    for (let p = 0; p * perPayout < transactions; p++) {
      const id = `po_bench${run}${p}`;
      const list: Record<string, unknown>[] = [];
      let net = 0;
      for (let i = p * perPayout; i < Math.min(transactions, (p + 1) * perPayout); i++) {
        const ref = refs.length ? refs[i % refs.length]!.t : null;
        net += 5900 - 201;
        list.push({
          id: `txn_bench${run}${i}`,
          object: 'balance_transaction',
          amount: 5900,
          fee: 201,
          net: 5900 - 201,
          currency: 'usd',
          type: 'charge',
          reporting_category: 'charge',
          created: at,
          available_on: at + 86_400 * 2,
          status: 'available',
          source: { id: `ch_bench${run}${i}`, object: 'charge', payment_intent: ref },
        });
      }
      list.push({
        id: `txn_bench${run}po${p}`,
        object: 'balance_transaction',
        amount: -net,
        fee: 0,
        net: -net,
        currency: 'usd',
        type: 'payout',
        reporting_category: 'payout',
        created: at + 86_400,
        available_on: at + 86_400,
        status: 'available',
        source: id,
      });
      stripe.payouts.unshift({
        id,
        object: 'payout',
        amount: net,
        currency: 'usd',
        status: 'paid',
        arrival_date: at + 86_400 * 3,
        created: at + 86_400,
      });
      stripe.balanceTransactions.set(id, list);
    }
    const config: Config = { ...ctx.config, STRIPE_API_BASE: stripe.url, STRIPE_SECRET_KEY: 'sk_test_bench' };
    const t0 = performance.now();
    const answer = await syncPayouts({ db: ctx.db, config }, JOB_BOUNDS);
    const ms = performance.now() - t0;
    // The bench's payouts leave again: the finance rows of a later run on the same database read the
    // stored transactions.
    await ctx.query(`delete from payout_transactions where payout_id like $1`, [`po_bench${run}%`]);
    await ctx.query(`delete from provider_payouts where payout_id like $1`, [`po_bench${run}%`]);
    return { ms, answer, requests: stripe.requests.length, payouts: stripe.payouts.length };
  } finally {
    await stripe.close();
  }
}

/** A 1-page approved card with the order's values, as text and as a QR code (JSON). */
async function cardFor(o: {
  last_name: string;
  first_name: string;
  passport_number: string | null;
  date_of_birth: string | null;
  arrival_date: string | null;
  flight_number: string | null;
}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setKeywords([randomBytes(8).toString('hex')]);
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  let y = 780;
  const line = (s: string) => {
    page.drawText(s, { x: 50, y, size: 12, font });
    y -= 22;
  };
  line('ARUBA EMBARKATION AND DISEMBARKATION CARD - APPROVED');
  line(`Surname: ${o.last_name}`);
  line(`Given names: ${o.first_name}`);
  if (o.passport_number) line(`Passport No.: ${o.passport_number}`);
  if (o.date_of_birth) line(`Date of birth: ${o.date_of_birth}`);
  if (o.arrival_date) line(`Arrival date: ${o.arrival_date}`);
  if (o.flight_number) line(`Flight: ${o.flight_number}`);
  const payload = JSON.stringify({
    surname: o.last_name,
    given_names: o.first_name,
    passport_number: o.passport_number,
    date_of_birth: o.date_of_birth,
    arrival_date: o.arrival_date,
    flight: o.flight_number,
  });
  const png = await QRCode.toBuffer(payload, { margin: 2, scale: 4 });
  page.drawImage(await pdf.embedPng(png), { x: 350, y: 450, width: 180, height: 180 });
  return Buffer.from(await pdf.save());
}

/**
 * The cards for the card check row: `count` Completed orders each get a card of their own (the order's
 * values, a different file), stored as a document; the worker's read alone is timed for the first three.
 * The checks themselves (`checkStoredCard`: read on a PDF worker, text and QR, compared with the order and
 * with other orders' cards, recorded) run in cardCheck below.
 */
async function cardCheckSetup(ctx: JobContext, count: number) {
  const rows = await ctx.query<{
    order_id: string;
    last_name: string;
    first_name: string;
    passport_number: string | null;
    date_of_birth: string | null;
    arrival_date: string | null;
    flight_number: string | null;
  }>(
    `select order_id::text, last_name, first_name, passport_number, date_of_birth::text, arrival_date::text,
            flight_number
     from orders where process_status = 'Completed' and passport_number is not null
     order by order_id desc limit $1`,
    [count],
  );
  const docs: number[] = [];
  /** The worker's read alone (no database), one card at a time: where a check's time goes. */
  const readMs: number[] = [];
  for (const o of rows) {
    const bytes = await cardFor(o);
    if (readMs.length < 3) {
      const t0 = performance.now();
      await readCardInWorker(ctx.config, bytes, 'application/pdf', 20_000);
      readMs.push(performance.now() - t0);
    }
    const stored = await storeBuffer(ctx.config, bytes, 'pdf');
    const [d] = await ctx.query<{ id: number }>(
      `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256)
       values ($1, $2, 'bench-card.pdf', 'application/pdf', $3, $4) returning id::int as id`,
      [Number(o.order_id), stored.key, stored.size, stored.sha256],
    );
    docs.push(d!.id);
  }
  return { docs, readMs };
}

/**
 * The card checks of the stored cards, `concurrency` at a time, as the upload's check runs them. Apart
 * from the setup above: building the cards (pdf-lib and QR codes on this process's main thread) is the
 * benchmark's own work, and the row's /api/health probe measures only the checks.
 */
async function cardCheck(ctx: JobContext, docs: readonly number[], concurrency: number) {
  const samples: { ms: number; result: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < docs.length) {
      const id = docs[next++]!;
      const t0 = performance.now();
      const check = await checkStoredCard({ db: ctx.db, config: ctx.config }, id);
      const result = check ? (check.running ? 'running' : (check.result ?? 'none')) : 'none';
      samples.push({ ms: performance.now() - t0, result });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return { samples };
}
