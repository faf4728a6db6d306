import { Piscina } from 'piscina';
import type { Config } from '../config.js';
import type { PdfTask, PdfTaskMessage, PdfTaskResult, PdfTaskStarted } from './worker.js';

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
  /** The workers stay started and have loaded the card reader (warmPdfWorkers). */
  warm: boolean;
  workers: number;
  /**
   * Tasks handed to piscina: at most one a worker, so a task handed over starts at once and its time
   * limit measures its own work, never the wait behind others.
   */
  running: number;
  /** Tasks waiting for a worker, oldest first; at most QUEUE_PER_WORKER a worker. */
  waiting: (() => void)[];
}
const pools = new Map<string, Pool>();

/**
 * A task handed to a worker that has not begun it after this is stopped: only a worker thread that
 * cannot start (its own start is not counted in a task's limit, see runInPdfWorker) gets here.
 */
const START_LIMIT_MS = 120_000;

let nextToken = 0;
/** The time limits waiting for their task to begin, by token. */
const onStart = new Map<number, () => void>();

function startPiscina(limits: PdfWorkerLimits, warm: boolean): Piscina {
  const piscina = new Piscina({
    filename: new URL(fromSources ? './worker-tsx.mjs' : './worker.js', import.meta.url).href,
    // Warm: every worker starts now and stays, and one that ends (a task past its limit) is replaced.
    minThreads: warm ? limits.PDF_WORKERS : 0,
    maxThreads: limits.PDF_WORKERS,
    concurrentTasksPerWorker: 1,
    idleTimeout: IDLE_MS,
    resourceLimits: { maxOldGenerationSizeMb: limits.PDF_WORKER_MEMORY_MB },
    // Lower scheduling priority (Linux: per thread): on a busy machine requests still get the CPU first.
    niceIncrement: 10,
    // Read by the worker at its start: a warm worker loads and runs the card reader once (worker.ts).
    workerData: { warm },
    // From sources the entry registers tsx itself; the parent's loader flags are not needed there.
    ...(fromSources ? { execArgv: [] } : {}),
  });
  piscina.on('message', (message: Partial<PdfTaskStarted> | null) => {
    if (typeof message?.pdfTaskStarted === 'number') onStart.get(message.pdfTaskStarted)?.();
  });
  return piscina;
}

function poolFor(limits: PdfWorkerLimits, warm = false): Pool {
  const key = `${limits.PDF_WORKERS}/${limits.PDF_WORKER_MEMORY_MB}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = {
      piscina: startPiscina(limits, warm),
      warm,
      workers: limits.PDF_WORKERS,
      running: 0,
      waiting: [],
    };
    pools.set(key, pool);
  } else if (warm && !pool.warm) {
    // Tasks already handed to the cold pool finish there; new ones go to the warm workers.
    const cold = pool.piscina;
    pool.piscina = startPiscina(limits, true);
    pool.warm = true;
    void cold.close();
  }
  return pool;
}

/**
 * Starts the PDF workers of these limits now and keeps them started (each loads the card reader and
 * reads a small card once), so the first card read after a quiet hour costs what the next one does.
 * Bounded as before: PDF_WORKERS threads, each with its heap cap.
 */
export function warmPdfWorkers(limits: PdfWorkerLimits): void {
  poolFor(limits, true);
}

/** A worker for one task, at once or after the tasks ahead of it; 'busy' when the queue is full. */
async function takeWorker(pool: Pool): Promise<void> {
  if (pool.running < pool.workers) {
    pool.running++;
    return;
  }
  if (pool.waiting.length >= pool.workers * QUEUE_PER_WORKER)
    throw new PdfWorkerError('busy', 'the PDF workers are busy');
  // The worker is handed over by giveBack: `running` stays counted for this task.
  await new Promise<void>((resolve) => pool.waiting.push(resolve));
}

function giveBack(pool: Pool): void {
  const next = pool.waiting.shift();
  if (next) next();
  else pool.running--;
}

/**
 * Runs a PDF task on a worker thread, so parsing or laying out a hostile document never blocks the
 * event loop. Each worker has a heap cap; the queue is bounded (a task beyond it is refused at once);
 * a task running past `timeoutMs` is stopped (its worker ends). The limit counts from when the worker
 * begins the task: neither the wait in the queue nor a worker thread's own start counts. Those three
 * cases throw PdfWorkerError; anything else is rethrown.
 */
export async function runInPdfWorker<K extends PdfTask['kind']>(
  limits: PdfWorkerLimits,
  task: Extract<PdfTask, { kind: K }>,
  timeoutMs: number,
): Promise<PdfTaskResult[K]> {
  const pool = poolFor(limits);
  await takeWorker(pool);
  const token = ++nextToken;
  const stop = new AbortController();
  let timer = setTimeout(() => stop.abort(), START_LIMIT_MS);
  onStart.set(token, () => {
    clearTimeout(timer);
    timer = setTimeout(() => stop.abort(), timeoutMs);
  });
  try {
    const message: PdfTaskMessage = { task, startedToken: token };
    return (await pool.piscina.run(message, { signal: stop.signal })) as PdfTaskResult[K];
  } catch (err) {
    const e = err as { code?: string; name?: string };
    if (e.name === 'AbortError' || e.name === 'TimeoutError')
      throw new PdfWorkerError('timeout', `the PDF task ran longer than ${timeoutMs} ms`);
    if (e.code === 'ERR_WORKER_OUT_OF_MEMORY')
      throw new PdfWorkerError('memory', `the PDF task needed more than ${limits.PDF_WORKER_MEMORY_MB} MB`);
    throw err;
  } finally {
    clearTimeout(timer);
    onStart.delete(token);
    giveBack(pool);
  }
}
