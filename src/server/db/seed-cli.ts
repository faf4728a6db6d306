import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { migrateDatabase, openDatabase } from './client.js';
import { seedDemo } from './seed.js';
import { isEmpty } from './seed-policy.js';

/**
 * `npm run db:seed -- --orders N [--database-url URL] [--force]`: bulk-seeds N orders. The explicit way to
 * put the demo set into PostgreSQL, which `npm start` never seeds unasked (db/seed-policy.ts).
 */
const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '3000' },
    'database-url': { type: 'string' },
    seed: { type: 'string' },
    force: { type: 'boolean', default: false },
  },
});
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: values['database-url'] ?? config.DATABASE_URL,
  dataDir: config.DATA_DIR,
  statementTimeoutMs: 0,
});
await migrateDatabase(database);
if (!values.force && !(await isEmpty(database))) {
  console.error('The database already holds data; pass --force to add more orders anyway.');
  await database.close();
  process.exit(1);
}
await seedDemo(database, {
  orders: Number(values.orders),
  seed: values.seed ? Number(values.seed) : undefined,
  dataDir: config.DATA_DIR,
  log: (l) => console.log(l),
});
await database.close();
