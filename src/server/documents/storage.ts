import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Documents live under DATA_DIR/documents, outside any public folder, under random names (DESIGN §7). */
export function documentsDir(dataDir: string): string {
  return path.join(dataDir, 'documents');
}

const KEY_PATTERN = /^[a-f0-9]{32}\.(pdf|png|jpg|webp)$/;

export function isStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
}

/**
 * Streams a file into storage: written to a temp name and renamed when complete, so a crash never
 * leaves a half-written document under a real name.
 */
export async function storeStream(dataDir: string, source: Readable, extension: string): Promise<StoredFile> {
  const dir = documentsDir(dataDir);
  await mkdir(path.join(dir, '.partial'), { recursive: true });
  const key = `${randomBytes(16).toString('hex')}.${extension}`;
  const partial = path.join(dir, '.partial', key);
  const hash = createHash('sha256');
  let size = 0;
  source.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
  });
  try {
    await pipeline(source, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
    await rename(partial, path.join(dir, key));
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return { key, size, sha256: hash.digest('hex') };
}

export async function storeBuffer(dataDir: string, data: Buffer, extension: string): Promise<StoredFile> {
  const { Readable } = await import('node:stream');
  return storeStream(dataDir, Readable.from([data]), extension);
}

/** Absolute path of a stored document; throws for anything that is not a storage key. */
export function storedPath(dataDir: string, key: string): string {
  if (!isStorageKey(key)) throw new Error('invalid storage key');
  return path.join(documentsDir(dataDir), key);
}

export function openStored(dataDir: string, key: string): Readable {
  return createReadStream(storedPath(dataDir, key));
}

export async function storedExists(dataDir: string, key: string): Promise<boolean> {
  try {
    return (await stat(storedPath(dataDir, key))).isFile();
  } catch {
    return false;
  }
}

export async function removeStored(dataDir: string, key: string): Promise<void> {
  await rm(storedPath(dataDir, key), { force: true });
}

/** Removes uploads a crash interrupted: they never got a real name, so nothing refers to them. */
export async function cleanPartials(dataDir: string): Promise<void> {
  await rm(path.join(documentsDir(dataDir), '.partial'), { recursive: true, force: true });
}
