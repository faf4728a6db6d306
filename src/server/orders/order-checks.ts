import { and, eq, inArray, sql } from 'drizzle-orm';
import type { OrderStatus } from '../../shared/constants.js';
import type { DuplicateCandidate, OrderCheckItem } from '../../shared/contracts/checks.js';
import { serviceToday } from '../../shared/dates.js';
import {
  type DuplicateDecision,
  type DuplicateSubject,
  duplicateRule,
  emailKey,
  matchingFields,
  nationalityKey,
} from '../../shared/duplicates.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import {
  ATTENTION_STATUSES,
  type CheckedOrder,
  type CheckFlag,
  checkLevel,
  checkMessageKey,
  normalisePassport,
  type OrderCheck,
  runOrderChecks,
} from '../../shared/order-checks.js';
import { translatorFor } from '../translator.js';
import type { DbOrTx } from '../db/client.js';
import { lastSubmissionError } from './submission-error.js';
import { sqlValue } from '../db/sql-lists.js';
import { orders } from '../db/schema.js';
import type { OrderRow } from './repository.js';

/**
 * The server side of the order checks (docs/decisions/310): runs the shared checks over a stored order
 * with its duplicate search, stores the result on the order (so the lists filter on it), and answers
 * them with their messages. The time they are run at (`now`: today's service day decides a passport's
 * validity and a past arrival) is the caller's argument: nothing here reads the clock.
 */
/** What the checks read of the configuration: PASSPORT_MIN_VALIDITY_DAYS. */
export interface CheckSettings {
  minPassportValidityDays: number;
}

/** How many candidates each indexed lookup reads at most (one traveller's orders are a handful). */
const CANDIDATE_LIMIT = 200;

/** The order's fields as the shared checks read them. */
export function checkedOrderOf(o: OrderRow): CheckedOrder {
  return {
    email: o.email,
    re_enter_email: o.reEnterEmail,
    arrival_date: o.arrivalDate,
    departure_date: o.departureDate,
    passport_number: o.passportNumber,
    passport_expiration: o.passportExpiration,
    first_name: o.firstName,
    last_name: o.lastName,
    nationality: o.nationality,
    date_of_birth: o.dateOfBirth,
    country_of_birth: o.countryOfBirth,
    country_of_departure: o.countryOfDeparture,
    country_of_residence: o.countryOfResidence,
    travel_mode: o.travelMode,
    flight_number: o.flightNumber,
    phone_code: o.phoneCode,
    telephone_number: o.telephoneNumber,
  };
}

/** What the duplicate rules compare of an order. */
export function subjectOf(o: OrderRow): DuplicateSubject {
  return {
    order_id: o.orderId,
    email: o.email,
    passport_number: o.passportNumber,
    nationality: o.nationality,
    first_name: o.firstName,
    last_name: o.lastName,
    date_of_birth: o.dateOfBirth,
    arrival_date: o.arrivalDate,
    departure_date: o.departureDate,
  };
}

type CandidateRow = DuplicateSubject & {
  process_status: OrderStatus;
  amount: string;
  currency: string;
  transaction_id: string | null;
  merchant_name: string | null;
  created_at: string;
};

/** A candidate's columns as the rules and the checks route read them (dates and amounts as text). */
const CANDIDATE_COLUMNS = sql`order_id::int as order_id, email, passport_number, nationality, first_name, last_name,
    date_of_birth::text as date_of_birth, arrival_date::text as arrival_date,
    departure_date::text as departure_date, process_status, amount::text as amount, currency,
    transaction_id, merchant_name, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at`;

type LookupShape = 'both' | 'passport' | 'email';

/**
 * The candidates' lookup of one shape (the passport key with the nationality, the lower-cased e-mail,
 * or both), as a named prepared statement: PostgreSQL plans it once per connection rather than on every
 * check, and a handle used again (the server's own) keeps the built statement (decision 432).
 */
