import type { BackgroundJob } from '../jobs.js';
import { startMailQueue } from './queue.js';

/** Mail delivery, retries and the reminder schedule, started by main.ts. */
export const mailDeliveryJob: BackgroundJob = async (app) => {
  const queue = await startMailQueue(app);
  return queue.stop;
};
