import type { FastifyInstance } from 'fastify';
import PgBoss from 'pg-boss';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { sqlValueText } from '../db/sql-lists.js';
import { httpErrorOf } from '../http/errors.js';
import { bossDb } from '../mail/queue.js';
import { ERASE_ACTION, getRetentionSettings } from '../retention/settings.js';
import { eraseOrder } from './erase-order.js';

const JOB = 'retention-erase';

/** The daily erasure of orders whose travel ended more than the retention setting's days ago. */

/** Orders due for erasure under the policy: travel ended more than N days ago, not under chargeback. */
export async function dueForErasure(database: Database, days: number, limit = 500): Promise<number[]> {
  const { rows } = await database.sql.query<{ order_id: string | number }>(
    `select o.order_id from orders o
      where coalesce(o.departure_date, o.arrival_date) < (now() at time zone 'America/New_York')::date - $1::int
        and o.process_status <> ${sqlValueText('ChargeBack')}
        and not exists (select 1 from order_events e where e.order_id = o.order_id and e.action = $2)
      order by o.order_id limit $3`,
    [days, ERASE_ACTION, limit],
  );
  return rows.map((r) => Number(r.order_id));
}

/** One run of the policy: erases every order due (in batches); answers how many. */
export async function runRetention(database: Database, config: Config): Promise<number> {
  const { days } = await getRetentionSettings(database.db);
  let erased = 0;
  for (;;) {
    const ids = await dueForErasure(database, days);
    if (ids.length === 0) return erased;
    let progressed = false;
    for (const id of ids) {
      try {
        await eraseOrder(database.db, config, id, {
          actorId: null,
          actorEmail: null,
          reason: `retention policy: travel ended more than ${days} days ago`,
        });
        erased += 1;
        progressed = true;
      } catch (err) {
        // Moved to chargeback or erased by hand meanwhile: the next run looks again.
        if (httpErrorOf(err)?.statusCode !== 409) throw err;
      }
    }
    if (!progressed) return erased;
  }
}

/** The daily run through pg-boss (one instance runs it, whatever the number of instances). */
export async function retentionJob(app: FastifyInstance): Promise<() => Promise<void>> {
  const { database, config } = app.ctx;
  const boss = new PgBoss({ db: bossDb(database) as never, schema: 'pgboss', migrate: true });
  boss.on('error', (err) => app.log.error({ err }, 'retention job queue error'));
  await boss.start();
  await boss.createQueue(JOB, { name: JOB, retryLimit: 2, expireInSeconds: 3600 });
  await boss.schedule(JOB, '30 3 * * *', {}, { tz: 'America/New_York' });
  await boss.work(JOB, async () => {
    const n = await runRetention(database, config);
    app.log.info({ erased: n }, 'retention policy run');
  });
  return () => boss.stop({ graceful: true, wait: true });
}
