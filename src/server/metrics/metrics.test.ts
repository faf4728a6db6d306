import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueMail } from '../mail/outbox.js';
import { startMailQueue } from '../mail/queue.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { eventually, freePort, startSmtp, type TestSmtp } from '../test/smtp.js';
import { trackEventStream } from './metrics.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample line of the Prometheus text, or null when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const ok = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (ok) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return null;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  it('does not exist (404)', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: 0, message: 'Not found' });
      const withToken = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer x' },
      });
      expect(withToken.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      METRICS_TOKEN: TOKEN,
      MAIL_AWS_SMTP_URL: smtp.url,
      MAIL_SENDGRID_SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  it('answers 401 to a missing, wrong, raw or hostile token, and shows nothing', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      TOKEN,
      `Bearer ${TOKEN}x`,
      `Bearer ${'a'.repeat(8000)}`,
      'Bearer \u0000',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 0, message: 'Unauthorized' });
    }
  });

  it('counts requests and their duration per route pattern and status; process metrics', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/admin/get-folder-count' });
    await t.app.inject({ method: 'GET', url: '/api/no/such/route/123' });
    const text = await scrape();
    const ok = { method: 'GET', route: '/api/health', status_code: '200' };
    expect(sample(text, 'http_requests_total', ok)).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'http_request_duration_seconds_count', ok)).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'http_requests_total', { route: '/api/admin/get-folder-count', status_code: '401' }),
    ).toBe(1);
    // Unknown paths share one label: no label per URL.
    expect(
      sample(text, 'http_requests_total', { route: 'unmatched', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('/api/no/such/route/123');
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    if (t.database.kind === 'postgres') {
      expect(sample(text, 'db_pool_connections', { state: 'max' })).toBe(5);
      expect(sample(text, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    }
  });

  it('open event streams: a gauge other modules move with trackEventStream()', async () => {
    const before = sample(await scrape(), 'event_streams_open') ?? 0;
    const close = trackEventStream();
    expect(sample(await scrape(), 'event_streams_open')).toBe(before + 1);
    close();
    close();
    expect(sample(await scrape(), 'event_streams_open')).toBe(before);
  });

  it('mail: outbox depth, job lag while the worker sleeps, then deliveries and failures per provider with latency', async () => {
    const order = await createOrder(t.database);
    const queue = async (provider: 'AWS' | 'Sendgrid') =>
      queueMail(t.database.db, {
        orderId: order.orderId,
        kind: 'refund',
        toEmail: 'a@example.com',
        provider,
        requestedBy: null,
      });
    await queue('AWS');
    await queue('AWS');
    await queue('Sendgrid');
    expect(sample(await scrape(), 'mail_outbox_messages', { status: 'queued' })).toBe(3);

    // A worker that polls only every 60 s: the dispatched jobs wait, and their lag shows.
    const sleepy = await startMailQueue(t.app, {
      pollingIntervalSeconds: 60,
      reminderCron: null,
      retryLimit: 0,
    });
    try {
      await sleepy.dispatch();
      await new Promise((r) => setTimeout(r, 1200));
      const text = await scrape();
      expect(sample(text, 'job_queue_waiting', { queue: 'mail-deliver' })).toBe(3);
      expect(sample(text, 'job_queue_lag_seconds', { queue: 'mail-deliver' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'mail_outbox_messages', { status: 'sending' })).toBe(3);
    } finally {
      await sleepy.stop();
    }
    const worker = await startMailQueue(t.app, {
      pollingIntervalSeconds: 0.5,
      reminderCron: null,
      retryLimit: 0,
    });
    try {
      await smtp.waitFor(2);
      const text = await eventually(async () => {
        const s = await scrape();
        return sample(s, 'mail_delivery_failures_total', { provider: 'Sendgrid', final: 'true' }) === 1
          ? s
          : null;
      });
      expect(sample(text, 'mail_delivered_total', { provider: 'AWS' })).toBe(2);
      expect(sample(text, 'mail_delivery_latency_seconds_count', { provider: 'AWS' })).toBe(2);
      expect(sample(text, 'mail_delivery_latency_seconds_sum', { provider: 'AWS' })).toBeGreaterThan(1);
      expect(sample(text, 'mail_outbox_messages', { status: 'sending' })).toBe(0);
      expect(sample(text, 'job_queue_waiting', { queue: 'mail-deliver' })).toBeNull();
    } finally {
      await worker.stop();
    }
  });
});
