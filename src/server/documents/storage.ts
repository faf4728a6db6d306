import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import { notFound } from '../http/errors.js';
import {
  assertKey,
  type DocumentStorage,
  isStorageKey,
  measuring,
  newStorageKey,
  type StoredFile,
} from './stored-file.js';

/** A configuration (its DOCUMENT_STORAGE decides) or a data folder (always the local disk). */
export type StorageTarget = Config | string;

/** Documents live under DATA_DIR/documents, outside any public folder, under random names. */
export function documentsDir(dataDir: string): string {
  return path.join(dataDir, 'documents');
}

export class LocalStorage implements DocumentStorage {
  readonly kind = 'local' as const;
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = documentsDir(dataDir);
  }

  private pathOf(key: string): string {
    assertKey(key);
    return path.join(this.dir, key);
  }

  /** Written to a temp name and renamed when complete: a crash never leaves half a document under a key. */
  async put(source: Readable, extension: string): Promise<StoredFile> {
    await mkdir(path.join(this.dir, '.partial'), { recursive: true });
    const key = newStorageKey(extension);
    const partial = path.join(this.dir, '.partial', key);
    const meter = measuring();
    try {
      await pipeline(source, meter.through, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await rename(partial, path.join(this.dir, key));
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    return { key, ...meter.result() };
  }

  async open(key: string): Promise<Readable | null> {
    return (await this.exists(key)) ? createReadStream(this.pathOf(key)) : null;
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch {
      return false;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async presignedUrl(): Promise<string | null> {
    return null;
  }

  async keys(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter(isStorageKey);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  async cleanPartials(): Promise<void> {
    await rm(path.join(this.dir, '.partial'), { recursive: true, force: true });
  }

  close(): void {}
}

const byConfig = new WeakMap<Config, DocumentStorage>();
const byDir = new Map<string, LocalStorage>();

/** The storage of a configuration (one instance per configuration) or the local disk of a data folder. */
export function documentStorage(target: StorageTarget): DocumentStorage {
  if (typeof target === 'string') {
    const known = byDir.get(target);
    if (known) return known;
    const local = new LocalStorage(target);
    byDir.set(target, local);
    return local;
  }
  let storage = byConfig.get(target);
  if (!storage) {
    storage =
      target.DOCUMENT_STORAGE === 's3' ? new S3StorageProxy(target) : new LocalStorage(target.DATA_DIR);
    byConfig.set(target, storage);
  }
  return storage;
}

/**
 * Loads the S3 implementation (and the AWS SDK) on first use, so installs on the local disk never
 * pay for it at start-up.
 */
class S3StorageProxy implements DocumentStorage {
  readonly kind = 's3' as const;
  private loaded: Promise<DocumentStorage> | null = null;
  constructor(private readonly config: Config) {}
  private impl(): Promise<DocumentStorage> {
    this.loaded ??= import('./s3-storage.js').then(({ S3Storage }) => new S3Storage(this.config));
    return this.loaded;
  }
  async put(source: Readable, extension: string) {
    return (await this.impl()).put(source, extension);
  }
  async open(key: string) {
    return (await this.impl()).open(key);
  }
  async read(key: string) {
    return (await this.impl()).read(key);
  }
  async exists(key: string) {
    return (await this.impl()).exists(key);
  }
  async remove(key: string) {
    return (await this.impl()).remove(key);
  }
  async presignedUrl(key: string, download: { fileName: string; mimeType: string }) {
    return (await this.impl()).presignedUrl(key, download);
  }
  async keys() {
    return (await this.impl()).keys();
  }
  async cleanPartials() {
    return (await this.impl()).cleanPartials();
  }
  close(): void {
    void this.loaded?.then((s) => s.close());
  }
}

/** Closes the storage of a configuration (the S3 client's sockets); a later call opens a new one. */
export function closeDocumentStorage(config: Config): void {
  byConfig.get(config)?.close();
  byConfig.delete(config);
}

export function storeStream(target: StorageTarget, source: Readable, extension: string): Promise<StoredFile> {
  return documentStorage(target).put(source, extension);
}

export function storeBuffer(target: StorageTarget, data: Buffer, extension: string): Promise<StoredFile> {
  return storeStream(target, Readable.from([data]), extension);
}

/** The document as a stream for a reply; 404 when it vanished since it was looked up. */
export async function openStored(target: StorageTarget, key: string): Promise<Readable> {
  const stream = await documentStorage(target).open(key);
  if (!stream) throw notFound('Document not found');
  return stream;
}

/** The bytes of a stored document, or null when it is gone. */
export function readStored(target: StorageTarget, key: string): Promise<Buffer | null> {
  return documentStorage(target).read(key);
}

export function storedExists(target: StorageTarget, key: string): Promise<boolean> {
  return documentStorage(target).exists(key);
}

export function removeStored(target: StorageTarget, key: string): Promise<void> {
  return documentStorage(target).remove(key);
}

/** A presigned download URL when S3_PRESIGNED_DOWNLOADS is on; null: stream it through the app. */
export function presignedDownloadUrl(
  target: StorageTarget,
  key: string,
  download: { fileName: string; mimeType: string },
): Promise<string | null> {
  return documentStorage(target).presignedUrl(key, download);
}

export function cleanPartials(target: StorageTarget): Promise<void> {
  return documentStorage(target).cleanPartials();
}
