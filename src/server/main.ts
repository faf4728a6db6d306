import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError, migrateDatabase, openDatabase } from './db/client.js';
import { seedDemoOnStart } from './db/seed-policy.js';
import { DEMO_PASSWORD, DEMO_USERS } from './db/demo-users.js';
import { cleanPartials } from './documents/storage.js';
import { lifecycleOf } from './health/lifecycle.js';
import { type FaultLog, guardUnhandledRejections } from './health/process-faults.js';
import { backgroundJobs } from './jobs.js';

async function main() {
  let faultLog: FaultLog = (err, message) => console.error(message, err);
  guardUnhandledRejections(() => faultLog);
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const app = await buildApp({ config, database });
  faultLog = (err, message) => app.log.error({ err }, message);
  // Listening while migrating: health checks answer (not ready), every other request 503.
  const life = lifecycleOf(app);
  life.phase = 'migrating';
  const stops: (() => Promise<void>)[] = [];
  const drainMs = (config.SHUTDOWN_DRAIN_SECONDS ?? (config.NODE_ENV === 'production' ? 5 : 0)) * 1000;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: draining for ${drainMs / 1000} s, then shutting down`);
    const force = setTimeout(() => process.exit(1), drainMs + 10_000).unref();
    try {
      // Readiness turns false first so the load balancer stops sending; requests in flight finish.
      life.phase = 'draining';
      await new Promise((resolve) => setTimeout(resolve, drainMs));
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

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  await migrateDatabase(database);
  await cleanPartials(config);
  const seeded = await seedDemoOnStart(database, config, (l) => console.log(l), config.SEED_DEMO_ORDERS);
  for (const job of backgroundJobs) stops.push(await job(app));
  if (!stopping) life.phase = 'ready';

  const shown = address.replace('0.0.0.0', '127.0.0.1');
  console.log(`\nED-Card is running at ${shown}  (staff: ${shown}/admin, customers: ${shown}/track-order)`);
  const demoUsersLikely =
    config.NODE_ENV !== 'production' && database.kind === 'pglite' && config.SEED_DEMO !== false;
  if (seeded || demoUsersLikely) {
    console.log(`Demo logins (password "${DEMO_PASSWORD}"):`);
    for (const u of DEMO_USERS) console.log(`  ${u.role.padEnd(12)} ${u.email}`);
  }
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error('ED-Card failed to start:', err);
  }
  process.exit(1);
});
