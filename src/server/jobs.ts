import type { FastifyInstance } from 'fastify';
import { startNoticeDelivery } from './auth/notices.js';
import { startFeedbackRequests } from './flows/rating.js';
import { startCardCheckSweep } from './flows/card-check.js';
import { startRouting } from './flows/routing-job.js';
import { startSubmissionWindowOpener } from './flows/submission-window.js';
import { startPayoutSync } from './flows/payout-sync.js';
import { imapJob } from './inbound/imap.js';
import { startWaitingPolicy } from './inbound/waiting.js';
import { startMailQueue } from './mail/queue.js';
import { retentionJob } from './flows/retention-job.js';

/** A background worker started by main.ts after the app is ready; returns its stop function. */
export type BackgroundJob = (app: FastifyInstance) => Promise<() => Promise<void>>;

/** Mail delivery, retries and the reminder schedule. */
const mailDeliveryJob: BackgroundJob = async (app) => (await startMailQueue(app)).stop;

/** Every background job of the service (mail delivery, reminders…). One line per job. */
export const backgroundJobs: BackgroundJob[] = [
  mailDeliveryJob,
  (app) => startNoticeDelivery(app),
  retentionJob,
  startWaitingPolicy,
  imapJob,
  startFeedbackRequests,
  (app) => startCardCheckSweep(app.ctx, app.log),
  startRouting,
  startPayoutSync,
  (app) => startSubmissionWindowOpener(app.ctx.db, app.log),
];
