import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { CardCheck } from '../../shared/contracts/card-check.js';
import type { DbOrTx } from '../db/client.js';
import { cardChecks, documents, staffUsers } from '../db/schema.js';
import { type CardExpectation, type CardText, compareCard } from './compare.js';

/** The order's values a card is compared with. */
export function expectationOf(order: {
  lastName: string;
  firstName: string;
  passportNumber: string | null;
  dateOfBirth: string | null;
  arrivalDate: string | null;
  flightNumber: string | null;
}): CardExpectation {
  const orNull = (v: string | null) => (v?.trim() ? v.trim() : null);
  return {
    surname: orNull(order.lastName),
    given_names: orNull(order.firstName),
    passport_number: orNull(order.passportNumber),
    date_of_birth: orNull(order.dateOfBirth),
    arrival_date: orNull(order.arrivalDate),
    flight_number: orNull(order.flightNumber),
    // The government's reference is not an order field yet: reported, never compared.
    reference: null,
  };
}

/** Another order holding a (not withdrawn) card with the same bytes; the lowest order id. */
export async function duplicateCardOf(db: DbOrTx, orderId: number, sha256: string): Promise<number | null> {
  const [row] = await db
    .select({ orderId: documents.orderId })
    .from(documents)
    .where(and(eq(documents.sha256, sha256), ne(documents.orderId, orderId), isNull(documents.withdrawnAt)))
    .orderBy(documents.orderId)
    .limit(1);
  return row?.orderId ?? null;
}

/** A card stored but not read yet (the workers were busy): the gate holds it as "running". */
export async function recordPendingCheck(db: DbOrTx, orderId: number, documentId: number): Promise<void> {
  await db.insert(cardChecks).values({ documentId, orderId }).onConflictDoNothing();
}

/**
 * Writes the result of a card's check (one row per document; a re-run replaces it and clears a
 * release, which belonged to the earlier result). Answers the result for the order's flags.
 */
export async function recordCheckResult(
  db: DbOrTx,
  input: {
    orderId: number;
    documentId: number;
    sha256: string;
    reading: CardText | null;
    expected: CardExpectation;
  },
) {
  const { result, fields } = compareCard(input.reading, input.expected);
  const duplicateOf = await duplicateCardOf(db, input.orderId, input.sha256);
  const values = {
    orderId: input.orderId,
    result,
    fields,
    qr: (input.reading?.qr ?? []).map((q) => q.slice(0, 2000)).slice(0, 10),
    duplicateOf,
    checkedAt: sql`now()`,
    releasedAt: null,
    releasedBy: null,
    releaseReason: null,
  };
  await db
    .insert(cardChecks)
    .values({ documentId: input.documentId, ...values })
    .onConflictDoUpdate({ target: cardChecks.documentId, set: values });
  return { result, fields, duplicateOf };
}

/** The order's current card (latest, not withdrawn) and its check, as the API answers it; null without a card. */
export async function currentCardCheck(db: DbOrTx, orderId: number): Promise<CardCheck | null> {
  const [row] = await db
    .select({
      documentId: documents.id,
      check: cardChecks,
      releasedByName: staffUsers.name,
    })
    .from(documents)
    .leftJoin(cardChecks, eq(cardChecks.documentId, documents.id))
    .leftJoin(staffUsers, eq(staffUsers.id, cardChecks.releasedBy))
    .where(and(eq(documents.orderId, orderId), isNull(documents.withdrawnAt)))
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(1);
  if (!row) return null;
  const c = row.check;
  const flagged = !!c && (c.result === 'mismatch' || c.duplicateOf !== null);
  return {
    documentId: row.documentId,
    checkedAt: c?.checkedAt?.toISOString() ?? null,
    result: c?.result ?? null,
    fields: c?.fields ?? [],
    duplicateOf: c?.duplicateOf ?? null,
    qr: c?.qr ?? [],
    blocked: flagged && !c?.releasedAt,
    running: !!c && c.result === null,
    release:
      c?.releasedAt && c.releaseReason
        ? { by: row.releasedByName ?? null, at: c.releasedAt.toISOString(), reason: c.releaseReason }
        : null,
  };
}

/** Marks the current card's check released; false when there is nothing blocked to release. */
export async function markReleased(
  db: DbOrTx,
  documentId: number,
  actorId: number,
  reason: string,
): Promise<boolean> {
  const rows = await db
    .update(cardChecks)
    .set({ releasedAt: sql`now()`, releasedBy: actorId, releaseReason: reason })
    .where(
      and(
        eq(cardChecks.documentId, documentId),
        isNull(cardChecks.releasedAt),
        sql`(${cardChecks.result} = 'mismatch' or ${cardChecks.duplicateOf} is not null)`,
      ),
    )
    .returning({ id: cardChecks.documentId });
  return rows.length > 0;
}

/** Checks whose card was stored but not read yet (oldest first). */
export async function pendingChecks(db: DbOrTx, limit: number) {
  return db
    .select({
      documentId: cardChecks.documentId,
      orderId: cardChecks.orderId,
      storageKey: documents.storageKey,
      mimeType: documents.mimeType,
      sha256: documents.sha256,
    })
    .from(cardChecks)
    .innerJoin(documents, eq(documents.id, cardChecks.documentId))
    .where(isNull(cardChecks.result))
    .orderBy(cardChecks.createdAt)
    .limit(limit);
}
