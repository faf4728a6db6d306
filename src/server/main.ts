import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError, migrateDatabase, openDatabase } from './db/client.js';
import { seedDemoOnStart } from './db/seed-policy.js';
import { DEMO_PASSWORD, DEMO_USERS } from './db/seed.js';
import { cleanPartials } from './documents/storage.js';
import { backgroundJobs } from './jobs.js';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  await migrateDatabase(database);
  await cleanPartials(config.DATA_DIR);
  const seeded = await seedDemoOnStart(database, config, (l) => console.log(l));
  const app = await buildApp({ config, database });
  const stops: (() => Promise<void>)[] = [];
  for (const job of backgroundJobs) stops.push(await job(app));
  const address = await app.listen({ port: config.PORT, host: config.HOST });

  const shown = address.replace('0.0.0.0', '127.0.0.1');
  console.log(`\nED-Card is running at ${shown}  (staff: ${shown}/admin, customers: ${shown}/track-order)`);
  const demoUsersLikely =
    config.NODE_ENV !== 'production' && database.kind === 'pglite' && config.SEED_DEMO !== false;
  if (seeded || demoUsersLikely) {
    console.log(`Demo logins (password "${DEMO_PASSWORD}"):`);
    for (const u of DEMO_USERS) console.log(`  ${u.role.padEnd(12)} ${u.email}`);
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      for (const stop of stops) await stop();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error('ED-Card failed to start:', err);
  }
  process.exit(1);
});
