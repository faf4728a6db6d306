import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const url = (file: string) => pathToFileURL(path.join(here, '..', file)).href;

/**
 * A process as the server runs its job queue: pg-boss over our pool, here a pool of one connection.
 * The job's handler leaves a 4 s query holding that connection, so pg-boss's un-awaited completion of
 * the job waits past the pool's 3 s connection timeout and rejects with nobody awaiting it.
 */
const script = (schema: string) => `
import PgBoss from 'pg-boss';
import { openDatabase } from '${url('db/client.ts')}';
import { bossDb } from '${url('mail/queue.ts')}';
import { guardUnhandledRejections } from '${url('health/process-faults.ts')}';
if (process.env.GUARD === '1')
  guardUnhandledRejections(() => (err, message) => console.log('LOGGED', message, String(err?.message ?? err)));
const database = await openDatabase({ databaseUrl: process.env.FAULT_DATABASE_URL, poolSize: 1 });
await database.sql.query('drop schema if exists ${schema} cascade');
const boss = new PgBoss({ db: bossDb(database), schema: '${schema}', migrate: true });
boss.on('error', () => {});
await boss.start();
await boss.createQueue('fault', { name: 'fault' });
await boss.send('fault', {});
await boss.work('fault', { pollingIntervalSeconds: 0.5 }, async () => {
  void database.sql.query('select pg_sleep(4)').catch(() => {});
});
await new Promise((resolve) => setTimeout(resolve, 9000));
console.log('ALIVE');
await boss.stop({ graceful: false, wait: false }).catch(() => {});
await database.sql.query('drop schema if exists ${schema} cascade').catch(() => {});
process.exit(0);
`;

function run(guard: boolean): Promise<{ code: number | null; out: string }> {
  const schema = `pgboss_fault_${guard ? 'g' : 'u'}_${process.pid}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(schema)], {
    env: { ...process.env, GUARD: guard ? '1' : '0', FAULT_DATABASE_URL: process.env.TEST_DATABASE_URL },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

// The pool that times out is PostgreSQL's (PGlite has one connection and no pool).
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'a rejection nobody awaits (the job queue on an exhausted pool)',
  () => {
    it('ends an unguarded process, and the server guard logs it and keeps running', async () => {
      const [unguarded, guarded] = await Promise.all([run(false), run(true)]);
      // Without the guard: Node ends the process on the pool's timeout, before the script's end.
      expect(unguarded.code).not.toBe(0);
      expect(unguarded.out).toContain('timeout exceeded when trying to connect');
      expect(unguarded.out).not.toContain('ALIVE');
      // With it (main.ts installs it first): logged, counted, alive.
      expect(guarded.out).toMatch(/LOGGED .*keeps running timeout exceeded when trying to connect/);
      expect(guarded.out).toContain('ALIVE');
      expect(guarded.code).toBe(0);
    }, 60_000);
  },
);