function candidatesStatement(db: DbOrTx, shape: LookupShape) {
  const byPassport = sql`(select ${CANDIDATE_COLUMNS} from orders
      where passport_key = ${sql.placeholder('passport')}
        and coalesce(lower(btrim(nationality)), '') = ${sql.placeholder('nationality')}
        and order_id <> ${sql.placeholder('orderId')} and process_status <> ${sqlValue('Deleted')}
      limit ${CANDIDATE_LIMIT})`;
  // The e-mail rule needs both birth dates, within 30 days of each other: asked of the e-mail's rows.
  const byEmail = sql`(select ${CANDIDATE_COLUMNS} from orders
      where lower(email) = ${sql.placeholder('email')} and order_id <> ${sql.placeholder('orderId')}
        and process_status <> ${sqlValue('Deleted')}
        and date_of_birth between ${sql.placeholder('birth')}::date - 30 and ${sql.placeholder('birth')}::date + 30
      limit ${CANDIDATE_LIMIT})`;
  const lookup =
    shape === 'both' ? sql`${byPassport} union ${byEmail}` : shape === 'passport' ? byPassport : byEmail;
  const c = (column: string) => sql.raw(`c.${column}`);
  return db
    .select({
      order_id: sql<number>`${c('order_id')}`,
      email: sql<string>`${c('email')}`,
      passport_number: sql<string | null>`${c('passport_number')}`,
      nationality: sql<string | null>`${c('nationality')}`,
      first_name: sql<string>`${c('first_name')}`,
      last_name: sql<string>`${c('last_name')}`,
      date_of_birth: sql<string | null>`${c('date_of_birth')}`,
      arrival_date: sql<string | null>`${c('arrival_date')}`,
      departure_date: sql<string | null>`${c('departure_date')}`,
      process_status: sql<OrderStatus>`${c('process_status')}`,
      amount: sql<string>`${c('amount')}`,
      currency: sql<string>`${c('currency')}`,
      transaction_id: sql<string | null>`${c('transaction_id')}`,
      merchant_name: sql<string | null>`${c('merchant_name')}`,
      created_at: sql<string>`${c('created_at')}`,
    })
    .from(sql`(${lookup}) c`)
    .prepare(`order_duplicates_${shape}`);
}
type CandidatesStatement = ReturnType<typeof candidatesStatement>;
const candidateStatements = new WeakMap<DbOrTx, Partial<Record<LookupShape, CandidatesStatement>>>();

function decisionsStatement(db: DbOrTx) {
  return db
    .select({ other: sql<number>`d.other`, decision: sql<DuplicateDecision>`d.decision` })
    .from(
      sql`(select other_order_id::int as other, decision from order_duplicate_decisions
             where order_id = ${sql.placeholder('orderId')}
           union all
           select order_id::int, decision from order_duplicate_decisions
             where other_order_id = ${sql.placeholder('orderId')}) d`,
    )
    .prepare('order_duplicate_decisions');
}
const decisionStatements = new WeakMap<DbOrTx, ReturnType<typeof decisionsStatement>>();

/**
 * Orders the rules call possible duplicates of `o` (Deleted ones aside), with the staff decision on
 * each pair. Two lookups, each answered by an index: the passport key with the nationality, and the
 * lower-cased e-mail; the rules (src/shared/duplicates.ts) then keep the real matches.
 */
export async function findDuplicates(
  db: DbOrTx,
  o: OrderRow,
): Promise<{ candidate: CandidateRow; rule: 'passport' | 'email'; decision: DuplicateDecision | null }[]> {
  const subject = subjectOf(o);
  const passport = normalisePassport(o.passportNumber);
  const shape: LookupShape | null =
    passport && o.dateOfBirth ? 'both' : passport ? 'passport' : o.dateOfBirth ? 'email' : null;
  if (!shape) return [];
  const statements = candidateStatements.get(db) ?? {};
  candidateStatements.set(db, statements);
  const statement = statements[shape] ?? candidatesStatement(db, shape);
  statements[shape] = statement;
  const rows: CandidateRow[] = await statement.execute({
    orderId: o.orderId,
    ...(shape !== 'email' ? { passport, nationality: nationalityKey(o.nationality) } : {}),
    ...(shape !== 'passport' ? { email: emailKey(o.email), birth: o.dateOfBirth } : {}),
  });
  const matches = rows
    .map((candidate) => ({ candidate, rule: duplicateRule(subject, candidate) }))
    .filter((m): m is { candidate: CandidateRow; rule: 'passport' | 'email' } => m.rule !== null)
    .sort((a, b) => a.candidate.order_id - b.candidate.order_id);
  if (!matches.length) return [];
  let decisions = decisionStatements.get(db);
  if (!decisions) {
    decisions = decisionsStatement(db);
    decisionStatements.set(db, decisions);
  }
  const decided = await decisions.execute({ orderId: o.orderId });
  const byOther = new Map(decided.map((d) => [Number(d.other), d.decision]));
  return matches.map((m) => ({ ...m, decision: byOther.get(m.candidate.order_id) ?? null }));
}

