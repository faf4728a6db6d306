import type { FastifyInstance } from 'fastify';
import { startNoticeDelivery } from './auth/notices.js';
import { startFeedbackRequests } from './flows/rating.js';
import { startCardCheckSweep } from './flows/card-check.js';
import { startRouting } from './flows/routing-job.js';
import { OPENING_LEAD_MS, startSubmissionWindowOpener } from './flows/submission-window.js';
import { startPayoutSync } from './flows/payout-sync.js';
import { imapJob } from './inbound/imap.js';
import { startWaitingPolicy } from './inbound/waiting.js';
import { startMailQueue } from './mail/queue.js';
import { warmPdfWorkers } from './pdf/worker-pool.js';
import { retentionJob } from './flows/retention-job.js';

/** A background worker started by main.ts after the app is ready; returns its stop function. */
export type BackgroundJob = (app: FastifyInstance) => Promise<() => Promise<void>>;

/** Mail delivery, retries and the reminder schedule. */
const mailDeliveryJob: BackgroundJob = async (app) => (await startMailQueue(app)).stop;

/**
 * The PDF workers started at boot and kept started (pdf/worker-pool.ts), so a card read or a passport
 * decoded after a quiet hour does not wait for a thread to start and load pdfjs. Nothing to stop: idle
 * workers never keep the process alive.
 */
const pdfWorkersJob: BackgroundJob = async (app) => {
  warmPdfWorkers(app.ctx.config);
  return async () => {};
};

/** Every background job of the service (mail delivery, reminders…). One line per job. */
export const backgroundJobs: BackgroundJob[] = [
  pdfWorkersJob,
  mailDeliveryJob,
  (app) => startNoticeDelivery(app),
  retentionJob,
  startWaitingPolicy,
  imapJob,
  startFeedbackRequests,
  (app) => startCardCheckSweep(app.ctx, app.log),
  startRouting,
  startPayoutSync,
  (app) =>
    startSubmissionWindowOpener(app.ctx.db, app.log, {
      leadMs: app.ctx.database.kind === 'postgres' ? OPENING_LEAD_MS : 0,
    }),
];
