import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { eventually, startSmtp, type TestSmtp } from '../test/smtp.js';
import { type MailQueue, startMailQueue } from './queue.js';

/** The one mail writer announces each commit (decision 338): delivery never waits for the queue's poll. */
describe('customer mail is handed to delivery when its change commits', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let queue: MailQueue;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ MAIL_AWS_SMTP_URL: smtp.url, MAIL_SENDGRID_SMTP_URL: smtp.url });
    // A poll far longer than the test: only the writer's announcement can start delivery in time.
    queue = await startMailQueue(t.app, {
      pollingIntervalSeconds: 0.5,
      dispatchIntervalMs: 10 * 60_000,
      reminderCron: null,
      retryLimit: 0,
    });
  });
  afterAll(async () => {
    await queue.stop();
    await t.close();
    await smtp.close();
  });

  it("a bulk refund's confirmation mails are delivered within seconds", async () => {
    const emails = ['bulk.refund.one@example.com', 'bulk.refund.two@example.com'];
    const ids: number[] = [];
    for (const email of emails)
      ids.push((await createOrder(t.database, { process_status: 'Refunds', email })).orderId);
    const started = Date.now();
    const res = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/move-to-complete-refund',
      payload: { orderId: ids },
    });
    expect(res.statusCode, res.body).toBe(200);
    await smtp.waitFor(2, 15_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    const to = smtp.messages.map((m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text).sort();
    expect(to).toEqual(emails);
    const statuses = async () =>
      (
        await t.database.sql.query<{ kind: string; status: string }>(
          'select kind, status from mail_log where order_id = any($1::bigint[])',
          [ids],
        )
      ).rows;
    await eventually(async () => (await statuses()).every((r) => r.status === 'sent'), 5_000);
    expect(await statuses()).toEqual([
      { kind: 'refund', status: 'sent' },
      { kind: 'refund', status: 'sent' },
    ]);
  });
});
