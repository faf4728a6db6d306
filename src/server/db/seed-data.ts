// The demo orders' data: a seeded PRNG, the pools of names, places and weights, and one drawn order row.
import { Faker, en } from '@faker-js/faker';
import type { OrderStatus } from '../../shared/constants.js';
import { allCountries } from '../../shared/countries.js';
import { serviceToday } from '../../shared/dates.js';
import {
  ATTENTION_STATUSES,
  type CheckedOrder,
  checkLevel,
  passportOfFormat,
  runOrderChecks,
} from '../../shared/order-checks.js';

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

/**
 * The drawer of demo order rows for one seed: pools are drawn once from faker, then each row (`i`, its
 * position) is picked by the fast PRNG, so a fixed seed gives the same orders every time. The rows carry
 * the columns of bulkInsertOrders (seed.ts), their checks run as intake would.
 */
export function demoOrderDrawer({
  seed,
  now,
  staffIds,
}: {
  seed: number;
  now: Date;
  staffIds: number[];
}): (i: number) => Record<string, unknown> {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  const rand = mulberry32(seed);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const todayIso = serviceToday(now);

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

  return (i) => {
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
    const row: Record<string, unknown> = {
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
    };
    const checks = runOrderChecks(row as CheckedOrder, {
      today: todayIso,
      open: (ATTENTION_STATUSES as readonly string[]).includes(status),
    });
    row.checks = checks;
    row.check_level = checkLevel(checks);
    return row;
  };
}
