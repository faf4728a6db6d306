import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';

/**
 * Where approved documents live. Two implementations: the local disk under DATA_DIR/documents (the
 * default) and an S3-compatible bucket (DOCUMENT_STORAGE=s3), so several instances share one store.
 * Every reader and writer of documents goes through this interface.
 */
export interface DocumentStorage {
  readonly kind: 'local' | 's3';
  /** Streams a document in under a new random key; it appears under that key only once complete. */
  put(source: Readable, extension: string): Promise<StoredFile>;
  /** The document's bytes as a stream, or null when it is not there. */
  open(key: string): Promise<Readable | null>;
  read(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /** A short-lived direct URL (presigned) when configured; null means "serve it through the app". */
  presignedUrl(key: string, download: { fileName: string; mimeType: string }): Promise<string | null>;
  /** Every stored key (backups, checks). */
  keys(): Promise<string[]>;
  /** Removes what an interrupted upload left behind. */
  cleanPartials(): Promise<void>;
  close(): void;
}

export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
}

const KEY_PATTERN = /^[a-f0-9]{32}\.(pdf|png|jpg|webp)$/;

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function assertKey(key: string): void {
  if (!isStorageKey(key)) throw new Error('invalid storage key');
}

export function newStorageKey(extension: string): string {
  return `${randomBytes(16).toString('hex')}.${extension}`;
}

/** Counts and hashes what flows through, for the StoredFile record. */
export function measuring(): { through: PassThrough; result: () => { size: number; sha256: string } } {
  const hash = createHash('sha256');
  let size = 0;
  const through = new PassThrough();
  through.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
  });
  return { through, result: () => ({ size, sha256: hash.digest('hex') }) };
}