/** The checks of a stored order at `now`: the shared checks, its flags, and an undecided possible duplicate. */
export async function checksOfOrder(
  db: DbOrTx,
  o: OrderRow,
  settings: CheckSettings,
  now: Date,
  duplicates?: Awaited<ReturnType<typeof findDuplicates>>,
): Promise<OrderCheck[]> {
  const checks = runOrderChecks(checkedOrderOf(o), {
    today: serviceToday(now),
    minPassportValidityDays: settings.minPassportValidityDays,
    open: (ATTENTION_STATUSES as readonly string[]).includes(o.processStatus),
    flags: o.checkFlags,
  });
  const failed = checks.find((c) => c.code === 'submission_failed');
  if (failed) failed.params = { error: await lastSubmissionError(db, o.orderId) };
  if (o.processStatus === 'AwaitingGovt' && !o.governmentReference) {
    checks.push({ code: 'government_reference_missing', severity: 'warn', fields: [], params: {} });
  }
  const found = duplicates ?? (await findDuplicates(db, o));
  const open = found.filter((d) => d.decision === null).map((d) => d.candidate.order_id);
  if (open.length) {
    checks.push({
      code: 'possible_duplicate',
      severity: 'warn',
      fields: [],
      params: { orders: open.join(', ') },
    });
  }
  return checks.sort((a, b) => checkLevel([b]) - checkLevel([a]));
}

/**
 * Runs the checks of the orders again and stores them (no event: checks follow the data, they are not
 * a change of it). With `withCandidates`, the undecided possible duplicates of each are refreshed too,
 * so both sides of a new pair show it. Call it in the transaction of the change.
 */
export async function refreshChecks(
  tx: DbOrTx,
  orderIds: readonly number[],
  settings: CheckSettings,
  now: Date,
  options: { withCandidates?: boolean } = {},
): Promise<Map<number, OrderCheck[]>> {
  const out = new Map<number, OrderCheck[]>();
  const queue = [...new Set(orderIds)];
  const cascade = new Set<number>();
  for (const id of queue) {
    const [o] = await tx.select().from(orders).where(eq(orders.orderId, id));
    if (!o) continue;
    const duplicates = await findDuplicates(tx, o);
    const checks = await checksOfOrder(tx, o, settings, now, duplicates);
    out.set(id, checks);
    await storeChecks(tx, o, checks);
    if (options.withCandidates) {
      for (const d of duplicates)
        if (!queue.includes(d.candidate.order_id)) cascade.add(d.candidate.order_id);
    }
  }
  if (cascade.size) {
    const others = await tx
      .select()
      .from(orders)
      .where(inArray(orders.orderId, [...cascade]));
    for (const o of others) await storeChecks(tx, o, await checksOfOrder(tx, o, settings, now));
  }
  return out;
}

/**
 * The checks of an order about to be inserted (intake): computed from its values, so the order is
 * written once with them. Answers the checks and the existing orders whose own checks must be run again
 * after the insert (its undecided possible duplicates).
 */
export async function checksOfNewOrder(
  tx: DbOrTx,
  values: typeof orders.$inferInsert,
  settings: CheckSettings,
  now: Date,
): Promise<{ checks: OrderCheck[]; candidates: number[] }> {
  const draft = {
    ...values,
    orderId: 0,
    processStatus: 'New',
    checkFlags: values.checkFlags ?? [],
    passportNumber: values.passportNumber ?? null,
    nationality: values.nationality ?? null,
    firstName: values.firstName ?? '',
    lastName: values.lastName ?? '',
    dateOfBirth: values.dateOfBirth ?? null,
    arrivalDate: values.arrivalDate ?? null,
    departureDate: values.departureDate ?? null,
  } as unknown as OrderRow;
  const duplicates = await findDuplicates(tx, draft);
  const checks = await checksOfOrder(tx, draft, settings, now, duplicates);
  return { checks, candidates: duplicates.map((d) => d.candidate.order_id) };
}

