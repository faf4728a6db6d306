import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAIL_KINDS,
  MAIL_STATUSES,
  ORDER_EVENT_ACTIONS,
  ORDER_STATUSES,
  PROCESSING_MODES,
  ROLES,
} from '../../shared/constants.js';
import { openTestDatabase } from '../test/app.js';
import type { Database } from './client.js';

/**
 * The database's checks of closed value lists say exactly what the shared constants say: a migration that
 * re-creates one of them with an older list (two features adding values side by side) fails here.
 */
const CHECKS: [string, readonly string[]][] = [
  ['staff_users_role_ck', ROLES],
  ['orders_process_status_ck', ORDER_STATUSES],
  ['orders_processing_mode_ck', PROCESSING_MODES],
  ['mail_log_kind_ck', MAIL_KINDS],
  ['mail_log_status_ck', MAIL_STATUSES],
  ['order_events_action_ck', ORDER_EVENT_ACTIONS],
];

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
});
afterAll(() => drop());

describe('closed value lists in the database', () => {
  it.each(CHECKS)('%s allows exactly the shared list', async (name, values) => {
    const { rows } = await database.sql.query<{ def: string }>(
      'select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1',
      [name],
    );
    expect(rows).toHaveLength(1);
    const listed = [...rows[0]!.def.matchAll(/'([^']*)'/g)].map((m) => m[1]);
    expect(new Set(listed)).toEqual(new Set(values));
  });
});
