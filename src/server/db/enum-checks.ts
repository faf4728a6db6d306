import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import {
  CONTACT_CHANNELS,
  CONTACT_OUTCOMES,
  MAIL_KINDS,
  MAIL_STATUSES,
  ORDER_EVENT_ACTIONS,
  ORDER_STATUSES,
  PROCESSING_MODES,
  ROLES,
} from '../../shared/constants.js';
import { STORED_REFUND_REASONS } from '../../shared/refund-reasons.js';
import type * as schema from './schema.js';
import { sqlListText } from './sql-lists.js';

/** A database check that a column holds one of a shared list of values (schema.ts declares the same). */
interface EnumCheck {
  name: string;
  table: string;
  column: string;
  values: readonly string[];
}

/** Every check of a closed value list, with the shared constant it follows. */
export const ENUM_CHECKS: readonly EnumCheck[] = [
  { name: 'staff_users_role_ck', table: 'staff_users', column: 'role', values: ROLES },
  { name: 'orders_process_status_ck', table: 'orders', column: 'process_status', values: ORDER_STATUSES },
  { name: 'orders_processing_mode_ck', table: 'orders', column: 'processing_mode', values: PROCESSING_MODES },
  { name: 'mail_log_kind_ck', table: 'mail_log', column: 'kind', values: MAIL_KINDS },
  { name: 'mail_log_status_ck', table: 'mail_log', column: 'status', values: MAIL_STATUSES },
  { name: 'order_events_action_ck', table: 'order_events', column: 'action', values: ORDER_EVENT_ACTIONS },
  { name: 'order_contacts_channel_ck', table: 'order_contacts', column: 'channel', values: CONTACT_CHANNELS },
  {
    name: 'orders_refund_reason_ck',
    table: 'orders',
    column: 'refund_reason',
    values: STORED_REFUND_REASONS,
  },
  { name: 'order_contacts_outcome_ck', table: 'order_contacts', column: 'outcome', values: CONTACT_OUTCOMES },
];

/** The values a check's definition (pg_get_constraintdef) allows. */
export function listedValues(definition: string): Set<string> {
  return new Set([...definition.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'")));
}

const sameValues = (a: Set<string>, b: readonly string[]) =>
  a.size === new Set(b).size && b.every((v) => a.has(v));

/** Serialises the re-creation between instances that migrate at the same time. */
const LOCK_KEY = 58_338;

/**
 * Makes every check of ENUM_CHECKS allow exactly its shared list (decision 338), after the migrations:
 * a value added to a constant needs no hand-written migration. A check that already matches is left
 * alone; one that differs is re-created in one transaction (a value still in use but gone from the list
 * makes that fail, as a migration would). Answers the names of the checks it re-created.
 */
export async function syncEnumChecks(db: NodePgDatabase<typeof schema>): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
    await tx.execute(sql`set local statement_timeout = 0`);
    const { rows } = await tx.execute<{ name: string; def: string }>(
      sql`select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where contype = 'c'`,
    );
    const current = new Map(rows.map((r) => [r.name, r.def]));
    const changed: string[] = [];
    for (const check of ENUM_CHECKS) {
      const def = current.get(check.name);
      if (def !== undefined && sameValues(listedValues(def), check.values)) continue;
      const table = sql.identifier(check.table);
      const name = sql.identifier(check.name);
      await tx.execute(sql`alter table ${table} drop constraint if exists ${name}`);
      await tx.execute(
        sql`alter table ${table} add constraint ${name} check (${sql.identifier(check.column)} in (${sql.raw(sqlListText(check.values))}))`,
      );
      changed.push(check.name);
    }
    return changed;
  });
}
