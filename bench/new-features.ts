import type { Database } from '../src/server/db/client.js';
import { refreshChecks } from '../src/server/orders/order-checks.js';
import { buildOrder } from '../src/server/test/factories.js';
import { signedStripeEvent, stripeDispute, stripeEvent } from '../src/server/test/stripe-events.js';
import { serviceToday } from '../src/shared/dates.js';

/**
 * The benchmark rows of customer mail coming in, order checks at intake and Stripe webhooks (decision
 * 320): the data they need on top of the seed, the samples they send, and the requests themselves. The
 * data step is idempotent and also runs on a reused database, so a dataset seeded before these features
 * gets it once.
 */

/** Open statuses that put an order with a failing check in Needs attention (migration 0047). */
const ATTENTION_STATUSES = `('New', 'Awaiting', 'AwaitingGovt', 'Customer Called', 'Contact Customer')`;

/**
 * How many travellers on file the intake row sends again: few, so that the correction row can leave
 * their orders out (the duplicate search changes them, and their version with them).
 */
const KNOWN_TRAVELLERS = 200;

export interface NewFeatureSamples {
  /** Mails we sent (Message-ID, the order and its address): the customers' replies thread on them. */
  sentMails: { messageId: string; orderId: number; email: string }[];
  /** Transaction ids of open orders, one per webhook event (Stripe names the charge). */
  charges: { chargeId: string; orderId: number }[];
  /** Travellers already on file: an intake with one of these passports meets its possible duplicate. */
  travellers: { passport: string; nationality: string; arrival: string; departure: string }[];
  /** An order with a failing check (the checks row reads it). */
  attentionOrderId: number | null;
}

export async function prepareNewFeatureData(database: Database, log: (line: string) => void) {
  const q = database.sql.query.bind(database.sql);
  const t0 = Date.now();
  // Macro mails to the orders waiting on their customer (the seed holds approval mails only).
  const { rows: added } = await q<{ n: string }>(
    `insert into mail_log (order_id, kind, to_email, provider, status, attempts, message_id, provider_message_id, created_at, updated_at)
     select o.order_id, 'macro', o.email, 'AWS', 'sent', 1, '<bench-macro-' || o.order_id || '@ed-card.test>',
            'bm' || o.order_id || 'q', least(o.created_at + interval '1 hour', now()), least(o.created_at + interval '1 hour', now())
     from orders o
     where o.process_status in ('Awaiting', 'Contact Customer', 'Customer Called')
       and not exists (select 1 from mail_log m where m.order_id = o.order_id and m.kind = 'macro')
     returning 1`,
  );
  const mails = added.length;
  if (mails) log(`  ${mails.toLocaleString('en-US')} macro mails to waiting orders (${Date.now() - t0} ms)`);

  const { rows: flagged } = await q<{ n: string }>(
    `select count(*)::text as n from orders where check_level > 0`,
  );
  if (Number(flagged[0]?.n ?? 0) > 0) return;
  // About 2 % of the open orders get data a check fails on (at most 10,000): half are the same traveller
  // as the order before (passport, nationality, trip: a possible duplicate), half carry a passport that
  // expires before the trip. The app's own checks then judge every one of them.
  const t1 = Date.now();
  const { rows: picked } = await q<{ order_id: string }>(
    `select order_id::text from orders where process_status in ${ATTENTION_STATUSES} and order_id % 50 = 0
     order by order_id desc limit 10000`,
  );
  const ids = picked.map((r) => Number(r.order_id));
  if (!ids.length) return;
  await q(
    `update orders o set passport_number = p.passport_number, nationality = p.nationality,
       arrival_date = p.arrival_date, departure_date = p.departure_date
     from orders p
     where o.order_id = any($1::bigint[]) and o.order_id % 100 = 0 and p.order_id = (
       select max(order_id) from orders x where x.order_id < o.order_id and x.process_status <> 'Deleted')`,
    [`{${ids.join(',')}}`],
  );
  await q(
    `update orders set passport_expiration = coalesce(arrival_date, created_at::date) - 30
     where order_id = any($1::bigint[]) and order_id % 100 = 50`,
    [`{${ids.join(',')}}`],
  );
  const settings = { minPassportValidityDays: 0 };
  for (let i = 0; i < ids.length; i += 250) {
    await database.db.transaction((tx) => refreshChecks(tx, ids.slice(i, i + 250), settings, new Date()));
  }
  const { rows: now } = await q<{ n: string }>(
    `select count(*)::text as n from orders where needs_attention`,
  );
  log(
    `  order checks run on ${ids.length.toLocaleString('en-US')} orders: ${Number(now[0]?.n ?? 0).toLocaleString('en-US')} need attention (${Date.now() - t1} ms)`,
  );
}

