import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { createBackup, restoreBackup } from './backup.js';
import { DataDirLockedError } from './client.js';

/**
 * `npm run db:backup -- --out FILE` and `npm run db:restore -- FILE`: the database (PGlite under DATA_DIR,
 * or PostgreSQL with DATABASE_URL / --database-url) and the locally stored documents, in one .tar.gz.
 */
const [mode, ...rest] = process.argv.slice(2);
const { values, positionals } = parseArgs({
  args: rest,
  allowPositionals: true,
  options: { out: { type: 'string' }, 'database-url': { type: 'string' } },
});

try {
  const config = loadConfig();
  const target = {
    config,
    databaseUrl: values['database-url'] ?? config.DATABASE_URL,
    log: (line: string) => console.log(line),
  };
  if (mode === 'backup') {
    const out = values.out ?? `edcard-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
    await createBackup(target, out);
  } else if (mode === 'restore') {
    const file = positionals[0];
    if (!file) throw new ConfigError('Usage: npm run db:restore -- FILE');
    await restoreBackup(target, file);
  } else {
    throw new ConfigError('Usage: backup-cli.ts backup --out FILE | restore FILE');
  }
} catch (err) {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err);
  process.exit(1);
}
