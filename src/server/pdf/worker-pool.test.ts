import { describe, expect, it } from 'vitest';
import { bombPdf } from '../test/bombs.js';
import { samplePdf } from '../test/fixtures.js';
import { PdfWorkerError, runInPdfWorker } from './worker-pool.js';

/**
 * The PDF worker queue: a task waiting behind others keeps its whole time limit (the limit counts from
 * when a worker takes it), and only a full queue refuses a task, at once.
 */

// A pool of its own (one worker, a heap cap no other test uses): nothing else shares its queue.
const limits = { PDF_WORKERS: 1, PDF_WORKER_MEMORY_MB: 200 };
const count = (bytes: Uint8Array, timeoutMs: number) =>
  runInPdfWorker(limits, { kind: 'count-pages', bytes }, timeoutMs);

describe('the PDF worker queue', () => {
  it('a task waiting longer than its time limit behind slower ones is still done', async () => {
    const small = await samplePdf('QUICK', 1);
    const bomb = bombPdf(20_000);
    // The worker started, and how long one slow task takes on this machine.
    expect(await count(small, 30_000)).toBe(1);
    const t0 = performance.now();
    expect(await count(bomb, 120_000)).toBe(20_000);
    const slowMs = performance.now() - t0;

    const limit = Math.max(1_000, Math.round(slowMs));
    const started = performance.now();
    // Three ahead (one running, two waiting, then this one): even if the warm worker reads the later
    // ones faster than the first, together they take longer than one.
    const ahead = [count(bomb, 120_000), count(bomb, 120_000), count(bomb, 120_000)];
    const quick = count(small, limit);
    expect(await quick).toBe(1);
    // It waited for the slow tasks: longer than its own limit.
    expect(performance.now() - started).toBeGreaterThan(limit);
    expect(await Promise.all(ahead)).toEqual([20_000, 20_000, 20_000]);
  }, 120_000);

  it('beyond one running and four waiting, a task is refused at once as busy', async () => {
    const bomb = bombPdf(20_000);
    const filling = Array.from({ length: 5 }, () => count(bomb, 120_000));
    const refused = await count(bomb, 120_000).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PdfWorkerError);
    expect((refused as PdfWorkerError).reason).toBe('busy');
    expect(await Promise.all(filling)).toEqual(Array(5).fill(20_000));
  }, 120_000);
});
