import { faker } from '@faker-js/faker';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DuplicateSubject, duplicateRule } from '../../shared/duplicates.js';
import { orders } from '../db/schema.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { findDuplicates, subjectOf } from '../orders/order-checks.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const day = (base: string, n: number) =>
  new Date(Date.parse(`${base}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * A set built to collide: few passports, e-mails, names and nationalities, written with the variations
 * the rules must see through (case, spaces, dashes, accents, one letter), trips and birth dates close.
 */
function generated(n: number): Record<string, unknown>[] {
  faker.seed(30);
  const passports = ['AB123456', 'X9988776', 'P1234567'];
  const emails = ['ana@example.com', 'bo@example.org', 'cy@example.net'];
  const names: [string, string][] = [
    ['José', 'Pérez'],
    ['Jose', 'Perez'],
    ['Jose', 'Peres'],
    ['Ana', 'Lee'],
    ['Anna', 'Lee'],
    ['Ann', 'Lea'],
  ];
  const spell = (p: string) =>
    faker.helpers.arrayElement([
      p,
      p.toLowerCase(),
      `${p.slice(0, 2)} ${p.slice(2)}`,
      `${p.slice(0, 4)}-${p.slice(4)}`,
    ]);
  return Array.from({ length: n }, () => {
    const [first, last] = faker.helpers.arrayElement(names);
    const arrival = day('2027-01-01', faker.number.int({ min: 0, max: 40 }));
    const email = faker.helpers.arrayElement(emails);
    return {
      passport_number: spell(faker.helpers.arrayElement(passports)),
      nationality: faker.helpers.arrayElement(['Aruba', 'Netherlands', 'aruba ']),
      email: faker.datatype.boolean() ? email : email.toUpperCase(),
      re_enter_email: null,
      first_name: first,
      last_name: last,
      date_of_birth: day('1980-01-01', faker.number.int({ min: 0, max: 70 })),
      arrival_date: arrival,
      departure_date: faker.datatype.boolean(0.8)
        ? day(arrival, faker.number.int({ min: -1, max: 6 }))
        : null,
    };
  });
}

describe('duplicate rules against a brute-force oracle', () => {
  it('the indexed search finds exactly the pairs that comparing every pair finds', async () => {
    const created = [];
    for (const o of generated(150)) created.push(await createOrder(t.database, o));
    const subjects: DuplicateSubject[] = created.map(subjectOf);
    let pairs = 0;
    for (const a of subjects) {
      const oracle = subjects
        .filter((b) => duplicateRule(a, b) !== null)
        .map((b) => b.order_id)
        .sort((x, y) => x - y);
      const [row] = await t.database.db.select().from(orders).where(eq(orders.orderId, a.order_id));
      const found = (await findDuplicates(t.database.db, row!)).map((d) => d.candidate.order_id);
      expect(found, `order ${a.order_id}`).toEqual(oracle);
      pairs += oracle.length;
    }
    // The set is worth checking: both rules match many pairs, and many pairs do not match.
    expect(pairs).toBeGreaterThan(100);
    expect(pairs).toBeLessThan(150 * 149);
    const rules = new Set(subjects.flatMap((a) => subjects.map((b) => duplicateRule(a, b))));
    expect(rules).toEqual(new Set([null, 'passport', 'email']));
  });
});
