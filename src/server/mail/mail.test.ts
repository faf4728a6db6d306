import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { samplePdf } from '../test/fixtures.js';
import { outboxDir } from './transports.js';
import { type MailQueue, startMailQueue } from './queue.js';
import { eventually, freePort, multipart, pdfText, startSmtp, type TestSmtp } from '../test/smtp.js';

const FAST = {
  retryDelaySeconds: 1,
  retryLimit: 4,
  pollingIntervalSeconds: 0.5,
  dispatchIntervalMs: 300,
  reminderCron: null,
};

interface MailRow {
  id: number;
  kind: string;
  status: string;
  attempts: number;
  message_id: string | null;
  provider: string;
  is_reminder: boolean;
  error: string | null;
}

async function mailRows(t: TestApp, orderId: number) {
  const { rows } = await t.database.sql.query<MailRow>(
    'select id, kind, status, attempts, message_id, provider, is_reminder, error from mail_log where order_id = $1 order by id',
    [orderId],
  );
  return rows;
}

async function upload(
  t: TestApp,
  orderId: number,
  email: string,
  provider: string,
  content: Buffer,
  name = 'approved.pdf',
) {
  const body = multipart(
    { orderId: String(orderId), email, mailServiceProvider: provider },
    { name, type: 'application/pdf', content },
  );
  return t.as('Team', { method: 'POST', url: '/api/admin/upload-visa-document', ...body });
}

