import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { INBOUND_DOMAIN, INBOUND_TOKEN, postInbound } from '../test/inbound.js';
import { receiveTrackReply } from '../flows/track-reply.js';
import { replyAddress } from '../mail/reply-tokens.js';
import { scanWaiting } from './waiting.js';

const DAY = 24 * 60 * 60_000;
/**
 * PostgreSQL runs the transactions side by side (where a deadlock is real): 250 rounds of 4 orders, so
 * 1,000 customer answers each raced against two passes. PGlite runs them one at a time.
 */
const ROUNDS = process.env.TEST_DATABASE_URL ? 250 : 40;

/**
 * The waiting policy's scan and customers' answers on the same orders, at once, many
 * times. Both take the order's lock first and then write in the same order (the order, then its events),
 * so neither waits on the other while holding what the other needs: no deadlock. On PGlite (one
 * connection) this checks the outcome; with TEST_DATABASE_URL it runs on PostgreSQL, where the
 * transactions really overlap and a deadlock is an error.
 */
describe('the waiting policy and customer answers on the same orders at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ INBOUND_TOKEN, INBOUND_REPLY_DOMAIN: INBOUND_DOMAIN });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An order in Awaiting since `since`, for a customer of its own. */
  async function awaitingSince(round: number, i: number, since: Date) {
    const email = `waiting${round}x${i}@example.com`;
    const order = await createOrder(t.database, {
      process_status: 'Awaiting',
      email,
      re_enter_email: email,
    });
    await t.database.sql.query(
      `insert into order_events (order_id, action, from_value, to_value, created_at) values ($1, 'status', 'New', 'Awaiting', $2)`,
      [order.orderId, since],
    );
    return { orderId: order.orderId, email };
  }

  it('round after round, two scans and a mail or track-page answer on every waiting order: no deadlock, every order answered', {
    timeout: 600_000,
  }, async () => {
    const ctx = { db: t.database.db, config: t.config };
    const now = new Date();
    for (let round = 0; round < ROUNDS; round++) {
      // Two orders due for the last step (to Contact Customer), two for a reminder.
      const orders = await Promise.all(
        [7, 7, 3, 3].map((days, i) => awaitingSince(round, i, new Date(now.getTime() - days * DAY))),
      );
      const answers = orders.map((o, i) =>
        i % 2 === 0
          ? postInbound(
              t,
              [
                `From: ${o.email}`,
                `To: ${replyAddress(t.config.JWT_SECRET, INBOUND_DOMAIN, o.orderId)}`,
                `Message-ID: <answer.${round}.${i}.${o.orderId}@example.com>`,
                'Subject: Re: your application',
                '',
                'Here is what you asked for.',
              ].join('\n'),
            ).then((res) => {
              if (res.statusCode !== 200) throw new Error(`inbound ${res.statusCode}: ${res.body}`);
            })
          : receiveTrackReply(ctx, o.orderId, 'Here is what you asked for.', []),
      );
      const results = await Promise.allSettled([
        ...answers.slice(0, 2),
        scanWaiting(t.database.db, now),
        ...answers.slice(2),
        scanWaiting(t.database.db, now),
      ]);
      const failed = results.filter((r) => r.status === 'rejected');
      // A deadlock (PostgreSQL's 40P01) is the failed query's cause.
      expect(
        failed.map((r) => {
          const err = (r as PromiseRejectedResult).reason as Error & { cause?: { message?: string } };
          return err.cause?.message ?? err.message;
        }),
      ).toEqual([]);
      const { rows } = await t.database.sql.query<{ process_status: string }>(
        'select process_status from orders where order_id = any($1::bigint[]) order by order_id',
        [orders.map((o) => o.orderId)],
      );
      // Whoever came first, the answer is the last word: every order is back to New.
      expect(rows.map((r) => r.process_status)).toEqual(['New', 'New', 'New', 'New']);
    }
  });
});
