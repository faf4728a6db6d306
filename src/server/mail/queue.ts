import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import PgBoss from 'pg-boss';
import { MAIL_PROVIDERS, type MailProvider } from '../../shared/constants.js';
import type { Database } from '../db/client.js';
import { mailAttempts, mailLog } from '../db/schema.js';
import { recordMailDelivered, recordMailFailure } from '../metrics/metrics.js';
import { composeMail, PermanentMailError } from './compose.js';
import { MAIL_CHANNEL } from './outbox.js';
import { queueDueReminders } from './reminders.js';
import { createMailSender, type MailSender } from './transports.js';

const DELIVER = 'mail-deliver';
const REMINDERS = 'mail-reminders';

export interface MailQueueOptions {
  /** Retries after the first attempt (pg-boss retryLimit). */
  retryLimit?: number;
  /** First retry delay in seconds; doubles each time (pg-boss retryBackoff). */
  retryDelaySeconds?: number;
  /** How often queued mail_log rows are looked for besides the writers' announcements (held mails, a missed one). */
  dispatchIntervalMs?: number;
  /** pg-boss worker polling interval (seconds, ≥ 0.5). */
  pollingIntervalSeconds?: number;
  /** Cron of the reminder scan; null turns the schedule off (tests call scanReminders). */
  reminderCron?: string | null;
}

export interface MailQueue {
  /** Hands every queued mail_log row to the job queue now; returns how many. */
  dispatch(): Promise<number>;
  /** Runs the reminder scan now (the schedule does it every minute). */
  scanReminders(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

/** pg-boss job ids are uuids; one fixed id per mail row makes a second dispatch of it a no-op. */
export function jobIdOf(mailId: number): string {
  return `00000000-0000-4000-8000-${mailId.toString(16).padStart(12, '0')}`;
}

/** pg-boss over our own connection: PGlite needs exec() for pg-boss's multi-statement migrations. */
export function bossDb(database: Database) {
  const pglite = database.pglite;
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      if (pglite && (!values || values.length === 0)) {
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      return database.sql.query(text, values);
    },
  };
}

/** pg-boss fetches higher priorities first: the card before reminders, before bulk notifications. */
const MAIL_PRIORITY: Partial<Record<string, number>> = { approval: 10, resend: 10, invoice: 5, reminder: 3 };

const shortError = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 500);

/**
 * Mail delivery (decision 030): mail_log is the durable outbox; a dispatcher hands queued rows to pg-boss
 * (job id fixed per row), whose workers send through the provider with retries and exponential backoff.
 * Every attempt lands in mail_attempts, the final status and message id in mail_log.
 */
export async function startMailQueue(app: FastifyInstance, opts: MailQueueOptions = {}): Promise<MailQueue> {
  const { database, config } = app.ctx;
  const db = database.db;
  const retryLimit = opts.retryLimit ?? 6;
  const retryDelay = opts.retryDelaySeconds ?? 30;
  const sender: MailSender = createMailSender(config);

  const boss = new PgBoss({ db: bossDb(database) as never, schema: 'pgboss', migrate: true });
  boss.on('error', (err) => app.log.error({ err }, 'job queue error'));
  await boss.start();
  await boss.createQueue(DELIVER, {
    name: DELIVER,
    retryLimit,
    retryDelay,
    retryBackoff: true,
    expireInSeconds: 300,
  });
  await boss.createQueue(REMINDERS, { name: REMINDERS, retryLimit: 0, expireInSeconds: 300 });

  await boss.work<{ mailId: number }>(
    DELIVER,
    { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 1 },
    async ([job]) => {
      if (job) await deliverMail(app, sender, job.data.mailId, job.retryCount >= job.retryLimit);
    },
  );

  let dispatching: Promise<number> | null = null;
  // One dispatch at a time per instance; a nudge during a run waits for it and runs again.
  const dispatch = async (): Promise<number> => {
    while (dispatching) await dispatching.catch(() => 0);
    dispatching = dispatchQueued(db, boss, { retryLimit, retryDelay });
    try {
      return await dispatching;
    } finally {
      dispatching = null;
    }
  };

  const scanReminders = async (now?: Date) => {
    const n = await queueDueReminders(database, config.REMINDER_AFTER_HOURS, now);
    if (n > 0) await dispatch();
    return n;
  };
  await boss.work(REMINDERS, { pollingIntervalSeconds: 5 }, async () => {
    await scanReminders();
  });
  const cron = opts.reminderCron === undefined ? '* * * * *' : opts.reminderCron;
  if (cron) await boss.schedule(REMINDERS, cron);
  else await boss.unschedule(REMINDERS).catch(() => {});

  let stopped = false;
  const dispatchNow = () => {
    if (!stopped) dispatch().catch((err) => app.log.warn({ err }, 'mail dispatch failed'));
  };
  // Every mail writer announces its commit (outbox.ts): delivery starts then; the poll catches held mails.
  const unlisten = await database.listen(MAIL_CHANNEL, dispatchNow);
  const timer = setInterval(dispatchNow, opts.dispatchIntervalMs ?? 2000);
  timer.unref();

  const queue: MailQueue = {
    dispatch,
    scanReminders,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await unlisten();
      await dispatching?.catch(() => 0);
      await boss.stop({ graceful: true, wait: true, timeout: 5000, close: false });
      sender.close();
    },
  };
  await dispatch();
  return queue;
}

