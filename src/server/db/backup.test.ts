import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { type Config, loadConfig } from '../config.js';
import { documentsDir, storeBuffer } from '../documents/storage.js';
import { queueMail } from '../mail/outbox.js';
import { createOrder } from '../test/factories.js';
import { withDatabase } from '../test/global-setup.js';
import { createBackup, restoreBackup } from './backup.js';
import { type Database, migrateDatabase, openDatabase } from './client.js';
import { documents, orderEvents } from './schema.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(prefix: string) {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}
const configFor = (dataDir: string): Config =>
  loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent' });

/** Everything the backup must bring back: orders, events, documents (rows and bytes), mail log. */
async function snapshot(database: Database, config: Config) {
  const q = async (sql: string) => (await database.sql.query(sql)).rows;
  const files = existsSync(documentsDir(config.DATA_DIR))
    ? readdirSync(documentsDir(config.DATA_DIR))
        .filter((f) => !f.startsWith('.'))
        .sort()
        .map((f) => [
          f,
          createHash('sha256')
            .update(readFileSync(path.join(documentsDir(config.DATA_DIR), f)))
            .digest('hex'),
        ])
    : [];
  return {
    orders: await q('select * from orders order by order_id'),
    events: await q('select * from order_events order by id'),
    documents: await q('select * from documents order by id'),
    mail: await q('select * from mail_log order by id'),
    files,
  };
}

/** Data worth restoring: orders with events, a stored document with its row, a queued mail. */
async function fill(database: Database, config: Config) {
  const order = await createOrder(database, { first_name: 'Original' });
  await createOrder(database);
  const stored = await storeBuffer(config.DATA_DIR, randomBytes(50_000), 'pdf');
  await database.db.insert(documents).values({
    orderId: order.orderId,
    storageKey: stored.key,
    originalName: 'card.pdf',
    mimeType: 'application/pdf',
    sizeBytes: stored.size,
    sha256: stored.sha256,
    mailServiceProvider: 'AWS',
  });
  await queueMail(database.db, {
    orderId: order.orderId,
    kind: 'refund',
    toEmail: 'a@example.com',
    provider: 'AWS',
    requestedBy: null,
  });
  return order.orderId;
}

/** Changes every compared table and the files after the backup. */
async function change(database: Database, config: Config, orderId: number) {
  await database.sql.query(`update orders set first_name = 'Changed' where order_id = $1`, [orderId]);
  await database.db.insert(orderEvents).values({ orderId, action: 'remark', toValue: 'after the backup' });
  const { rows } = await database.sql.query<{ storage_key: string }>('select storage_key from documents');
  rmSync(path.join(documentsDir(config.DATA_DIR), rows[0]!.storage_key));
  const extra = await storeBuffer(config.DATA_DIR, randomBytes(10), 'png');
  await database.db.insert(documents).values({
    orderId,
    storageKey: extra.key,
    originalName: 'late.png',
    mimeType: 'image/png',
    sizeBytes: extra.size,
    sha256: extra.sha256,
    mailServiceProvider: 'AWS',
  });
  await queueMail(database.db, {
    orderId,
    kind: 'refund',
    toEmail: 'b@example.com',
    provider: 'Sendgrid',
    requestedBy: null,
  });
}

describe('backup and restore on PGlite', () => {
  it('back up, change data, restore: orders, events, documents and mail log are as they were', async () => {
    const config = configFor(tempDir('edcard-backup-pglite-'));
    // The PGlite template exists in the PGlite run; the PostgreSQL run migrates a fresh folder.
    const templateFile = inject('pgliteTemplate');
    let database = templateFile
      ? await openDatabase({
          dataDir: config.DATA_DIR,
          loadDataDir: new Blob([await readFile(templateFile)]),
        })
      : await openDatabase({ dataDir: config.DATA_DIR });
    if (!templateFile) await migrateDatabase(database);
    const orderId = await fill(database, config);
    const before = await snapshot(database, config);
    await database.close();

    const out = path.join(tempDir('edcard-backup-out-'), 'backup.tar.gz');
    const manifest = await createBackup({ config }, out);
    expect(manifest).toMatchObject({ engine: 'pglite', documents: 1 });

    // A running server holds the folder: neither backup nor restore touches it then.
    database = await openDatabase({ dataDir: config.DATA_DIR });
    await expect(createBackup({ config }, `${out}.2`)).rejects.toThrow(/in use by another ED-Card process/);
    await expect(restoreBackup({ config }, out)).rejects.toThrow(/in use by another ED-Card process/);
    await change(database, config, orderId);
    expect(await snapshot(database, config)).not.toEqual(before);
    await database.close();

    await restoreBackup({ config }, out);
    database = await openDatabase({ dataDir: config.DATA_DIR });
    try {
      expect(await snapshot(database, config)).toEqual(before);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('refuses a PGlite backup for PostgreSQL and ignores foreign entries in the archive', async () => {
    const config = configFor(tempDir('edcard-backup-hostile-'));
    const staging = tempDir('edcard-backup-evil-');
    writeFileSync(
      path.join(staging, 'manifest.json'),
      JSON.stringify({
        format: 1,
        createdAt: '',
        engine: 'pglite',
        database: 'pglite-datadir.tar.gz',
        documents: 1,
      }),
    );
    writeFileSync(path.join(staging, 'evil.sh'), '#!/bin/sh\necho owned\n');
    const out = path.join(staging, 'evil.tar.gz');
    await tar.create({ gzip: true, file: out, cwd: staging }, ['manifest.json', 'evil.sh']);
    await expect(restoreBackup({ config, databaseUrl: 'postgres://127.0.0.1:1/x' }, out)).rejects.toThrow(
      /PGlite backup/,
    );
    expect(existsSync(path.join(config.DATA_DIR, 'evil.sh'))).toBe(false);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'backup and restore on PostgreSQL (pg_dump / pg_restore)',
  () => {
    it('back up, change data, restore: orders, events, documents and mail log are as they were', async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const name = `edcard_b_${randomBytes(5).toString('hex')}`;
      await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
      const url = withDatabase(process.env.TEST_DATABASE_URL!, name);
      const config = configFor(tempDir('edcard-backup-pg-'));
      try {
        let database = await openDatabase({ databaseUrl: url, poolSize: 2 });
        const orderId = await fill(database, config);
        const before = await snapshot(database, config);
        const out = path.join(tempDir('edcard-backup-out-'), 'backup.tar.gz');
        expect(await createBackup({ config, databaseUrl: url }, out)).toMatchObject({
          engine: 'postgres',
          documents: 1,
        });
        await change(database, config, orderId);
        await database.close();

        await restoreBackup({ config, databaseUrl: url }, out);
        database = await openDatabase({ databaseUrl: url, poolSize: 2 });
        try {
          expect(await snapshot(database, config)).toEqual(before);
        } finally {
          await database.close();
        }
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }, 120_000);
  },
);