export async function pickNewFeatureSamples(database: Database): Promise<NewFeatureSamples> {
  const q = database.sql.query.bind(database.sql);
  // Replies answer the macro mails of waiting orders (they move back to New) and the approval mails of
  // finished orders (they attach): two of three replies are to a macro mail.
  const { rows: macro } = await q<{ message_id: string; order_id: string; email: string }>(
    `select m.message_id, m.order_id::text, m.to_email as email from mail_log m
     where m.kind = 'macro' and m.message_id like '<bench-macro-%' order by m.id desc limit 4000`,
  );
  const { rows: approval } = await q<{ message_id: string; order_id: string; email: string }>(
    `select m.message_id, m.order_id::text, m.to_email as email from mail_log m
     where m.kind = 'approval' and m.message_id is not null order by m.id desc limit 2000`,
  );
  const sentMails: NewFeatureSamples['sentMails'] = [];
  for (let i = 0; i < Math.max(macro.length, approval.length); i++) {
    for (const r of [macro[i], macro[i + macro.length / 2], approval[i]]) {
      if (r) sentMails.push({ messageId: r.message_id, orderId: Number(r.order_id), email: r.email });
    }
    if (sentMails.length >= 6000) break;
  }
  // Charges of orders not yet disputed, spread over the whole table.
  const { rows: charges } = await q<{ transaction_id: string; order_id: string }>(
    `select transaction_id, order_id::text from orders
     where transaction_id is not null and process_status not in ('Deleted', 'ChargeBack', 'Refunded')
       and order_id % 7 = 3 and not exists (select 1 from payment_disputes d where d.order_id = orders.order_id)
     order by order_id desc limit 20000`,
  );
  const { rows: travellers } = await q<{
    passport_number: string;
    nationality: string;
    arrival: string;
    departure: string;
  }>(
    `select passport_number, nationality, arrival_date::text as arrival, departure_date::text as departure
     from orders where process_status in ${ATTENTION_STATUSES} and passport_number is not null
       and nationality is not null and arrival_date is not null and departure_date is not null
     order by order_id desc limit ${KNOWN_TRAVELLERS}`,
  );
  const { rows: attention } = await q<{ order_id: string }>(
    `select order_id::text from orders where needs_attention order by created_at desc, order_id desc limit 1`,
  );
  return {
    sentMails,
    charges: charges.map((r) => ({ chargeId: r.transaction_id, orderId: Number(r.order_id) })),
    travellers: travellers.map((r) => ({
      passport: r.passport_number,
      nationality: r.nationality,
      arrival: r.arrival,
      departure: r.departure,
    })),
    attentionOrderId: attention[0] ? Number(attention[0].order_id) : null,
  };
}

/** A process-wide run id, so two runs on one database never send the same Message-ID or event id. */
const RUN = `${Date.now().toString(36)}${process.pid.toString(36)}`;

/**
 * A customer's reply as the provider posts it (message/rfc822). Most thread on the mail they answer
 * (In-Reply-To/References); one in ten names the order in the subject only, one in ten has nothing
 * but the sender's address (matched when it has exactly one open order, else unmatched).
 */
export function customerReply(sent: NewFeatureSamples['sentMails'][number], i: number): string {
  const rule = i % 10;
  const threaded = rule >= 2;
  const subject = rule === 0 ? `Re: Your ED card order #${sent.orderId}` : 'Re: Your ED card order';
  const lines = [
    `From: Traveller <${sent.email}>`,
    'To: "ED Card" <orders@ed-card.test>',
    `Subject: ${subject}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <reply-${RUN}-${i}@mail.example.com>`,
    ...(threaded ? [`In-Reply-To: ${sent.messageId}`, `References: ${sent.messageId}`] : []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    'Hello,',
    '',
    'here is the information you asked for. My passport number is as on the form; I travel on the date',
    'given. Please let me know if anything else is missing.',
    '',
    'Kind regards',
    '',
    `On ${new Date(Date.now() - 86_400_000).toUTCString()} ED Card <orders@ed-card.test> wrote:`,
    '> Dear traveller, please send a clearer photo of your passport.',
    '> Thank you.',
    '',
  ];
  return lines.join('\r\n');
}

/** A signed `charge.dispute.created` (Stripe's documented shape) for a charge we know. */
export function disputeEvent(
  charge: NewFeatureSamples['charges'][number],
  i: number,
  secret: string,
): { payload: string; signature: string } {
  const dispute = stripeDispute(charge.chargeId, { id: `dp_bench${RUN}${i}` });
  return signedStripeEvent(
    stripeEvent('charge.dispute.created', dispute, { id: `evt_bench${RUN}${i}` }),
    secret,
  );
}

/**
 * An order from the application site. One in five is a traveller already on file (same passport,
 * nationality and trip: the duplicate search finds the earlier order); the rest are new travellers.
 */
export function intakeOrder(travellers: NewFeatureSamples['travellers'], i: number): Record<string, unknown> {
  const today = serviceToday();
  const known = i % 5 === 0 ? travellers[(i / 5) % Math.max(1, travellers.length)] : undefined;
  const n = `${RUN}${i}`;
  const arrival = known?.arrival ?? addDays(today, 10 + (i % 20));
  return buildOrder({
    client_reference: `bench-${n}`,
    transaction_id: `ch_bench${n}`,
    email: `traveller.${n}@example.com`,
    re_enter_email: `traveller.${n}@example.com`,
    arrival_date: arrival,
    passport_number: known?.passport ?? `B${String(10_000_000 + (i % 89_999_999))}`,
    last_name: 'Traveller',
    first_name: `Bench${i % 1000}`,
    nationality: known?.nationality ?? 'United States of America',
    departure_date: known?.departure ?? addDays(arrival, 7),
    processing_date: today,
  });
}

function addDays(isoDay: string, days: number): string {
  return new Date(Date.parse(`${isoDay}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
