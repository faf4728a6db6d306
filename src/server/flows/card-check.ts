import { eq } from 'drizzle-orm';
import type { CardCheck } from '../../shared/contracts/card-check.js';
import { completionMailSuppressed } from '../../shared/order-rules.js';
import { recordAudit } from '../audit/audit.js';
import type { CardText } from '../card-check/compare.js';
import {
  currentCardCheck,
  expectationOf,
  markReleased,
  pendingChecks,
  recordCheckResult,
  recordPendingCheck,
} from '../card-check/store.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { documents, orders } from '../db/schema.js';
import { readStored } from '../documents/storage.js';
import { conflict, forbidden, notFound } from '../http/errors.js';
import { readCardInWorker } from '../pdf/build.js';
import { PdfWorkerError } from '../pdf/worker-pool.js';
import { cardGate, cardGateError } from '../orders/card-gate.js';
import { type AttachDocumentInput, attachDocument, queueApprovalMail } from './attach-document.js';
import { changeStatus } from './move-status.js';
import { recordEvents } from '../orders/events.js';
import { type CheckSettings, setOrderFlags } from '../orders/order-checks.js';
import { latestDocument, lockOrders } from '../orders/repository.js';
import { now } from '../clock.js';

/**
 * The card check as a use case (docs/product.md, "Card check"; decisions 367 and 368): every card
 * stored on an order is read on a PDF worker (text of every page, every QR code), compared with the
 * order and with the cards of other orders, and the result decides whether the card may leave.
 *
 * While a card is read: an upload waits for the reading (on a worker, never on the request thread; the
 * reading bounded by CARD_READ_TIMEOUT_MS once a worker has taken it) and answers with the result. When
 * the workers' queue is full the card is stored with its check "running": every sending path answers 409
 * "still being checked" until the background sweep (recheckPendingCards) has read it.
 */

type Ctx = { db: Db; config: Config };

/** A card whose reading runs longer than this on its worker (the wait for one not counted) is unreadable. */
const CARD_READ_TIMEOUT_MS = 20_000;

export const CHARGEBACK_NOT_COMPLETED_BY_UPLOAD =
  'This order is in ChargeBack: "Upload, mail and complete" would mail the disputing customer. Move it to Completed Orders instead (no mail is sent).';

const settingsOf = (config: Config): CheckSettings => ({
  minPassportValidityDays: config.PASSPORT_MIN_VALIDITY_DAYS,
});

/** The reading of a card; `pending` when no worker was free (the sweep reads it later). */
export async function readCardFile(
  config: Config,
  bytes: Uint8Array,
  mimeType: string,
): Promise<{ reading: CardText | null; pending: boolean }> {
  try {
    return { reading: await readCardInWorker(config, bytes, mimeType, CARD_READ_TIMEOUT_MS), pending: false };
  } catch (err) {
    if (!(err instanceof PdfWorkerError)) throw err;
    if (err.reason === 'busy') return { reading: null, pending: true };
    // Too slow or too big to read: unreadable, shown as such; it never blocks.
    return { reading: null, pending: false };
  }
}

/**
 * Records a card's check in the caller's transaction (the order locked) and sets the order's card
 * checks (card_mismatch, card_duplicate block; card_unreadable is information).
 */
async function applyCheck(
  tx: DbOrTx,
  config: Config,
  input: { orderId: number; documentId: number; sha256: string },
  read: { reading: CardText | null; pending: boolean },
): Promise<'pass' | 'mismatch' | 'unread' | 'pending'> {
  const settings = settingsOf(config);
  if (read.pending) {
    await recordPendingCheck(tx, input.orderId, input.documentId);
    return 'pending';
  }
  const [order] = await tx.select().from(orders).where(eq(orders.orderId, input.orderId));
  if (!order) throw notFound('Order not found');
  const { result, duplicateOf } = await recordCheckResult(tx, {
    ...input,
    reading: read.reading,
    expected: expectationOf(order),
  });
  await setOrderFlags(
    tx,
    input.orderId,
    {
      card_mismatch: result === 'mismatch',
      card_duplicate: duplicateOf !== null,
      card_unreadable: result === 'unread',
    },
    settings,
    now(),
  );
  return result;
}