async function storeChecks(tx: DbOrTx, o: OrderRow, checks: OrderCheck[]): Promise<void> {
  const level = checkLevel(checks);
  if (level === o.checkLevel && JSON.stringify(checks) === JSON.stringify(o.checks)) return;
  await tx.update(orders).set({ checks, checkLevel: level }).where(eq(orders.orderId, o.orderId));
}

/** A check as the API answers it: its message in `language` (staff screens: English). */
export function checkItem(check: OrderCheck, language: CustomerLanguage = 'en'): OrderCheckItem {
  return {
    code: check.code,
    severity: check.severity,
    message: translatorFor(language).t(checkMessageKey(check.code), check.params ?? {}),
    fields: check.fields,
    ...(check.code === 'email_typo' && check.params?.suggestion
      ? { suggestion: check.params.suggestion }
      : {}),
  };
}

/** The checks route's answer: the checks of the order at `now`, and its possible duplicates side by side. */
export async function checksAnswer(
  db: DbOrTx,
  o: OrderRow,
  settings: CheckSettings,
  now: Date,
): Promise<{ checks: OrderCheckItem[]; duplicates: DuplicateCandidate[] }> {
  const duplicates = await findDuplicates(db, o);
  const checks = await checksOfOrder(db, o, settings, now, duplicates);
  const subject = subjectOf(o);
  return {
    checks: checks.map((c) => checkItem(c)),
    duplicates: duplicates
      .filter((d) => d.decision !== 'not_duplicate')
      .map(({ candidate, rule, decision }) => ({
        order_id: candidate.order_id,
        rule,
        decision,
        matching_fields: matchingFields(subject, candidate),
        process_status: candidate.process_status,
        amount: candidate.amount,
        currency: candidate.currency,
        transaction_id: candidate.transaction_id,
        merchant_name: candidate.merchant_name,
        created_at: candidate.created_at,
        email: candidate.email,
        passport_number: candidate.passport_number,
        nationality: candidate.nationality,
        first_name: candidate.first_name,
        last_name: candidate.last_name,
        date_of_birth: candidate.date_of_birth,
        arrival_date: candidate.arrival_date,
        departure_date: candidate.departure_date,
      })),
  };
}

/**
 * Raises (or clears) a flag on the order that becomes the check of the same code (CHECK_FLAGS), e.g.
 * a card network's early fraud warning; the checks are stored again in the same transaction, so the
 * order enters or leaves Needs attention with the flag.
 */
export async function setOrderFlag(
  tx: DbOrTx,
  orderId: number,
  flag: CheckFlag,
  raised: boolean,
  settings: CheckSettings,
  now: Date,
): Promise<void> {
  await setOrderFlags(tx, orderId, { [flag]: raised }, settings, now);
}

/**
 * Raises and clears several flags of the order at once (a card check sets three): one write of the
 * order, none when no flag changes (an update that changes nothing still runs the order's statement
 * triggers), and its checks stored again once. Flags already raised keep their place; newly raised ones
 * follow in the order given.
 */
export async function setOrderFlags(
  tx: DbOrTx,
  orderId: number,
  flags: Partial<Record<CheckFlag, boolean>>,
  settings: CheckSettings,
  now: Date,
): Promise<void> {
  const entries = Object.entries(flags) as [CheckFlag, boolean][];
  // Array literals (flag codes are plain words): a JS array in drizzle's sql would become a list.
  const raised = `{${entries
    .filter(([, on]) => on)
    .map(([flag]) => flag)
    .join(',')}}`;
  const cleared = `{${entries
    .filter(([, on]) => !on)
    .map(([flag]) => flag)
    .join(',')}}`;
  const next = sql`(select coalesce(array_agg(f order by n), '{}'::text[]) from (
      select f, n from unnest(check_flags) with ordinality as kept(f, n) where f <> all(${cleared}::text[])
      union all
      select f, 1000000000 + n from unnest(${raised}::text[]) with ordinality as added(f, n)
      where f <> all(check_flags)
    ) as flags)`;
  await tx
    .update(orders)
    .set({ checkFlags: next })
    .where(and(eq(orders.orderId, orderId), sql`check_flags is distinct from ${next}`));
  await refreshChecks(tx, [orderId], settings, now);
}
