import { sql } from 'drizzle-orm';
import type { OrderStatus, Role } from '../../shared/constants.js';
import { hashPassword } from '../auth/passwords.js';
import { type StorageTarget, storeBuffer } from '../documents/storage.js';
import type { Database } from './client.js';
import { sqlListText, sqlValueText } from './sql-lists.js';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-users.js';
import { paymentGateways, staffUsers } from './schema.js';
import { demoOrderDrawer } from './seed-data.js';

export const DEMO_GATEWAYS = ['Stripe', 'PayPal', 'Authorize.Net', 'Braintree', 'Checkout.com', 'Adyen'];

export interface SeedOptions {
  orders: number;
  seed?: number;
  /** How many orders get a real stored document file (downloads need one). */
  documents?: number;
  /** Where the sample documents go: a configuration (its storage) or a data folder (local disk). */
  dataDir: StorageTarget;
  now?: Date;
  log?: (line: string) => void;
}

export async function seedStaffAndGateways(database: Database): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await database.db
    .insert(staffUsers)
    .values(DEMO_USERS.map((u) => ({ ...u, passwordHash })))
    .onConflictDoNothing();
  await database.db
    .insert(paymentGateways)
    .values(DEMO_GATEWAYS.map((gatewayName, i) => ({ gatewayName, isActive: i === 0 })))
    .onConflictDoNothing();
}

/**
 * Seeds the demo set: staff, gateways and `orders` realistic orders over every folder,
 * both modes and future months, with remarks, documents, mail and download history on some.
 * Orders go in with one `insert … select from json_to_recordset` per batch (fast enough for 1M).
 */
export async function seedDemo(database: Database, opts: SeedOptions): Promise<void> {
  const log = opts.log ?? (() => {});
  const seed = opts.seed ?? 20251122;
  const now = opts.now ?? new Date();

  await seedStaffAndGateways(database);
  const { rows: staff } = await database.sql.query<{ id: number; role: Role }>(
    'select id, role from staff_users where deleted_at is null order by id',
  );
  const staffIds = staff.map((s) => s.id);
  const draw = demoOrderDrawer({ seed, now, staffIds });

  const batchSize = 5000;
  const startedAt = Date.now();
  let pending: Promise<void> = Promise.resolve();
  for (let offset = 0; offset < opts.orders; offset += batchSize) {
    const rows: Record<string, unknown>[] = [];
    for (let i = offset; i < Math.min(opts.orders, offset + batchSize); i++) rows.push(draw(i));
    // The database writes one batch while the next is drawn here.
    await pending;
    pending = bulkInsertOrders(database, rows);
    if ((offset / batchSize) % 20 === 19)
      log(`  ${offset + rows.length} orders (${Date.now() - startedAt} ms)`);
  }
  await pending;
  await seedHistories(database, { seed, staffIds });
  await seedDocumentFiles(
    database,
    opts.dataDir,
    opts.documents ?? Math.min(300, Math.ceil(opts.orders / 20)),
  );
  await database.db.execute(sql`analyze`);
  log(`Seeded ${opts.orders} orders in ${Date.now() - startedAt} ms`);
}

const ORDER_COLUMNS: [string, string][] = [
  ['client_reference', 'text'],
  ['transaction_id', 'text'],
  ['merchant_name', 'text'],
  ['email', 'text'],
  ['re_enter_email', 'text'],
  ['processing_mode', 'text'],
  ['process_status', 'text'],
  ['landing_domain', 'text'],
  ['arrival_date', 'date'],
  ['resident_check', 'text'],
  ['passport_number', 'text'],
  ['passport_expiration', 'date'],
  ['last_name', 'text'],
  ['first_name', 'text'],
  ['nationality', 'text'],
  ['date_of_birth', 'date'],
  ['sex', 'text'],
  ['country_of_birth', 'text'],
  ['country_of_departure', 'text'],
  ['travel_mode', 'text'],
  ['airline', 'text'],
  ['flight_number', 'text'],
  ['departure_date', 'date'],
  ['vessel_name', 'text'],
  ['country_of_residence', 'text'],
  ['zip_code', 'text'],
  ['state', 'text'],
  ['city', 'text'],
  ['address', 'text'],
  ['residence_number', 'text'],
  ['occupation', 'text'],
  ['purpose_of_visit', 'text'],
  ['dual_citizenship', 'text'],
  ['phone_code', 'text'],
  ['telephone_number', 'text'],
  ['prior_visits', 'text'],
  ['place_of_stay', 'text'],
  ['name_of_place_of_stay', 'text'],
  ['other_hotel_name', 'text'],
  ['local_address', 'text'],
  ['house_number', 'text'],
  ['assigned_to', 'integer'],
  ['processing_date', 'date'],
  ['refund_date', 'timestamptz'],
  ['amount', 'numeric'],
  ['currency', 'text'],
  ['created_at', 'timestamptz'],
  ['updated_at', 'timestamptz'],
  ['checks', 'jsonb'],
  ['check_level', 'smallint'],
];

/** One statement per batch: rows travel as one JSON parameter (3–4× faster than Drizzle's values()). */
export async function bulkInsertOrders(database: Database, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const names = ORDER_COLUMNS.map(([n]) => n).join(', ');
  const defs = ORDER_COLUMNS.map(([n, t]) => `${n} ${t}`).join(', ');
  await database.sql.query(
    `insert into orders (${names}) select ${names} from json_to_recordset($1::json) as x(${defs})`,
    [JSON.stringify(rows)],
  );
}

/**
 * Status events, remarks, mail and download history derived in SQL from the orders just written, in one
 * transaction. Seeded history is not news: the trigger that bumps each order's version and notifies the
 * live streams (`order_events_publish`) is off inside that transaction only, which makes these inserts
 * about nine times faster (it rewrote every order once per statement); the report and insights rollups
 * still follow every row.
 */
