import { Counter } from 'prom-client';
import { registry } from '../metrics/metrics.js';

/** Where a fault outside any request is reported (the app's logger once it exists, stderr before). */
export type FaultLog = (err: unknown, message: string) => void;

const unhandled = new Counter({
  name: 'process_unhandled_rejections_total',
  help: 'Promise rejections no code awaited (logged; the process keeps running)',
  registers: [registry],
});

/**
 * Keeps the server up when a promise nobody awaits rejects. Node ends the process on such a rejection;
 * a library that fires and forgets a database write (the job queue completes a job without awaiting
 * it, and a pool that is briefly exhausted rejects that write) would then stop every request of every
 * user. The rejection is logged and counted instead; the job it belonged to is retried by the queue
 * when its lease expires. Errors thrown synchronously (uncaughtException) still end the process:
 * their state is unknown.
 */
export function guardUnhandledRejections(log: () => FaultLog): void {
  process.on('unhandledRejection', (reason) => {
    unhandled.inc();
    log()(reason, 'a promise rejected with nobody awaiting it; the server keeps running');
  });
}
