import type { DefencePackDetails } from '../../shared/contracts/defence-pack.js';
import type { OrderFields } from '../../shared/contracts/order-detail.js';
import { HttpError, serviceUnavailable } from '../http/errors.js';
import type { EmbeddedDocument } from './defence-pack.js';
import { imageDimensions, MAX_IMAGE_PIXELS } from './document-limits.js';
import { type PdfWorkerLimits, PdfWorkerError, runInPdfWorker } from './worker-pool.js';

/** A pack still unfinished after this (waiting included) is stopped; a 25-megapixel PNG alone takes seconds. */
const PACK_TIMEOUT_MS = 60_000;
const INVOICE_TIMEOUT_MS = 30_000;

/**
 * pdf-lib decodes a PNG into pixel buffers (about 14 bytes per pixel at the peak) that live outside the
 * worker's heap cap; packs drawing a PNG above this size therefore go one at a time.
 */
const LARGE_PNG_PIXELS = 4_000_000;

export const PACK_BUSY_MESSAGE =
  'Too many Defence Packs are being built right now. Please try again in a minute.';
export const PACK_TIMEOUT_MESSAGE =
  'Building the Defence Pack took too long and was stopped. Please try again later.';
export const PACK_MEMORY_MESSAGE =
  'The Defence Pack could not be built: its approved document needs more memory than a pack may use. Download the document separately.';

/** Defence Pack PDF, built on a PDF worker thread; its limits answer 503 (busy, too slow) or 422 (too big). */
export async function buildDefencePackPdf(
  limits: PdfWorkerLimits,
  evidence: DefencePackDetails,
  document: EmbeddedDocument | null,
): Promise<Uint8Array> {
  const size = document?.mimeType === 'image/png' ? imageDimensions(document.bytes) : null;
  const pixels = size ? size.width * size.height : 0;
  const oneAtATime = pixels > LARGE_PNG_PIXELS && pixels <= MAX_IMAGE_PIXELS;
  try {
    return await runInPdfWorker(
      oneAtATime ? { ...limits, PDF_WORKERS: 1 } : limits,
      { kind: 'defence-pack', evidence, document },
      PACK_TIMEOUT_MS,
    );
  } catch (err) {
    if (!(err instanceof PdfWorkerError)) throw err;
    if (err.reason === 'busy') throw serviceUnavailable(PACK_BUSY_MESSAGE);
    if (err.reason === 'timeout') throw serviceUnavailable(PACK_TIMEOUT_MESSAGE);
    throw new HttpError(422, PACK_MEMORY_MESSAGE);
  }
}

/** Invoice PDF, built on a PDF worker thread (a failure makes the mail delivery retry later). */
export async function buildInvoicePdf(
  limits: PdfWorkerLimits,
  order: OrderFields,
  issuedAt: Date,
): Promise<Uint8Array> {
  return runInPdfWorker(limits, { kind: 'invoice', order, issuedAt }, INVOICE_TIMEOUT_MS);
}

/** Pages of an uploaded PDF, counted on a worker thread (null: not a readable PDF). */
export async function countPdfPages(limits: PdfWorkerLimits, bytes: Uint8Array, timeoutMs: number) {
  return runInPdfWorker(limits, { kind: 'count-pages', bytes }, timeoutMs);
}

/** The text and QR codes of a card, read on a worker thread (null: unreadable); limits throw PdfWorkerError. */
export async function readCardInWorker(
  limits: PdfWorkerLimits,
  bytes: Uint8Array,
  mimeType: string,
  timeoutMs: number,
) {
  return runInPdfWorker(limits, { kind: 'read-card', bytes, mimeType }, timeoutMs);
}

/** A passport scan decoded and cut to its bottom band for OCR, on a worker thread (null: undecodable). */
export async function passportPicturesInWorker(
  limits: PdfWorkerLimits,
  bytes: Uint8Array,
  mimeType: string,
  timeoutMs: number,
) {
  return runInPdfWorker(limits, { kind: 'passport-pictures', bytes, mimeType }, timeoutMs);
}
