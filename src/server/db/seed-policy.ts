import type { Config } from '../config.js';
import type { Database } from './client.js';

/** True when the database has no staff users yet (seed only an empty database). */
export async function isEmpty(database: Database): Promise<boolean> {
  const { rows } = await database.sql.query<{ n: string }>('select count(*)::text as n from staff_users');
  return rows[0]?.n === '0';
}

export interface SeedDecision {
  seed: boolean;
  reason: string;
}

/**
 * Whether `npm start` seeds the demo set into an empty database. Fail closed: only the embedded
 * database outside production is seeded unasked; PostgreSQL (a real deployment, possibly a fresh
 * production one) gets demo logins only with SEED_DEMO=1 or `npm run db:seed`.
 */
export function demoSeedDecision(
  kind: Database['kind'],
  config: Pick<Config, 'NODE_ENV' | 'SEED_DEMO'>,
): SeedDecision {
  if (config.SEED_DEMO === true) return { seed: true, reason: 'SEED_DEMO=1' };
  if (config.SEED_DEMO === false) return { seed: false, reason: 'SEED_DEMO=0' };
  if (kind === 'postgres') {
    return {
      seed: false,
      reason: 'empty PostgreSQL database: no demo data (set SEED_DEMO=1 or run `npm run db:seed` to add it)',
    };
  }
  if (config.NODE_ENV === 'production') {
    return { seed: false, reason: 'NODE_ENV=production: no demo data (set SEED_DEMO=1 to add it)' };
  }
  return { seed: true, reason: 'embedded database, first start' };
}

/** At start-up: seeds the demo set into an empty database when demoSeedDecision says so. */
export async function seedDemoOnStart(
  database: Database,
  config: Pick<Config, 'NODE_ENV' | 'SEED_DEMO' | 'DATA_DIR'>,
  log: (line: string) => void,
  orders = 3000,
): Promise<boolean> {
  if (!(await isEmpty(database))) return false;
  const decision = demoSeedDecision(database.kind, config);
  if (!decision.seed) {
    log(`Empty database, not seeded: ${decision.reason}.`);
    return false;
  }
  log(`Empty database: seeding the demo set (${decision.reason})…`);
  // Loaded only now: a server with data (or in production) never loads the seed and its data generator.
  const { seedDemo } = await import('./seed.js');
  // A whole configuration stores the sample documents where it keeps documents (local disk or S3).
  await seedDemo(database, {
    orders,
    dataDir: 'DOCUMENT_STORAGE' in config ? (config as Config) : config.DATA_DIR,
    log,
  });
  return true;
}
