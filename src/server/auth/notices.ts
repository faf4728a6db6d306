import { MAIL_PROVIDERS } from '../../shared/constants.js';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DbOrTx } from '../db/client.js';
import { staffNotices } from '../db/schema.js';
import { createMailSender, type MailSender } from '../mail/transports.js';

/**
 * Security notices to staff members. The order mail outbox (mail_log) belongs to orders — every row
 * names one and writes an order event — so these have their own small outbox, written in the
 * transaction of the change and delivered by the same two providers (decision 091).
 */
export type NoticeKind =
  | 'new-device'
  | 'password-changed'
  | 'two-factor-on'
  | 'two-factor-off'
  | 'two-factor-reset';

const MAX_ATTEMPTS = 5;

export interface NoticeInput {
  userId: number;
  toEmail: string;
  name: string;
  kind: NoticeKind;
  /** Where from (sign-ins): device and address. */
  device?: string | null;
  ip?: string | null;
  at: Date;
}

function render(n: NoticeInput, siteUrl: string): { subject: string; body: string } {
  const when = `${n.at.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  const lines: Record<NoticeKind, [string, string]> = {
    'new-device': [
      'New sign-in to your ED-Card account',
      `Your account was signed in from a new device: ${n.device ?? 'unknown device'}, address ${n.ip ?? 'unknown'}, at ${when}.`,
    ],
    'password-changed': [
      'Your ED-Card password was changed',
      `The password of your account was changed at ${when}.`,
    ],
    'two-factor-on': [
      'Two-factor sign-in is on',
      `Two-factor sign-in was turned on for your account at ${when}.`,
    ],
    'two-factor-off': [
      'Two-factor sign-in is off',
      `Two-factor sign-in was turned off for your account at ${when}.`,
    ],
    'two-factor-reset': [
      'Your two-factor sign-in was reset',
      `An Admin reset the two-factor sign-in of your account at ${when}. You will set it up again at your next sign-in.`,
    ],
  };
  const [subject, what] = lines[n.kind];
  const body = [
    `Hello ${n.name},`,
    '',
    what,
    '',
    'If this was you, nothing needs to be done. If not, change your password now and end the sessions you',
    `do not recognise under Your sessions: ${siteUrl.replace(/\/$/, '')}/admin/account/sessions`,
    '',
    'ED-Card',
  ].join('\n');
  return { subject, body };
}

/** Queues a notice; call it inside the transaction of the change it tells about. */
export async function queueNotice(db: DbOrTx, config: Config, input: NoticeInput): Promise<void> {
  const { subject, body } = render(input, config.PUBLIC_SITE_URL);
  await db
    .insert(staffNotices)
    .values({ userId: input.userId, kind: input.kind, toEmail: input.toEmail, subject, body });
}

/**
 * Sends queued notices (oldest first): AWS first, Sendgrid when it fails; after 5 failed rounds a notice
 * is marked failed. Rows are claimed with SKIP LOCKED, so several instances never send one twice.
 */
export async function deliverStaffNotices(db: DbOrTx, sender: MailSender, limit = 20): Promise<number> {
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const done = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(staffNotices)
        .where(eq(staffNotices.status, 'queued'))
        .orderBy(asc(staffNotices.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return null;
      let error: string | null = null;
      for (const provider of MAIL_PROVIDERS) {
        try {
          await sender.send(provider, { to: row.toEmail, subject: row.subject, text: row.body });
          error = null;
          break;
        } catch (err) {
          error = `${provider}: ${(err as Error).message}`.slice(0, 500);
        }
      }
      const attempts = row.attempts + 1;
      await tx
        .update(staffNotices)
        .set(
          error
            ? { attempts, error, status: attempts >= MAX_ATTEMPTS ? 'failed' : 'queued' }
            : { attempts, error: null, status: 'sent', sentAt: new Date() },
        )
        .where(and(eq(staffNotices.id, row.id), eq(staffNotices.status, 'queued')));
      return error ? 'failed' : 'sent';
    });
    if (done === null) break;
    if (done === 'sent') sent++;
    else break; // a provider outage: try again on the next round
  }
  return sent;
}

/** Background delivery every few seconds (started by main.ts with the other jobs). */
export async function startNoticeDelivery(
  app: FastifyInstance,
  everyMs = 5_000,
): Promise<() => Promise<void>> {
  const sender = createMailSender(app.ctx.config);
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deliverStaffNotices(app.ctx.db, sender)
      .catch((err) => app.log.warn({ err }, 'staff notice delivery failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    sender.close();
  };
}
