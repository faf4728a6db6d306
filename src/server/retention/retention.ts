import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import PgBoss from 'pg-boss';
import type { OrderEventAction } from '../../shared/constants.js';
import {
  DEFAULT_RETENTION_DAYS,
  ERASED_FIELDS,
  type ErasureResult,
  type RetentionSettings,
  retentionSettings,
} from '../../shared/contracts/retention.js';
import { recordAudit } from '../audit/audit.js';
import type { Config } from '../config.js';
import type { Database, DbOrTx } from '../db/client.js';
import { appSettings, documents, orderEvents } from '../db/schema.js';
import { removeStored } from '../documents/storage.js';
import { conflict } from '../http/errors.js';
import { bossDb } from '../mail/queue.js';
import { recordEvents } from '../orders/events.js';
import { lockOrders } from '../orders/repository.js';

const KEY = 'retention';
export const ERASE_ACTION = 'erase' satisfies OrderEventAction;
const JOB = 'retention-erase';

export async function getRetentionSettings(db: DbOrTx): Promise<RetentionSettings> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, KEY));
  const parsed = retentionSettings.safeParse(row?.value);
  return parsed.success ? parsed.data : { days: DEFAULT_RETENTION_DAYS };
}

export async function saveRetentionSettings(db: DbOrTx, value: RetentionSettings, by: number): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: KEY, value, updatedBy: by, updatedAt: new Date() })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: by, updatedAt: new Date() } });
}

export const ERASURE_TEXT = `Personal data erased: ${ERASED_FIELDS.join(', ')}`;

/**
 * Erases the personal data of one order in one transaction with its order event and audit row: passport,
 * birth date, contact and address fields go, names become initials; status history and money facts stay.
 * Document rows stay (sizes, hashes, mail history refer to them) under a neutral name; their files are
 * deleted after the commit. Refused (409) for an order under chargeback or one already erased.
 */
export async function eraseOrder(
  db: Database['db'],
  config: Config,
  orderId: number,
  by: { actorId: number | null; actorEmail: string | null; reason: string; ip?: string | null },
): Promise<ErasureResult> {
  const { result, keys } = await db.transaction(async (tx) => {
    const order = (await lockOrders(tx, [orderId], 'Order not found'))[0]!;
    if (order.processStatus === 'ChargeBack') {
      throw conflict('This order is under chargeback: its data is kept until the chargeback is closed.');
    }
    const [done] = await tx
      .select({ at: orderEvents.createdAt })
      .from(orderEvents)
      .where(sql`${orderEvents.orderId} = ${orderId} and ${orderEvents.action} = ${ERASE_ACTION}`)
      .limit(1);
    if (done)
      throw conflict(`The personal data of this order was already erased on ${done.at.toISOString()}.`);
    await tx.execute(sql`
      update orders set
        passport_number = null, passport_expiration = null, date_of_birth = null,
        first_name = case when first_name = '' then '' else upper(left(first_name, 1)) || '.' end,
        last_name = case when last_name = '' then '' else upper(left(last_name, 1)) || '.' end,
        email = ${`erased-${orderId}@erased.invalid`}, re_enter_email = null,
        phone_code = null, telephone_number = null,
        address = null, residence_number = null, zip_code = null, city = null, state = null,
        local_address = null, house_number = null, occupation = null,
        flight_number = null, vessel_name = null,
        updated_at = now()
      where order_id = ${orderId}`);
    // Copies of the personal data elsewhere in the order's records: upload file names, mail addresses,
    // download addresses and devices (the IP keeps its network, enough for statistics).
    const erasedEmail = `erased-${orderId}@erased.invalid`;
    await tx.execute(
      sql`update order_events set to_value = 'erased' where order_id = ${orderId} and action = 'upload'`,
    );
    const { rows: sent } = await tx.execute<{ to_email: string }>(
      sql`select distinct to_email from mail_log where order_id = ${orderId}`,
    );
    const addresses = new Set([order.email, order.reEnterEmail, ...sent.map((r) => r.to_email)]);
    for (const address of addresses) {
      if (!address) continue;
      await tx.execute(sql`
        update order_events set to_value = replace(to_value, ${address}, ${erasedEmail}),
                                from_value = replace(from_value, ${address}, ${erasedEmail})
         where order_id = ${orderId} and (to_value like '%' || ${address} || '%' or from_value like '%' || ${address} || '%')`);
    }
    await tx.execute(
      sql`update mail_log set to_email = ${erasedEmail}, template_values = null where order_id = ${orderId}`,
    );
    await tx.execute(sql`
      update download_log set user_agent = null,
        ip = case when ip like '%.%' then regexp_replace(ip, '\.\d+$', '.0') else regexp_replace(ip, '(:[0-9a-fA-F]*){1,4}$', '::') end
      where order_id = ${orderId}`);
    const docs = await tx
      .update(documents)
      .set({ originalName: sql`'erased.' || split_part(${documents.storageKey}, '.', 2)` })
      .where(eq(documents.orderId, orderId))
      .returning({ key: documents.storageKey });
    await recordEvents(tx, [
      {
        orderId,
        actorId: by.actorId,
        action: ERASE_ACTION,
        toValue: `${ERASURE_TEXT}. Reason: ${by.reason}`,
      },
    ]);
    await recordAudit(tx, {
      action: 'order.erase',
      actorId: by.actorId,
      actorEmail: by.actorEmail,
      target: `order:${orderId}`,
      to: { reason: by.reason, fields: ERASED_FIELDS, documents: docs.length },
      ip: by.ip ?? null,
    });
    return {
      result: {
        orderId,
        erasedAt: new Date().toISOString(),
        fields: [...ERASED_FIELDS],
        documents: docs.length,
      },
      keys: docs.map((d) => d.key),
    };
  });
  for (const key of keys) await removeStored(config, key);
  return result;
}

/** Orders due for erasure under the policy: travel ended more than N days ago, not under chargeback. */
export async function dueForErasure(database: Database, days: number, limit = 500): Promise<number[]> {
  const { rows } = await database.sql.query<{ order_id: string | number }>(
    `select o.order_id from orders o
      where coalesce(o.departure_date, o.arrival_date) < (now() at time zone 'America/New_York')::date - $1::int
        and o.process_status <> 'ChargeBack'
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
        if ((err as { statusCode?: number }).statusCode !== 409) throw err;
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
