import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { type Config, loadConfig } from '../../config.js';
import { type Database, openDatabase } from '../../db/client.js';
import { closeDocumentStorage } from '../../documents/storage.js';
import { queueMail } from '../../mail/outbox.js';
import { type MailQueue, startMailQueue } from '../../mail/queue.js';
import { createTestApp, type TestApp } from '../app.js';
import { createOrder } from '../factories.js';
import { samplePdf } from '../fixtures.js';
import { startS3, type TestS3 } from '../s3.js';
import { eventually, freePort, startSmtp, type TestSmtp } from '../smtp.js';

/**
 * Two real instances of the app on one PostgreSQL database, one Redis and one S3 store, each listening on
 * its own port and driven over HTTP. PGlite cannot have two instances, so this runs with TEST_DATABASE_URL.
 * (A live event stream on one instance receiving the other's changes is covered with the live queues.)
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

describe.skipIf(!process.env.TEST_DATABASE_URL)('several instances on one PostgreSQL database', () => {
  let s3: TestS3;
  let smtp: TestSmtp;
  let a: TestApp;
  let bDatabase: Database;
  let bConfig: Config;
  let b: FastifyInstance;
  let urlA: string;
  let urlB: string;
  const dirs: string[] = [];

  beforeAll(async () => {
    s3 = await startS3();
    smtp = await startSmtp();
    const env = {
      ...s3.env,
      REDIS_URL,
      TRUST_PROXY: '1',
      MAIL_AWS_SMTP_URL: smtp.url,
      MAIL_SENDGRID_SMTP_URL: smtp.url,
    };
    a = await createTestApp(env);
    const dataDirB = mkdtempSync(path.join(os.tmpdir(), 'edcard-b-'));
    dirs.push(dataDirB);
    bConfig = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDirB, JWT_SECRET, LOG_LEVEL: 'silent', ...env });
    bDatabase = await openDatabase({ databaseUrl: a.databaseUrl!, poolSize: 5 });
    b = await buildApp({ config: bConfig, database: bDatabase, logger: false });
    const listen = async (app: FastifyInstance) => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    };
    urlA = await listen(a.app);
    urlB = await listen(b);
  }, 60_000);

  afterAll(async () => {
    await b?.close();
    closeDocumentStorage(bConfig);
    await bDatabase?.close();
    if (a) closeDocumentStorage(a.config);
    await a?.close();
    await smtp?.close();
    await s3?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const sha = (bytes: ArrayBuffer | Buffer) =>
    createHash('sha256')
      .update(Buffer.from(bytes as ArrayBuffer))
      .digest('hex');

  it('a document uploaded through one instance is downloaded through the other', async () => {
    const order = await createOrder(a.database, { email: 'card@example.com' });
    const bytes = await samplePdf('UPLOADED-ON-A', 1);
    const form = new FormData();
    form.set('orderId', String(order.orderId));
    form.set('email', 'card@example.com');
    form.set('mailServiceProvider', 'AWS');
    form.set('uploadVisaDoc', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'card.pdf');
    const token = await a.tokenFor('Team');
    const up = await fetch(`${urlA}/api/admin/upload-visa-document`, {
      method: 'POST',
      headers: { authorization: token },
      body: form,
    });
    expect(up.status, await up.clone().text()).toBe(200);
    const { documentId } = ((await up.json()) as { data: { documentId: number } }).data;
    const down = await fetch(`${urlB}/api/admin/order-document/${documentId}`, {
      headers: { authorization: token },
    });
    expect(down.status).toBe(200);
    expect(sha(await down.arrayBuffer())).toBe(sha(bytes));
  });

  it('rate limits are shared: the limit counts requests to both instances together', async () => {
    const order = await createOrder(a.database);
    // Each run clones the same template, so order ids repeat: forget an earlier run's counts of this order.
    const redis = new Redis(REDIS_URL);
    const stale = await redis.keys(`*track-order:${order.orderId}`);
    if (stale.length) await redis.del(...stale);
    redis.disconnect();
    const ip = `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    const statuses: number[] = [];
    // track-order allows 10 tries per order in 10 minutes, whichever instance answers.
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${i % 2 ? urlB : urlA}/api/front/track-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ orderId: String(order.orderId), email: `wrong${i}@example.com` }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('each queued mail is delivered exactly once with both dispatchers running', async () => {
    const queues: MailQueue[] = [];
    try {
      const opts = { pollingIntervalSeconds: 0.5, reminderCron: null, retryLimit: 2, retryDelaySeconds: 1 };
      queues.push(await startMailQueue(a.app, opts), await startMailQueue(b, opts));
      const order = await createOrder(a.database);
      const before = smtp.messages.length;
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) {
        ids.push(
          await queueMail(a.database.db, {
            orderId: order.orderId,
            kind: 'refund',
            toEmail: `once${i}@example.com`,
            provider: i % 2 ? 'AWS' : 'Sendgrid',
            requestedBy: null,
          }),
        );
      }
      // Both dispatchers race for the same rows.
      await Promise.all([
        queues[0]!.dispatch(),
        queues[1]!.dispatch(),
        queues[0]!.dispatch(),
        queues[1]!.dispatch(),
      ]);
      await smtp.waitFor(before + 20, 60_000);
      await new Promise((r) => setTimeout(r, 3000));
      // Only this test's mails (the upload's approval mail of the first test may arrive meanwhile).
      const received = smtp.messages
        .map((m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text ?? '')
        .filter((to) => to.startsWith('once'));
      expect(received).toHaveLength(20);
      expect(new Set(received).size).toBe(20);
      const { rows } = await a.database.sql.query<{ status: string; attempts: number }>(
        'select status, (select count(*)::int from mail_attempts t where t.mail_id = m.id) attempts from mail_log m where id = any($1::int[])',
        [ids],
      );
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    } finally {
      for (const q of queues) await q.stop();
    }
  }, 90_000);

  describe('an instance killed mid-request', () => {
    let child: ChildProcess | undefined;
    afterAll(() => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
    });

    it('loses no acknowledged change: every remark answered 200 is stored with its event', async () => {
      const port = await freePort();
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edcard-c-'));
      dirs.push(dataDir);
      child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: {
          ...process.env,
          ...s3.env,
          NODE_ENV: 'test',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: a.databaseUrl!,
          JWT_SECRET,
          REDIS_URL,
          SEED_DEMO: '0',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const urlC = `http://127.0.0.1:${port}`;
      await eventually(
        async () => (await fetch(`${urlC}/api/health/ready`).catch(() => null))?.status === 200,
        90_000,
      );

      const order = await createOrder(a.database);
      const token = await a.tokenFor('Team');
      const acked: string[] = [];
      const failed: string[] = [];
      let killed = false;
      const lane = async (laneNo: number) => {
        for (let i = 0; i < 200; i++) {
          const remark = `lane ${laneNo} remark ${i}`;
          try {
            const res = await fetch(`${urlC}/api/admin/add-new-remark`, {
              method: 'POST',
              headers: { authorization: token, 'content-type': 'application/json' },
              body: JSON.stringify({ orderId: order.orderId, remark }),
            });
            if (res.status === 200) acked.push(remark);
            else failed.push(remark);
          } catch {
            failed.push(remark);
            if (killed) return;
          }
        }
      };
      const lanes = [1, 2, 3, 4].map(lane);
      await eventually(async () => acked.length >= 20, 60_000);
      child.kill('SIGKILL');
      killed = true;
      await Promise.all(lanes);
      expect(failed.length).toBeGreaterThan(0);

      const { rows } = await a.database.sql.query<{ remark: string; events: number }>(
        `select r.remark,
                (select count(*)::int from order_events e where e.order_id = r.order_id and e.action = 'remark'
                   and e.to_value = r.id::text) events
           from order_remarks r where r.order_id = $1`,
        [order.orderId],
      );
      const stored = new Map(rows.map((r) => [r.remark, r.events]));
      for (const remark of acked) expect(stored.get(remark), remark).toBe(1);
      // The other instance carries on.
      const res = await fetch(`${urlA}/api/admin/add-new-remark`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: order.orderId, remark: 'after the crash' }),
      });
      expect(res.status).toBe(200);
    }, 180_000);
  });
});
