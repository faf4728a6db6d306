import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_EVENT_ACTIONS } from '../../shared/constants.js';
import { openTestDatabase } from '../test/app.js';
import type { Database } from './client.js';
import { ENUM_CHECKS, listedValues, syncEnumChecks } from './enum-checks.js';

/**
 * The database's checks of closed value lists say exactly what the shared constants say (decision 338):
 * the migration step re-creates a check that a migration left with another list.
 */
let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(() => drop());

async function definition(name: string): Promise<string> {
  const { rows } = await database.sql.query<{ def: string }>(
    'select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1',
    [name],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!.def;
}

describe('closed value lists in the database', () => {
  it.each(ENUM_CHECKS.map((c) => [c.name, c.values] as const))(
    '%s allows exactly the shared list',
    async (name, values) => {
      expect(listedValues(await definition(name))).toEqual(new Set(values));
    },
  );

  it('a check re-created from an older list is brought back to the constant; a matching one is left alone', async () => {
    const older = ORDER_EVENT_ACTIONS.filter((a) => a !== 'contact')
      .map((a) => `'${a}'`)
      .join(', ');
    await database.sql.query('alter table order_events drop constraint order_events_action_ck');
    await database.sql.query(
      `alter table order_events add constraint order_events_action_ck check (action in (${older}))`,
    );
    expect(listedValues(await definition('order_events_action_ck')).has('contact')).toBe(false);
    expect(await syncEnumChecks(database.db)).toEqual(['order_events_action_ck']);
    expect(listedValues(await definition('order_events_action_ck'))).toEqual(new Set(ORDER_EVENT_ACTIONS));
    expect(await syncEnumChecks(database.db)).toEqual([]);
  });
});
