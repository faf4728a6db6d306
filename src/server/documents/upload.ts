import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { badRequest, unsupportedMediaType } from '../http/errors.js';
import { type StoredFile, storeStream } from './storage.js';

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
 * Throws 400 for an empty file and 415 for anything but PDF/PNG/JPEG/WebP; nothing is stored then.
 */
export async function storeUpload(dataDir: string, source: Readable): Promise<StoredUpload> {
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
  async function* everything() {
    yield* head;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  const stored = await storeStream(dataDir, Readable.from(everything()), extension);
  return { ...stored, mimeType: type.mime, extension };
}