describe('mail delivery through both providers', () => {
  let t: TestApp;
  let aws: TestSmtp;
  let sendgrid: TestSmtp;
  let queue: MailQueue;
  beforeAll(async () => {
    aws = await startSmtp();
    sendgrid = await startSmtp();
    t = await createTestApp({ MAIL_AWS_SMTP_URL: aws.url, MAIL_SENDGRID_SMTP_URL: sendgrid.url });
    queue = await startMailQueue(t.app, FAST);
  });
  afterAll(async () => {
    await queue.stop();
    await t.close();
    await aws.close();
    await sendgrid.close();
  });

  it('upload (AWS) delivers the approval notice with the document to the AWS server and logs it', async () => {
    const order = await createOrder(t.database, {
      first_name: 'Maria',
      last_name: 'Croes',
      email: 'maria@example.com',
    });
    const pdf = await samplePdf('APPROVED-CARD-AWS');
    const res = await upload(t, order.orderId, 'maria@example.com', 'AWS', pdf, 'card maria.pdf');
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe(1);

    const [mail] = await aws.waitFor(1);
    expect(sendgrid.messages).toHaveLength(0);
    expect(mail!.subject).toContain(String(order.orderId));
    expect(mail!.text).toContain('Maria Croes');
    expect(mail!.text).toContain(`Username: ${order.email}`);
    expect(mail!.text).toContain(`/track-order/${order.orderId}`);
    expect((mail!.to as { text: string }).text).toBe('maria@example.com');
    expect(mail!.attachments).toHaveLength(1);
    expect(mail!.attachments[0]!.filename).toBe('card maria.pdf');
    expect(Buffer.compare(mail!.attachments[0]!.content, pdf)).toBe(0);

    const row = await eventually(async () =>
      (await mailRows(t, order.orderId)).find((r) => r.status === 'sent'),
    );
    expect(row).toMatchObject({ kind: 'approval', provider: 'AWS', attempts: 1, is_reminder: false });
    expect(row.message_id).toBe(mail!.messageId);
    const detail = (
      await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${order.orderId}` })
    ).json().data;
    expect(detail.mailHistory[0]).toMatchObject({
      mail_service_provider: 'AWS',
      remainder_mail: 0,
      status: 'sent',
      uploadDoc: 'card maria.pdf',
      message_id: mail!.messageId,
    });
    expect(detail.uploadDoc[0]).toMatchObject({ file1: 'card maria.pdf', mail_service_provider: 'AWS' });
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(['created', 'upload', 'mail']);
  });

  it('upload (Sendgrid) goes to the Sendgrid server; resend goes again through the chosen provider', async () => {
    const order = await createOrder(t.database, { email: 'sg@example.com' });
    const before = { aws: aws.messages.length, sg: sendgrid.messages.length };
    const pdf = await samplePdf('APPROVED-CARD-SG');
    expect((await upload(t, order.orderId, 'sg@example.com', 'Sendgrid', pdf)).statusCode).toBe(200);
    await sendgrid.waitFor(before.sg + 1);
    expect(aws.messages.length).toBe(before.aws);
    const sg = sendgrid.messages.at(-1)!;
    expect(Buffer.compare(sg.attachments[0]!.content, pdf)).toBe(0);

    // Another address: a Manager confirms it (decision 297).
    const resend = await t.as('Manager', {
      method: 'POST',
      url: '/api/admin/resend-mail',
      payload: {
        orderId: order.orderId,
        email: 'other@example.com',
        mailServiceProvider: 'AWS',
        confirmOtherAddress: true,
      },
    });
    expect(resend.statusCode).toBe(200);
    await aws.waitFor(before.aws + 1);
    const again = aws.messages.at(-1)!;
    expect((again.to as { text: string }).text).toBe('other@example.com');
    expect(Buffer.compare(again.attachments[0]!.content, pdf)).toBe(0);
    const rows = await eventually(async () => {
      const r = await mailRows(t, order.orderId);
      return r.every((x) => x.status === 'sent') && r.length === 2 ? r : null;
    });
    expect(rows.map((r) => [r.kind, r.provider])).toEqual([
      ['approval', 'Sendgrid'],
      ['resend', 'AWS'],
    ]);
  });

  it('resend without a document is refused and logs nothing', async () => {
    const order = await createOrder(t.database);
    const res = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/resend-mail',
      payload: { orderId: order.orderId, email: 'x@example.com', mailServiceProvider: 'AWS' },
    });
    expect(res.statusCode).toBe(409);
    expect(await mailRows(t, order.orderId)).toHaveLength(0);
  });

  it('one reminder after the delay when the document was not downloaded, none when it was', async () => {
    const notDownloaded = await createOrder(t.database, { email: 'late@example.com' });
    const downloaded = await createOrder(t.database, { email: 'quick@example.com' });
    const start = aws.messages.length;
    await upload(t, notDownloaded.orderId, 'late@example.com', 'AWS', await samplePdf('R1'));
    await upload(t, downloaded.orderId, 'quick@example.com', 'AWS', await samplePdf('R2'));
    await aws.waitFor(start + 2);
    await eventually(async () => (await mailRows(t, downloaded.orderId)).some((r) => r.status === 'sent'));
    await eventually(async () => (await mailRows(t, notDownloaded.orderId)).some((r) => r.status === 'sent'));
    await t.database.sql.query(`insert into download_log (order_id, ip) values ($1, '198.51.100.7')`, [
      downloaded.orderId,
    ]);

    // Before the delay: nothing.
    expect(await queue.scanReminders(new Date(Date.now() + 23 * 3600_000))).toBe(0);
    // After REMINDER_AFTER_HOURS (24 by default): one for each document not downloaded (earlier tests'
    // uploads count too), none for the downloaded one, and a second scan adds nothing.
    const later = new Date(Date.now() + 25 * 3600_000);
    expect(await queue.scanReminders(later)).toBeGreaterThanOrEqual(1);
    expect(await queue.scanReminders(later)).toBe(0);
    const reminder = await eventually(async () =>
      aws.messages.find(
        (m) => (m.to as { text: string }).text === 'late@example.com' && /^Reminder/.test(m.subject ?? ''),
      ),
    );
    expect(reminder.text).toContain(String(notDownloaded.orderId));
    const rows = await eventually(async () => {
      const r = await mailRows(t, notDownloaded.orderId);
      return r.find((x) => x.is_reminder && x.status === 'sent');
    });
    expect(rows.kind).toBe('reminder');
    const detail = (
      await t.as('Team', { method: 'GET', url: `/api/admin/get-orders-details/${notDownloaded.orderId}` })
    ).json().data;
    expect(detail.mailHistory.map((m: { remainder_mail: number }) => m.remainder_mail)).toEqual([0, 1]);
    expect((await mailRows(t, downloaded.orderId)).filter((r) => r.is_reminder)).toHaveLength(0);
  });

  it('send-invoice mails a PDF invoice with the order data to the order e-mail', async () => {
    const order = await createOrder(t.database, {
      transaction_id: 'pi_INV778899',
      merchant_name: 'Checkout.com',
      amount: 79.5,
      currency: 'EUR',
      processing_mode: 'Priority',
    });
    const res = await t.as('Telecaller', {
      method: 'POST',
      url: '/api/admin/send-invoice',
      payload: { orderId: String(order.orderId) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 1 });
    const mail = await eventually(async () =>
      aws.messages.find((m) => (m.to as { text: string }).text === order.email),
    );
    const attachment = mail.attachments.find((a) => a.contentType === 'application/pdf');
    expect(attachment?.filename).toBe(`invoice-${order.orderId}.pdf`);
    const { text } = await pdfText(attachment!.content);
    for (const expected of [
      String(order.orderId),
      'pi_INV778899',
      'Checkout.com',
      '79.50 EUR',
      'Priority',
      order.email,
    ]) {
      expect(text).toContain(expected);
    }
    const rows = await eventually(async () => {
      const r = await mailRows(t, order.orderId);
      return r[0]?.status === 'sent' ? r : null;
    });
    expect(rows[0]!.kind).toBe('invoice');
  });

  it('send-invoice: product messages for a short or missing id, status 0 for an unknown one', async () => {
    const short = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/send-invoice',
      payload: { orderId: '123' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ status: 0, message: 'Order Id must be at least 6 characters.' });
    const missing = await t.as('Team', { method: 'POST', url: '/api/admin/send-invoice', payload: {} });
    expect(missing.json().message).toBe('Please enter your order id.');
    const unknown = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/send-invoice',
      payload: { orderId: '987654321' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: 0, message: 'No order found with this order id.' });
    const letters = await t.as('Team', {
      method: 'POST',
      url: '/api/admin/send-invoice',
      payload: { orderId: 'abcdefg' },
    });
    expect(letters.json().status).toBe(0);
  });

  it('the mail of another writer (a queued refund row) is delivered too', async () => {
    const order = await createOrder(t.database);
    await t.database.sql.query(
      `insert into mail_log (order_id, kind, to_email, provider, status) values ($1, 'refund', $2, 'AWS', 'queued')`,
      [order.orderId, order.email],
    );
    const row = await eventually(async () =>
      (await mailRows(t, order.orderId)).find((r) => r.status === 'sent'),
    );
    expect(row.kind).toBe('refund');
    expect(aws.messages.some((m) => m.messageId === row.message_id && /refund/i.test(m.subject ?? ''))).toBe(
      true,
    );
  });
});

describe('a provider that is down', () => {
  let t: TestApp;
  let queue: MailQueue;
  let smtp: TestSmtp | undefined;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ MAIL_AWS_SMTP_URL: `smtp://127.0.0.1:${port}` });
    queue = await startMailQueue(t.app, FAST);
  });
  afterAll(async () => {
    await queue.stop();
    await t.close();
    await smtp?.close();
  });

  it('is retried with backoff, every attempt logged, and then succeeds', async () => {
    const order = await createOrder(t.database, { email: 'wait@example.com' });
    expect(
      (await upload(t, order.orderId, 'wait@example.com', 'AWS', await samplePdf('DOWN'))).statusCode,
    ).toBe(200);
    const failed = await eventually(async () =>
      (await mailRows(t, order.orderId)).find((r) => r.status === 'retrying'),
    );
    expect(failed.error).toMatch(/ECONNREFUSED|connect/i);

    smtp = await startSmtp(port);
    const [mail] = await smtp.waitFor(1, 30_000);
    const row = await eventually(async () =>
      (await mailRows(t, order.orderId)).find((r) => r.status === 'sent'),
    );
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(row.message_id).toBe(mail!.messageId);
    const { rows: attempts } = await t.database.sql.query<{ attempt: number; ok: boolean; created_at: Date }>(
      'select attempt, ok, created_at from mail_attempts where mail_id = $1 order by attempt',
      [row.id],
    );
    expect(attempts.map((a) => a.ok)).toEqual([...Array(attempts.length - 1).fill(false), true]);
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_, i) => i + 1));
    // Backoff: the gap before each retry is at least the 1 s base delay.
    for (let i = 1; i < attempts.length; i++) {
      expect(
        attempts[i]!.created_at.getTime() - attempts[i - 1]!.created_at.getTime(),
      ).toBeGreaterThanOrEqual(900);
    }
  }, 60_000);
});

describe('without SMTP URLs', () => {
  it('writes the mail as an .eml file under DATA_DIR/mail-outbox', async () => {
    const t = await createTestApp();
    const queue = await startMailQueue(t.app, FAST);
    try {
      const order = await createOrder(t.database, { email: 'eml@example.com' });
      expect(
        (await upload(t, order.orderId, 'eml@example.com', 'Sendgrid', await samplePdf('EML'))).statusCode,
      ).toBe(200);
      const row = await eventually(async () =>
        (await mailRows(t, order.orderId)).find((r) => r.status === 'sent'),
      );
      const files = await readdir(outboxDir(t.config.DATA_DIR));
      expect(files.filter((f) => f.endsWith('.eml') && f.includes('sendgrid'))).toHaveLength(1);
      expect(row.message_id).toBeTruthy();
    } finally {
      await queue.stop();
      await t.close();
    }
  });
});