/**
 * One delivery attempt of a mail_log row: composed, sent through its provider, the attempt and the outcome
 * recorded. Throws after a failure that is to be retried, so pg-boss schedules the next try.
 */
async function deliverMail(
  app: FastifyInstance,
  sender: MailSender,
  mailId: number,
  isLastTry: boolean,
): Promise<void> {
  const { database, config } = app.ctx;
  const db = database.db;
  const [mail] = await db.select().from(mailLog).where(eq(mailLog.id, mailId)).limit(1);
  if (!mail || mail.status === 'sent' || mail.status === 'failed' || mail.status === 'cancelled') return;
  const attempt = mail.attempts + 1;
  const provider = (MAIL_PROVIDERS as readonly string[]).includes(mail.provider)
    ? (mail.provider as MailProvider)
    : 'AWS';
  try {
    const message = await composeMail(db, config, mail);
    const result = await sender.send(provider, message);
    await db.transaction(async (tx) => {
      await tx
        .insert(mailAttempts)
        .values({ mailId, attempt, provider, ok: true, messageId: result.messageId, error: null });
      await tx
        .update(mailLog)
        .set({
          status: 'sent',
          attempts: attempt,
          messageId: result.messageId,
          ourMessageId: typeof message.messageId === 'string' ? message.messageId : null,
          providerMessageId: result.providerId ?? null,
          subject: typeof message.subject === 'string' ? message.subject.slice(0, 500) : null,
          error: null,
          updatedAt: sql`now()`,
        })
        .where(eq(mailLog.id, mailId));
    });
    recordMailDelivered(provider, mail.createdAt);
  } catch (err) {
    const final = err instanceof PermanentMailError || isLastTry;
    recordMailFailure(provider, final);
    await db.transaction(async (tx) => {
      await tx.insert(mailAttempts).values({ mailId, attempt, provider, ok: false, error: shortError(err) });
      await tx
        .update(mailLog)
        .set({
          status: final ? 'failed' : 'retrying',
          attempts: attempt,
          error: shortError(err),
          updatedAt: sql`now()`,
        })
        .where(eq(mailLog.id, mailId));
    });
    app.log.warn({ mailId, attempt, final, err: shortError(err) }, 'mail delivery attempt failed');
    if (!final) throw err;
  }
}

/** Hands up to 200 queued mail_log rows to the job queue and marks them sending; returns how many. */
async function dispatchQueued(
  db: Database['db'],
  boss: PgBoss,
  { retryLimit, retryDelay }: { retryLimit: number; retryDelay: number },
): Promise<number> {
  // Held mails (the undo window) wait; the approval mail (the card) goes before bulk mail.
  const queued = await db
    .select({ id: mailLog.id, kind: mailLog.kind })
    .from(mailLog)
    .where(
      sql`${mailLog.status} = 'queued' and (${mailLog.holdUntil} is null or ${mailLog.holdUntil} <= now())`,
    )
    .orderBy(sql`${mailLog.kind} in ('approval', 'resend') desc`, mailLog.id)
    .limit(200);
  for (const { id, kind } of queued) {
    await boss.send(
      DELIVER,
      { mailId: id },
      {
        id: jobIdOf(id),
        retryLimit,
        retryDelay,
        retryBackoff: true,
        priority: MAIL_PRIORITY[kind] ?? 0,
      },
    );
    await db
      .update(mailLog)
      .set({ status: 'sending', updatedAt: sql`now()` })
      .where(sql`${mailLog.id} = ${id} and ${mailLog.status} = 'queued'`);
  }
  return queued.length;
}
