import { serviceToday } from '../../shared/dates.js';
import type { Database } from '../db/client.js';
import { orderEvents, orders } from '../db/schema.js';
import { storeBuffer } from '../documents/storage.js';
import { type OrderInsert, orderValuesFromSnake } from '../orders/columns.js';
import { samplePdf } from './fixtures.js';

let counter = 0;

/** A complete, valid order in its snake_case API names; pure — nothing is written. */
export function buildOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  // The service's day, not UTC's: in the evening (service time) UTC is already tomorrow, which would make
  // every order a future one.
  const today = serviceToday();
  return {
    client_reference: `test-${process.pid}-${Date.now()}-${counter}`,
    transaction_id: `txn_${counter}`,
    merchant_name: 'Stripe',
    email: `traveller${counter}@example.com`,
    re_enter_email: `traveller${counter}@example.com`,
    processing_mode: 'Standard',
    landing_domain: 'arubaedcard.example',
    arrival_date: today,
    resident_check: 'No',
    passport_number: `X${String(10_000_000 + counter)}`,
    passport_expiration: '2031-05-01',
    last_name: `Lastname${counter}`,
    first_name: `Firstname${counter}`,
    nationality: 'United States of America',
    date_of_birth: '1985-04-12',
    sex: 'Female',
    country_of_birth: 'United States of America',
    country_of_departure: 'United States of America',
    travel_mode: 'Air',
    airline: 'JetBlue',
    flight_number: 'B6 1234',
    departure_date: today,
    vessel_name: null,
    country_of_residence: 'USA',
    zip_code: '10001',
    state: 'New York',
    city: 'New York',
    address: '1 Main Street',
    residence_number: '12',
    occupation: 'Engineer',
    purpose_of_visit: 'Vacation',
    dual_citizenship: 'No',
    phone_code: '1',
    telephone_number: '2125550100',
    prior_visits: 'No',
    place_of_stay: 'Hotel',
    name_of_place_of_stay: 'Hyatt Regency Aruba',
    other_hotel_name: null,
    local_address: 'J.E. Irausquin Blvd 85',
    house_number: '85',
    processing_date: today,
    amount: 59,
    currency: 'USD',
    ...overrides,
  };
}

/** Writes an order (with its `created` event) and returns the stored row. */
export async function createOrder(database: Database, overrides: Record<string, unknown> = {}) {
  const values: OrderInsert = orderValuesFromSnake(buildOrder(overrides));
  return database.db.transaction(async (tx) => {
    const [row] = await tx.insert(orders).values(values).returning();
    await tx
      .insert(orderEvents)
      .values({ orderId: row!.orderId, action: 'created', toValue: row!.processStatus });
    return row!;
  });
}

/** Writes `count` orders (each with its `created` event) in one transaction per 100; the stored rows. */
export async function createOrders(
  database: Database,
  count: number,
  overrides: Record<string, unknown> = {},
): Promise<(typeof orders.$inferSelect)[]> {
  const all: (typeof orders.$inferSelect)[] = [];
  for (let done = 0; done < count; done += 100) {
    const values = Array.from({ length: Math.min(100, count - done) }, () =>
      orderValuesFromSnake(buildOrder(overrides)),
    );
    const rows = await database.db.transaction(async (tx) => {
      const inserted = await tx.insert(orders).values(values).returning();
      inserted.sort((a, b) => a.orderId - b.orderId);
      await tx
        .insert(orderEvents)
        .values(
          inserted.map((r) => ({ orderId: r.orderId, action: 'created' as const, toValue: r.processStatus })),
        );
      return inserted;
    });
    all.push(...rows);
  }
  return all;
}

/** Gives the order a current document (an approved card, a one-page PDF), as an upload would store it. */
export async function addCurrentCard(database: Database, dataDir: string, orderId: number): Promise<void> {
  const stored = await storeBuffer(dataDir, await samplePdf('CARD', 1), 'pdf');
  await database.sql.query(
    `insert into documents (order_id, storage_key, original_name, mime_type, size_bytes, sha256, mail_service_provider)
     values ($1, $2, 'card.pdf', 'application/pdf', $3, $4, 'AWS')`,
    [orderId, stored.key, stored.size, stored.sha256],
  );
}