async function seedHistories(database: Database, { seed, staffIds }: { seed: number; staffIds: number[] }) {
  await database.db.transaction(async (tx) => {
    const run = (text: string) => tx.execute(sql.raw(text));
    await run('alter table order_events disable trigger order_events_publish');
    await insertHistories(run, { seed, staffIds });
    await run('alter table order_events enable trigger order_events_publish');
  });
}

async function insertHistories(
  run: (text: string) => Promise<unknown>,
  { seed, staffIds }: { seed: number; staffIds: number[] },
) {
  const ids = `array[${staffIds.join(',')}]::int[]`;
  const pickStaff = `(${ids})[1 + (abs(hashtext(o.order_id::text || '${seed}')) % ${staffIds.length})]`;
  const NEW = sqlValueText('New');
  const refunds = sqlListText(['Refunds', 'Refunded'] satisfies OrderStatus[]);
  await run(`
    insert into order_events (order_id, actor_id, action, from_value, to_value, created_at)
    select o.order_id, null, 'created', null, ${NEW}, o.created_at from orders o`);
  await run(`
    insert into order_events (order_id, actor_id, action, from_value, to_value, created_at)
    select o.order_id, ${pickStaff}, 'status', ${NEW}, o.process_status,
           least(greatest(o.created_at, o.processing_date::timestamptz) + interval '5 hours', now() - interval '1 minute')
    from orders o where o.process_status <> ${NEW}`);
  await run(`
    insert into order_events (order_id, actor_id, action, from_value, to_value, created_at)
    select o.order_id, o.assigned_to, 'assign', null, o.assigned_to::text, least(o.created_at + interval '1 hour', now() - interval '1 minute')
    from orders o where o.assigned_to is not null`);
  await run(`
    insert into order_remarks (order_id, author_id, remark, whatsapp, telephone, status_refund, voided, chargeback, report_error, created_at)
    select o.order_id, ${pickStaff},
           (array['Customer asked about processing time.','Passport number verified against the scan.',
                  'Called the customer, no answer; left a voicemail.','Customer confirmed arrival date.',
                  'Sent WhatsApp reminder about missing details.','Refund requested by the customer.'])[1 + (o.order_id % 6)],
           case when o.order_id % 5 = 0 then 'Y' else 'N' end,
           case when o.order_id % 7 = 0 then 'Y' else 'N' end,
           case when o.process_status in (${refunds}) then 'Y' else 'N' end,
           'N',
           case when o.process_status = ${sqlValueText('ChargeBack')} then 'Y' else 'N' end,
           'N',
           least(o.created_at + interval '3 hours', now() - interval '1 minute')
    from orders o where o.order_id % 4 = 0 or o.process_status in (${refunds}, ${sqlValueText('ChargeBack')})`);
}

/** A real one-page PDF per document, so downloads and Defence Packs work on the demo set. */
async function seedDocumentFiles(database: Database, dataDir: StorageTarget, count: number) {
  if (count <= 0) return;
  const { rows } = await database.sql.query<{
    order_id: number;
    first_name: string;
    last_name: string;
    email: string;
  }>(
    `select order_id, first_name, last_name, email from orders
     where process_status in (${sqlListText(['Completed', 'Customer Called', 'ChargeBack'] satisfies OrderStatus[])})
     order by order_id limit $1`,
    [count],
  );
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const docRows: Record<string, unknown>[] = [];
  for (const order of rows) {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([595, 842]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    page.drawText('Aruba ED Card - Approved', { x: 50, y: 780, size: 22, font });
    page.drawText(`Order ${order.order_id}`, { x: 50, y: 740, size: 14, font });
    page.drawText(`${order.first_name} ${order.last_name}`, { x: 50, y: 715, size: 14, font });
    const bytes = Buffer.from(await pdf.save());
    const stored = await storeBuffer(dataDir, bytes, 'pdf');
    docRows.push({
      order_id: order.order_id,
      storage_key: stored.key,
      original_name: `ed-card-${order.order_id}.pdf`,
      size_bytes: stored.size,
      sha256: stored.sha256,
      email: order.email,
    });
  }
  await database.sql.query(
    `with d as (
       insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256, mail_service_provider, created_at)
       select x.order_id, x.storage_key, x.original_name, 'application/pdf', x.size_bytes, x.sha256, 'AWS', least(o.created_at + interval '1 day', now() - interval '1 minute')
       from json_to_recordset($1::json) as x(order_id bigint, storage_key text, original_name text, size_bytes int, sha256 text, email text)
       join orders o on o.order_id = x.order_id
       returning id, order_id, created_at)
     insert into mail_log (order_id, kind, to_email, provider, document_id, status, attempts, message_id, created_at, updated_at)
     select d.order_id, 'approval', o.email, 'AWS', d.id, 'sent', 1, '<seed-' || d.id || '@ed-card.test>', d.created_at, d.created_at
     from d join orders o on o.order_id = d.order_id`,
    [JSON.stringify(docRows)],
  );
  await database.sql.query(`
    insert into download_log (order_id, document_id, file_name, ip, user_agent, device, device_type, browser, os, location, timezone, created_at)
    select d.order_id, d.id, d.original_name,
           (array['203.0.113.7','198.51.100.23','192.0.2.44','8.8.8.8'])[1 + (d.id % 4)::int],
           'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
           'Apple iPhone', 'mobile', 'Mobile Safari-17.0', 'iOS 17.0', 'United States', 'America/New_York',
           least(d.created_at + interval '2 hours', now() - interval '1 minute')
    from documents d where d.id % 2 = 0`);
}