const CHECK_WORDS = {
  pass: 'matches the order',
  mismatch: 'does not match the order',
  unread: 'could not be read',
} as const;

/**
 * A check that finished after its card was stored (government mail, the sweep) is a change of the order:
 * its event raises the version, so every open detail and list hears of it live and shows the result.
 */
async function applyLateCheck(
  tx: DbOrTx,
  config: Config,
  input: { orderId: number; documentId: number; sha256: string },
  read: { reading: CardText | null; pending: boolean },
): Promise<void> {
  const result = await applyCheck(tx, config, input, read);
  if (result === 'pending') return;
  await recordEvents(tx, [
    {
      orderId: input.orderId,
      actorId: null,
      action: 'upload',
      toValue: `Card check: the card ${CHECK_WORDS[result]}`,
    },
  ]);
}

export interface AttachCardResult {
  documentId: number;
  /** null: the card was stored but not mailed (its check blocks it or is still running). */
  mailId: number | null;
  /** When the approval mail leaves (held for the undo window), null when it leaves at once. */
  heldUntil: string | null;
  cardCheck: CardCheck | null;
}

/**
 * Stores an approved card on an order and mails it when its check allows (the upload, "Upload, mail and
 * complete", a conversation attachment used as the card). The card is stored in every case; a blocked
 * or still-running check leaves the mail unsent and the order where it was, and the caller answers 409
 * with `cardCheck` (cardRefusal).
 */
export async function attachCheckedCard(
  ctx: Ctx,
  actor: StaffIdentity,
  input: Omit<AttachDocumentInput, 'mail'> & { complete?: boolean | undefined; bytes: Uint8Array },
): Promise<AttachCardResult> {
  const { db, config } = ctx;
  const read = await readCardFile(config, input.bytes, input.file.mimeType);
  const { bytes: _bytes, complete, ...attach } = input;
  const result = await db.transaction(async (tx) => {
    const [order] = await lockOrders(tx, [input.orderId], 'Order not found');
    // Its approval notice would be the completion mail the rule forbids (src/shared/order-rules.ts).
    if (complete && completionMailSuppressed(order!.processStatus, 'Completed')) {
      throw conflict(CHARGEBACK_NOT_COMPLETED_BY_UPLOAD);
    }
    const { documentId } = await attachDocument(tx, actor, { ...attach, mail: false });
    await applyCheck(tx, config, { orderId: input.orderId, documentId, sha256: input.file.sha256 }, read);
    const gate = await cardGate(tx, input.orderId);
    if (gate.state !== 'clear') return { documentId, mailId: null, heldUntil: null };
    const mail = await queueApprovalMail(tx, actor, {
      orderId: input.orderId,
      documentId,
      email: input.email,
      provider: input.provider,
      hold: input.hold,
    });
    if (complete)
      await changeStatus(tx, actor, {
        orderId: input.orderId,
        to: 'Completed',
        notify: false,
        confirmRecent: true,
      });
    return { documentId, mailId: mail.id, heldUntil: mail.holdUntil?.toISOString() ?? null };
  });
  if (read.pending) scheduleSweep(ctx);
  return { ...result, cardCheck: await currentCardCheck(db, input.orderId) };
}

/** The 409 of an upload whose card was stored but not sent: the gate's message with the whole check. */
export async function cardRefusal(db: DbOrTx, orderId: number, cardCheck: CardCheck | null) {
  const error = cardGateError(await cardGate(db, orderId));
  const refusal = error ?? conflict('The card was stored but not sent.');
  return conflict(refusal.message, { cardCheck });
}

/**
 * Reads a card already stored on an order (a card stored by a job, e.g. from the government's mail) and
 * records its check; the sender then asks cardGate (orders/card-gate.ts) before sending it.
 * @public for the government-mail automatic send
 */
