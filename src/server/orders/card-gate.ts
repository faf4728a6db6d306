import { and, desc, eq, isNull } from 'drizzle-orm';
import type { CardFieldResult } from '../../shared/contracts/card-check.js';
import type { DbOrTx } from '../db/client.js';
import { cardChecks, documents } from '../db/schema.js';
import { type OrderRefusal, refuseConflict } from './refusal.js';

/**
 * The card gate (docs/product.md, "Card check"): the current card of an order may leave (mailed, or the
 * order completed with it) unless its check found a mismatch or the same file on another order, and
 * no Manager or Admin released it. A card still being read holds the card back too ("running"): the
 * sender tries again in a few seconds (decision 368). Every sending path asks this, in its transaction.
 */
export type CardGate =
  | { state: 'clear' }
  | { state: 'running'; documentId: number }
  | {
      state: 'blocked';
      documentId: number;
      orderId: number;
      fields: CardFieldResult[];
      duplicateOf: number | null;
    };

/** The gate of the order's current (latest, not withdrawn) card; clear without a card or a check. */
export async function cardGate(db: DbOrTx, orderId: number): Promise<CardGate> {
  const [row] = await db
    .select({
      documentId: documents.id,
      result: cardChecks.result,
      fields: cardChecks.fields,
      duplicateOf: cardChecks.duplicateOf,
      releasedAt: cardChecks.releasedAt,
      checked: cardChecks.documentId,
    })
    .from(documents)
    .leftJoin(cardChecks, eq(cardChecks.documentId, documents.id))
    .where(and(eq(documents.orderId, orderId), isNull(documents.withdrawnAt)))
    .orderBy(desc(documents.createdAt), desc(documents.id))
    .limit(1);
  if (!row || row.checked === null) return { state: 'clear' };
  if (row.result === null) return { state: 'running', documentId: row.documentId };
  if (row.releasedAt) return { state: 'clear' };
  if (row.result === 'mismatch' || row.duplicateOf !== null) {
    return {
      state: 'blocked',
      documentId: row.documentId,
      orderId,
      fields: row.fields ?? [],
      duplicateOf: row.duplicateOf,
    };
  }
  return { state: 'clear' };
}

export const CARD_CHECK_RUNNING_MESSAGE =
  'The card is still being checked against the order. Try again in a few seconds.';

const FIELD_NAMES: Record<string, string> = {
  surname: 'surname',
  given_names: 'given names',
  passport_number: 'passport number',
  date_of_birth: 'date of birth',
  arrival_date: 'arrival date',
  flight_number: 'flight number',
  reference: 'reference',
};

/** The refusal of a blocked card, naming each differing field with both values. */
export function cardBlockedMessage(gate: Extract<CardGate, { state: 'blocked' }>): string {
  const parts = gate.fields
    .filter((f) => f.status === 'mismatch')
    .map((f) => `${FIELD_NAMES[f.field] ?? f.field}: the card says "${f.found}", the order "${f.expected}"`);
  if (gate.duplicateOf !== null) parts.push(`the same file is the card of order ${gate.duplicateOf}`);
  return `The card does not match order ${gate.orderId} (${parts.join('; ')}). It was not sent. A Manager or Admin can release it with a reason.`;
}

/** The refusal (a conflict) of a card that may not leave, or null when it may; `cardCheck` carries the gate. */
export function cardGateError(gate: CardGate): OrderRefusal | null {
  if (gate.state === 'clear') return null;
  if (gate.state === 'running')
    return refuseConflict(CARD_CHECK_RUNNING_MESSAGE, {
      cardCheck: { documentId: gate.documentId, running: true },
    });
  return refuseConflict(cardBlockedMessage(gate), {
    cardCheck: {
      documentId: gate.documentId,
      running: false,
      blocked: true,
      fields: gate.fields,
      duplicateOf: gate.duplicateOf,
    },
  });
}

/** Throws the gate's 409 for the first order whose card may not leave. */
export async function assertCardMayLeave(db: DbOrTx, orderIds: readonly number[]): Promise<void> {
  for (const orderId of orderIds) {
    const error = cardGateError(await cardGate(db, orderId));
    if (error) throw error;
  }
}
