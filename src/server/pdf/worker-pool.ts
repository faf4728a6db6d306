import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import type { PdfTask, PdfTaskResult } from './worker.js';

/** The settings of the PDF worker threads (from the environment, see config.ts). */
export type PdfWorkerLimits = Pick<Config, 'PDF_WORKERS' | 'PDF_WORKER_MEMORY_MB'>;

export const DEFAULT_PDF_WORKER_LIMITS: PdfWorkerLimits = { PDF_WORKERS: 2, PDF_WORKER_MEMORY_MB: 256 };

/** Tasks that may wait for a free worker, per worker; beyond that a request is refused at once. */
const QUEUE_PER_WORKER = 4;
/** Idle workers end after this; the next task starts one again (~100 ms built, ~1 s from sources). */
const IDLE_MS = 60_000;

/** Why a task did not produce its result; callers turn this into the answer the user sees. */
export class PdfWorkerError extends Error {
  constructor(
    readonly reason: 'busy' | 'timeout' | 'memory',
    message: string,
  ) {
    super(message);
  }
}

const fromSources = import.meta.url.endsWith('.ts');

interface Pool {
  piscina: Piscina;
  /** Tasks running or waiting. Counted here: piscina's own queue bound skips tasks that carry a signal. */
  inFlight: number;
  capacity: number;
}
const pools = new Map<string, Pool>();

function poolFor(limits: PdfWorkerLimits): Pool {
  const key = `${limits.PDF_WORKERS}/${limits.PDF_WORKER_MEMORY_MB}`;
  let pool = pools.get(key);
  if (!pool) {
    const piscina = new Piscina({
      filename: new URL(fromSources ? './worker-tsx.mjs' : './worker.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: limits.PDF_WORKERS,
      concurrentTasksPerWorker: 1,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: limits.PDF_WORKER_MEMORY_MB },
      // Lower scheduling priority (Linux: per thread): on a busy machine requests still get the CPU first.
      niceIncrement: 10,
      // From sources the entry registers tsx itself; the parent's loader flags are not needed there.
      ...(fromSources ? { execArgv: [] } : {}),
    });
    pool = { piscina, inFlight: 0, capacity: limits.PDF_WORKERS * (1 + QUEUE_PER_WORKER) };
    pools.set(key, pool);
  }
  return pool;
}

/**
 * Runs a PDF task on a worker thread, so parsing or laying out a hostile document never blocks the
 * event loop. Each worker has a heap cap; the queue is bounded; a task running past `timeoutMs` is
 * stopped (its worker ends). Those three cases throw PdfWorkerError; anything else is rethrown.
 */
export async function runInPdfWorker<K extends PdfTask['kind']>(
  limits: PdfWorkerLimits,
  task: Extract<PdfTask, { kind: K }>,
  timeoutMs: number,
): Promise<PdfTaskResult[K]> {
  const pool = poolFor(limits);
  if (pool.inFlight >= pool.capacity) throw new PdfWorkerError('busy', 'the PDF workers are busy');
  pool.inFlight++;
  try {
    return (await pool.piscina.run(task, { signal: AbortSignal.timeout(timeoutMs) })) as PdfTaskResult[K];
  } catch (err) {
    const e = err as { code?: string; name?: string };
    if (e.name === 'AbortError' || e.name === 'TimeoutError')
      throw new PdfWorkerError('timeout', `the PDF task ran longer than ${timeoutMs} ms`);
    if (e.code === 'ERR_WORKER_OUT_OF_MEMORY')
      throw new PdfWorkerError('memory', `the PDF task needed more than ${limits.PDF_WORKER_MEMORY_MB} MB`);
    throw err;
  } finally {
    pool.inFlight--;
  }
}
