import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { badRequest, HttpError, serviceUnavailable, unsupportedMediaType } from '../http/errors.js';
import { countPdfPages } from '../pdf/build.js';
import { imageDimensions, MAX_IMAGE_PIXELS, MAX_PDF_PAGES, megapixels } from '../pdf/document-limits.js';
import { DEFAULT_PDF_WORKER_LIMITS, PdfWorkerError, type PdfWorkerLimits } from '../pdf/worker-pool.js';
import { removeStored, type StorageTarget, storeStream } from './storage.js';
import type { StoredFile } from './stored-file.js';

/** Accepted documents by content (magic bytes), never by the client's name or header. */
const ACCEPTED: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};
/** Enough bytes for file-type to recognise every accepted format. */
const SNIFF_BYTES = 4100;

export const UNSUPPORTED_TYPE_MESSAGE = 'Only PDF, PNG, JPEG or WebP files are accepted.';
export const EMPTY_FILE_MESSAGE = 'The file is empty.';
export const UNREADABLE_PDF_MESSAGE = 'The PDF could not be read. Save it again as a PDF and upload it.';
export const UNREADABLE_IMAGE_MESSAGE =
  'The image could not be read. Save it again as PNG or JPEG and upload it.';
export const COMPLEX_PDF_MESSAGE =
  'The PDF is too complex to check. Save it again as a plain PDF of the card and upload it.';
export const CHECK_BUSY_MESSAGE =
  'Too many documents are being checked right now. Please try again in a minute.';
/** Reading the pages of a card PDF takes milliseconds; a PDF that needs longer is refused. */
const PAGE_COUNT_TIMEOUT_MS = 15_000;

/**
 * A display name that is safe everywhere: no folders, no control characters, no leading dots, a sane
 * length, and the extension of the real content.
 */
export function sanitizeFileName(name: string | undefined, extension: string, fallback: string): string {
  let base = (name ?? '').split(/[\\/]/).pop() ?? '';
  base = base
    .normalize('NFC')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/[<>:"|?*]/g, '_')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  const stem = base.replace(/\.[^.]*$/, '').trim() || fallback;
  return `${stem.slice(0, 120)}.${extension}`;
}

export interface StoredUpload extends StoredFile {
  mimeType: string;
  extension: string;
}

/**
 * Sniffs the first bytes of an upload and streams the whole of it into storage (temp file + rename).
 * Throws 400 for an empty file, 415 for anything but PDF/PNG/JPEG/WebP, and 422 for what no approved
 * card needs (images above 25 megapixels, PDFs above 50 pages or unreadable); nothing
 * is stored then. A file cut at the size limit is returned unchecked: the caller answers 413.
 */
export async function storeUpload(
  dataDir: StorageTarget,
  source: Readable,
  workers: PdfWorkerLimits = typeof dataDir === 'string' ? DEFAULT_PDF_WORKER_LIMITS : dataDir,
): Promise<StoredUpload> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headLength += next.value.length;
  }
  if (headLength === 0) throw badRequest(EMPTY_FILE_MESSAGE);
  const type = await fileTypeFromBuffer(Buffer.concat(head));
  const extension = type ? ACCEPTED[type.mime] : undefined;
  if (!type || !extension) {
    if (!ended) source.resume();
    throw unsupportedMediaType(UNSUPPORTED_TYPE_MESSAGE);
  }
  // The whole file (at most the upload limit) is kept to check it once it is complete.
  const chunks: Buffer[] = [...head];
  async function* everything() {
    yield* head;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      chunks.push(next.value);
      yield next.value;
    }
  }
  const stored = await storeStream(dataDir, Readable.from(everything()), extension);
  if ((source as Readable & { truncated?: boolean }).truncated)
    return { ...stored, mimeType: type.mime, extension };
  try {
    await checkDocument(Buffer.concat(chunks), type.mime, workers);
  } catch (err) {
    await removeStored(dataDir, stored.key);
    throw err;
  }
  return { ...stored, mimeType: type.mime, extension };
}

const unprocessable = (message: string) => new HttpError(422, message);

/**
 * Refuses documents no approved card needs: image size is read from the header (nothing decoded);
 * PDF pages are counted on a PDF worker thread, bounded in memory and time, since parsing a hostile
 * PDF is itself the attack.
 */
async function checkDocument(bytes: Buffer, mimeType: string, workers: PdfWorkerLimits): Promise<void> {
  if (mimeType === 'application/pdf') {
    let pages: number | null;
    try {
      pages = await countPdfPages(workers, bytes, PAGE_COUNT_TIMEOUT_MS);
    } catch (err) {
      if (!(err instanceof PdfWorkerError)) throw err;
      throw err.reason === 'busy'
        ? serviceUnavailable(CHECK_BUSY_MESSAGE)
        : unprocessable(COMPLEX_PDF_MESSAGE);
    }
    if (!pages) throw unprocessable(UNREADABLE_PDF_MESSAGE);
    if (pages > MAX_PDF_PAGES) {
      throw unprocessable(
        `The PDF has ${pages} pages. An approved card has at most ${MAX_PDF_PAGES} pages: upload the card alone.`,
      );
    }
    return;
  }
  const size = imageDimensions(bytes);
  if (!size) throw unprocessable(UNREADABLE_IMAGE_MESSAGE);
  if (size.width * size.height > MAX_IMAGE_PIXELS) {
    throw unprocessable(
      `The image is ${size.width} x ${size.height} pixels (${megapixels(size)} megapixels). Images up to ${MAX_IMAGE_PIXELS / 1_000_000} megapixels are accepted: save it at a lower resolution.`,
    );
  }
}
