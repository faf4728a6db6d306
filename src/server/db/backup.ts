import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import type { Config } from '../config.js';
import { documentStorage, documentsDir } from '../documents/storage.js';
import { isStorageKey } from '../documents/stored-file.js';
import { type Database, openDatabase } from './client.js';

/**
 * One backup file (`.tar.gz`): manifest.json, the database (PGlite: its data-dir dump; PostgreSQL:
 * `pg_dump -Fc`) and, with local document storage, every stored document under documents/.
 */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  engine: 'pglite' | 'postgres';
  database: 'pglite-datadir.tar.gz' | 'postgres.dump';
  /** Documents in the backup; null when they live in S3 (the bucket keeps them, not the backup). */
  documents: number | null;
}

export interface BackupTarget {
  config: Config;
  /** PostgreSQL to back up / restore; unset: the PGlite database under DATA_DIR. */
  databaseUrl?: string | undefined;
  log?: (line: string) => void;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', (err) => {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      reject(
        missing
          ? new Error(
              `${command} is not installed: install the PostgreSQL client tools (e.g. postgresql-client)`,
            )
          : err,
      );
    });
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} failed (${code}): ${stderr.trim().slice(0, 2000)}`)),
    );
  });
}

async function openPgliteAt(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  return openDatabase({ dataDir, ...(loadDataDir ? { loadDataDir } : {}) });
}

/** Writes a backup to `out`. PGlite: the server must be stopped (its data folder is locked meanwhile). */
export async function createBackup({ config, databaseUrl, log = () => {} }: BackupTarget, out: string) {
  const staging = await mkdtemp(path.join(os.tmpdir(), 'edcard-backup-'));
  try {
    let database: BackupManifest['database'];
    if (databaseUrl) {
      database = 'postgres.dump';
      await run('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--file=${path.join(staging, database)}`,
        databaseUrl,
      ]);
    } else {
      database = 'pglite-datadir.tar.gz';
      const db = await openPgliteAt(config.DATA_DIR);
      try {
        const dump = await db.pglite!.dumpDataDir('gzip');
        await writeFile(path.join(staging, database), Buffer.from(await dump.arrayBuffer()));
      } finally {
        await db.close();
      }
    }
    log(`database: ${database}`);

    let documents: number | null = null;
    if (config.DOCUMENT_STORAGE === 'local') {
      const keys = await documentStorage(config).keys();
      await mkdir(path.join(staging, 'documents'));
      for (const key of keys) {
        await copyFile(path.join(documentsDir(config.DATA_DIR), key), path.join(staging, 'documents', key));
      }
      documents = keys.length;
      log(`documents: ${keys.length}`);
    } else {
      log('documents: in the S3 bucket, not in this backup (use the bucket’s versioning or replication)');
    }

    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      engine: databaseUrl ? 'postgres' : 'pglite',
      database,
      documents,
    };
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await mkdir(path.dirname(path.resolve(out)), { recursive: true });
    const entries = ['manifest.json', database, ...(documents === null ? [] : ['documents'])];
    await tar.create({ gzip: true, file: out, cwd: staging, portable: true }, entries);
    log(`written: ${out} (${(await stat(out)).size} bytes)`);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Restores a backup: the database as it was, and (local storage) exactly the documents it held. The
 * current PGlite folder and documents folder are kept beside the new ones (`*.pre-restore-<time>`).
 * Stop every server first.
 */
export async function restoreBackup({ config, databaseUrl, log = () => {} }: BackupTarget, file: string) {
  const staging = await mkdtemp(path.join(os.tmpdir(), 'edcard-restore-'));
  try {
    await tar.extract({
      file,
      cwd: staging,
      strict: true,
      // Only the expected entries, never links or paths outside.
      filter: (p, entry) => {
        const type = 'type' in entry ? entry.type : 'File';
        if (type !== 'File' && type !== 'Directory') return false;
        const clean = p.replace(/\/$/, '');
        return (
          clean === 'manifest.json' ||
          clean === 'pglite-datadir.tar.gz' ||
          clean === 'postgres.dump' ||
          clean === 'documents' ||
          (clean.startsWith('documents/') && isStorageKey(clean.slice('documents/'.length)))
        );
      },
    });
    const manifest = JSON.parse(
      await readFile(path.join(staging, 'manifest.json'), 'utf8'),
    ) as BackupManifest;
    if (manifest.format !== 1) throw new Error(`unknown backup format ${manifest.format}`);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');

    if (manifest.engine === 'postgres') {
      if (!databaseUrl)
        throw new Error('This is a PostgreSQL backup: set DATABASE_URL (or --database-url) to restore it');
      await run('pg_restore', [
        '--clean',
        '--if-exists',
        '--no-owner',
        '--no-privileges',
        '--single-transaction',
        '--exit-on-error',
        `--dbname=${databaseUrl}`,
        path.join(staging, manifest.database),
      ]);
    } else {
      if (databaseUrl)
        throw new Error('This is a PGlite backup: unset DATABASE_URL to restore it into DATA_DIR');
      // Opening the current folder takes its lock: a running server makes this fail before anything moves.
      const current = await openPgliteAt(config.DATA_DIR);
      await current.close();
      const folder = path.join(config.DATA_DIR, 'pglite');
      await rename(folder, `${folder}.pre-restore-${stamp}`);
      log(`previous database kept in ${folder}.pre-restore-${stamp}`);
      const dump = await readFile(path.join(staging, manifest.database));
      const restored = await openPgliteAt(config.DATA_DIR, new Blob([dump]));
      await restored.close();
    }
    log(`database restored (${manifest.engine}, backup of ${manifest.createdAt})`);

    if (manifest.documents !== null && config.DOCUMENT_STORAGE === 'local') {
      const dir = documentsDir(config.DATA_DIR);
      const keep = `${dir}.pre-restore-${stamp}`;
      const had = await stat(dir).then(
        () => true,
        () => false,
      );
      if (had) await rename(dir, keep);
      await mkdir(dir, { recursive: true });
      const files = await readdir(path.join(staging, 'documents')).catch(() => [] as string[]);
      for (const key of files.filter(isStorageKey)) {
        await rename(path.join(staging, 'documents', key), path.join(dir, key));
      }
      log(`documents restored: ${files.length}${had ? ` (previous ones kept in ${keep})` : ''}`);
    } else if (manifest.documents !== null) {
      log('the backup holds local documents but DOCUMENT_STORAGE is s3: copy them to the bucket by hand');
    }
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