export async function checkStoredCard(ctx: Ctx, documentId: number): Promise<CardCheck | null> {
  const { db, config } = ctx;
  const [pending] = await pendingOrStored(db, documentId);
  if (!pending) throw notFound('Document not found');
  const bytes = await readStored(config, pending.storageKey);
  const read = bytes
    ? await readCardFile(config, bytes, pending.mimeType)
    : { reading: null, pending: false };
  await db.transaction(async (tx) => {
    await lockOrders(tx, [pending.orderId], 'Order not found');
    await applyLateCheck(tx, config, { orderId: pending.orderId, documentId, sha256: pending.sha256 }, read);
  });
  if (read.pending) scheduleSweep(ctx);
  return currentCardCheck(db, pending.orderId);
}

async function pendingOrStored(db: DbOrTx, documentId: number) {
  return db
    .select({
      orderId: documents.orderId,
      storageKey: documents.storageKey,
      mimeType: documents.mimeType,
      sha256: documents.sha256,
    })
    .from(documents)
    .where(eq(documents.id, documentId))
    .limit(1);
}

let sweepTimer: NodeJS.Timeout | null = null;
const SWEEP_DELAY_MS = 5_000;

/** Reads the cards stored while the workers were busy, a few seconds later. */
function scheduleSweep(ctx: Ctx): void {
  if (sweepTimer) return;
  sweepTimer = setTimeout(() => {
    sweepTimer = null;
    recheckPendingCards(ctx).catch(() => scheduleSweep(ctx));
  }, SWEEP_DELAY_MS);
  sweepTimer.unref();
}

/** The background sweep: reads every card whose check is still running. Answers how many it read. */
export async function recheckPendingCards(ctx: Ctx, limit = 20): Promise<number> {
  let done = 0;
  for (const p of await pendingChecks(ctx.db, limit)) {
    const bytes = await readStored(ctx.config, p.storageKey);
    const read = bytes
      ? await readCardFile(ctx.config, bytes, p.mimeType)
      : { reading: null, pending: false };
    if (read.pending) {
      scheduleSweep(ctx);
      break;
    }
    await ctx.db.transaction(async (tx) => {
      await lockOrders(tx, [p.orderId], 'Order not found');
      await applyLateCheck(tx, ctx.config, p, read);
    });
    done++;
  }
  return done;
}

export const NOTHING_TO_RELEASE = 'The card of this order is not blocked: there is nothing to release.';

/**
 * A Manager or Admin lets a blocked card go out, with a reason (audited; shown on the detail and in the
 * Defence Pack). The order's card_mismatch and card_duplicate checks clear; a new upload checks again.
 */
export async function releaseCard(
  ctx: Ctx,
  actor: StaffIdentity,
  input: { orderId: number; reason: string; ip: string | null },
): Promise<CardCheck | null> {
  if (actor.type !== 'Admin' && actor.type !== 'Manager')
    throw forbidden('Only a Manager or an Admin can release a card that does not match its order.');
  const settings = settingsOf(ctx.config);
  await ctx.db.transaction(async (tx) => {
    await lockOrders(tx, [input.orderId], 'Order not found');
    const doc = await latestDocument(tx, input.orderId);
    if (!doc || !(await markReleased(tx, doc.id, actor.id, input.reason))) throw conflict(NOTHING_TO_RELEASE);
    await setOrderFlags(tx, input.orderId, { card_mismatch: false, card_duplicate: false }, settings, now());
    await recordAudit(tx, {
      action: 'card-check.release',
      actorId: actor.id,
      actorEmail: actor.email,
      target: `order ${input.orderId}, document ${doc.id}`,
      to: { reason: input.reason },
      ip: input.ip,
    });
  });
  return currentCardCheck(ctx.db, input.orderId);
}

/** How often the background job looks for cards still unread (after a restart, or a busy minute). */
const SWEEP_EVERY_MS = 60_000;

/** The background job: reads every card left "running" (at start, then every minute); returns its stop. */
export async function startCardCheckSweep(
  ctx: Ctx,
  log: { error: (obj: object, msg: string) => void },
): Promise<() => Promise<void>> {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = recheckPendingCards(ctx).catch((err) => log.error({ err }, 'card check sweep failed'));
  };
  tick();
  const timer = setInterval(tick, SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
