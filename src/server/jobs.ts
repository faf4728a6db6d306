import type { FastifyInstance } from 'fastify';
import { startNoticeDelivery } from './auth/notices.js';
import { mailDeliveryJob } from './mail/job.js';
import { retentionJob } from './retention/retention.js';

/** A background worker started by main.ts after the app is ready; returns its stop function. */
export type BackgroundJob = (app: FastifyInstance) => Promise<() => Promise<void>>;

/** Every background job of the service (mail delivery, reminders…). One line per job. */
export const backgroundJobs: BackgroundJob[] = [
  mailDeliveryJob,
  (app) => startNoticeDelivery(app),
  retentionJob,
];
