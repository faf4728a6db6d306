import { Faker, en } from '@faker-js/faker';
import { sql } from 'drizzle-orm';
import type { OrderStatus, Role } from '../../shared/constants.js';
import { allCountries } from '../../shared/countries.js';
import { serviceToday } from '../../shared/dates.js';
import {
  ATTENTION_STATUSES,
  type CheckedOrder,
  checkLevel,
  passportOfFormat,
  runOrderChecks,
} from '../../shared/order-checks.js';
import { hashPassword } from '../auth/passwords.js';
import { type StorageTarget, storeBuffer } from '../documents/storage.js';
import type { Database } from './client.js';
import { sqlListText, sqlValueText } from './sql-lists.js';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-users.js';
import { paymentGateways, staffUsers } from './schema.js';

export const DEMO_GATEWAYS = ['Stripe', 'PayPal', 'Authorize.Net', 'Braintree', 'Checkout.com', 'Adyen'];

/** A small deterministic PRNG so that a fixed seed gives the same data set every time. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Weighted<T> = [T, number][];
function weightedPicker<T>(rand: () => number, items: Weighted<T>) {
  const total = items.reduce((s, [, w]) => s + w, 0);
  return () => {
    let r = rand() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  };
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  const rand = mulberry32(seed);
  const now = opts.now ?? new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const todayIso = serviceToday(now);

  await seedStaffAndGateways(database);
  const { rows: staff } = await database.sql.query<{ id: number; role: Role }>(
    'select id, role from staff_users where deleted_at is null order by id',
  );
  const staffIds = staff.map((s) => s.id);

  // Pools drawn once from faker, then picked by the fast PRNG.
  const firstNames = Array.from({ length: 400 }, () => faker.person.firstName());
  const lastNames = Array.from({ length: 400 }, () => faker.person.lastName());
  const cities = Array.from({ length: 200 }, () => faker.location.city());
  const streets = Array.from({ length: 300 }, () => faker.location.streetAddress());
  const states = Array.from({ length: 50 }, () => faker.location.state());
  const jobs = Array.from({ length: 120 }, () => faker.person.jobTitle());
  const hotels = [
    'Renaissance Wind Creek Aruba',
    'Hilton Aruba Caribbean Resort',
    'Marriott Aruba Surf Club',
    'Hyatt Regency Aruba',
    'Riu Palace Antillas',
    'Bucuti & Tara Beach Resort',
    'Manchebo Beach Resort',
    'Divi Aruba All Inclusive',
  ];
  const airlines: Weighted<[string, string]> = [
    [['American Airlines', 'AA'], 5],
    [['JetBlue', 'B6'], 4],
    [['United Airlines', 'UA'], 3],
    [['Delta Air Lines', 'DL'], 3],
    [['Southwest Airlines', 'WN'], 2],
    [['KLM', 'KL'], 2],
    [['Copa Airlines', 'CM'], 1],
    [['Avianca', 'AV'], 1],
    [['WestJet', 'WS'], 1],
  ];
  const pickAirline = weightedPicker(rand, airlines);
  const countries = allCountries();
  const byAlpha3 = new Map(countries.map((c) => [c.alpha3, c.name]));
  const nationalityWeights: Weighted<string> = [
    ['USA', 40],
    ['CAN', 10],
    ['NLD', 8],
    ['COL', 6],
    ['VEN', 5],
    ['GBR', 4],
    ['DEU', 3],
    ['BRA', 3],
    ['ARG', 3],
    ['MEX', 2],
    ['FRA', 2],
    ['ESP', 2],
    ['ITA', 2],
    ['IND', 2],
    ['CHL', 1],
    ['PER', 1],
    ['DOM', 1],
    ['IRL', 1],
    ['CHE', 1],
    ['BEL', 1],
  ];
  const pickNationality = weightedPicker(rand, nationalityWeights);
  const dial: Record<string, string> = {
    USA: '1',
    CAN: '1',
    NLD: '31',
    COL: '57',
    VEN: '58',
    GBR: '44',
    DEU: '49',
    BRA: '55',
    ARG: '54',
    MEX: '52',
    FRA: '33',
    ESP: '34',
    ITA: '39',
    IND: '91',
    CHL: '56',
    PER: '51',
    DOM: '1',
    IRL: '353',
    CHE: '41',
    BEL: '32',
  };
  const pickStatus = weightedPicker<OrderStatus>(rand, [
    ['New', 42],
    ['Completed', 28],
    ['Awaiting', 5],
    ['AwaitingGovt', 3],
    ['Customer Called', 3],
    ['Contact Customer', 3],
    ['Deleted', 4],
    ['Refunds', 4],
    ['Refunded', 3],
    ['ChargeBack', 2],
  ]);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const int = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  const domains = ['arubaedcard.example', 'aruba-card.example'];

  const batchSize = 5000;
  const startedAt = Date.now();
  let pending: Promise<void> = Promise.resolve();
  for (let offset = 0; offset < opts.orders; offset += batchSize) {
    const rows: Record<string, unknown>[] = [];
    for (let i = offset; i < Math.min(opts.orders, offset + batchSize); i++) {
      const nat = pickNationality();
      const first = pick(firstNames);
      const last = pick(lastNames);
      // Never in the future: every seeded moment lies at least a few hours before now.
      const created = Math.min(
        today - int(0, 420) * DAY + int(0, DAY / 1000 - 1) * 1000,
        now.getTime() - 6 * 3_600_000,
      );
      let status = pickStatus();
      const priority = rand() < 0.25;
      let processing = created + (priority ? 0 : int(0, 2)) * DAY;
      let assignedTo: number | null = null;
      if (status === 'New') {
        const r = rand();
        if (r < 0.18) {
          processing = today + int(1, 330) * DAY; // future order
        } else if (r < 0.33) {
          assignedTo = pick(staffIds); // pending (work in progress)
        }
        if (processing > today && r >= 0.18) processing = today;
      } else if (rand() < 0.3 && status !== 'Deleted') {
        assignedTo = pick(staffIds);
      }
      if (status === 'New' && processing < today - 30 * DAY && rand() < 0.8) status = 'Completed';
      const arrival = Math.max(processing, created) + int(2, 40) * DAY;
      const [airline, code] = pickAirline();
      // One order in 50 has a mistyped mail domain, one in 70 a re-entered address that differs: the
      // Needs attention list has work in it (chosen by position, so the random sequence is unchanged).
      const domain = pick(['gmail.com', 'yahoo.com', 'outlook.com', 'icloud.com', 'example.com']);
      const email = `${first}.${last}${i}@${i % 50 === 7 ? 'gmial.com' : domain}`
        .toLowerCase()
        .replace(/[^a-z0-9.@]/g, '');
      const byAir = rand() < 0.93;
      rows.push({
        client_reference: `seed-${seed}-${i}`,
        transaction_id: `ch_${Math.floor(rand() * 1e16).toString(36)}`,
        merchant_name: pick(['Stripe', 'PayPal', 'Authorize.Net']),
        email,
        re_enter_email: i % 70 === 11 ? `x${email}` : email,
        processing_mode: priority ? 'Priority' : 'Standard',
        process_status: status,
        landing_domain: rand() < 0.8 ? domains[0] : domains[1],
        arrival_date: isoDay(arrival),
        resident_check: 'No',
        passport_number: passportOfFormat(
          byAlpha3.get(nat) ?? nat,
          String.fromCharCode(65 + int(0, 25)),
          String(int(10000000, 99999999)),
        ),
        passport_expiration: isoDay(today + int(200, 3500) * DAY),
        last_name: last,
        first_name: first,
        nationality: byAlpha3.get(nat) ?? nat,
        date_of_birth: isoDay(today - int(18 * 365, 80 * 365) * DAY),
        sex: rand() < 0.5 ? 'Male' : 'Female',
        country_of_birth: byAlpha3.get(nat) ?? nat,
        country_of_departure: byAlpha3.get(nat) ?? nat,
        travel_mode: byAir ? 'Air' : 'Sea',
        airline: byAir ? airline : null,
        flight_number: byAir ? `${code} ${int(100, 2999)}` : null,
        departure_date: isoDay(arrival + int(3, 14) * DAY),
        vessel_name: byAir ? null : pick(['Carnival Horizon', 'Allure of the Seas', 'Norwegian Escape']),
        country_of_residence: nat,
        zip_code: String(int(10000, 99999)),
        state: pick(states),
        city: pick(cities),
        address: pick(streets),
        residence_number: String(int(1, 999)),
        occupation: pick(jobs),
        purpose_of_visit: pick(['Vacation', 'Vacation', 'Vacation', 'Business', 'Family visit', 'Honeymoon']),
        dual_citizenship: rand() < 0.05 ? 'Yes' : 'No',
        phone_code: dial[nat] ?? '1',
        telephone_number: String(int(2000000000, 9899999999)),
        prior_visits: rand() < 0.4 ? 'Yes' : 'No',
        place_of_stay: pick(['Hotel', 'Hotel', 'Hotel', 'Rental', 'Family']),
        name_of_place_of_stay: pick(hotels),
        other_hotel_name: null,
        local_address: 'J.E. Irausquin Blvd',
        house_number: String(int(1, 400)),
        assigned_to: assignedTo,
        processing_date: isoDay(processing),
        refund_date: status === 'Refunded' ? new Date(processing + int(1, 20) * DAY).toISOString() : null,
        amount: priority ? '89.00' : '59.00',
        currency: 'USD',
        created_at: new Date(created).toISOString(),
        updated_at: new Date(created).toISOString(),
      });
      const row = rows[rows.length - 1]!;
      const checks = runOrderChecks(row as CheckedOrder, {
        today: todayIso,
        open: (ATTENTION_STATUSES as readonly string[]).includes(status),
      });
      row.checks = checks;
      row.check_level = checkLevel(checks);
    }
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
