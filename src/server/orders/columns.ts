import type { orders } from '../db/schema.js';

/** snake_case API name -> the Drizzle column key, for every order field. */
export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

export type OrderInsert = typeof orders.$inferInsert;

/** Turns a snake_case-named record into Drizzle insert values. */
export function orderValuesFromSnake(record: Record<string, unknown>): OrderInsert {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    values[snakeToCamel(key)] = value === undefined ? null : value;
  }
  if (typeof values.amount === 'number') values.amount = values.amount.toFixed(2);
  return values as OrderInsert;
}
