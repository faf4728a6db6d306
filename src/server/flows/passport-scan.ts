import { desc, eq } from 'drizzle-orm';
import { now } from '../clock.js';
import type { PassportScan, ScanField } from '../../shared/contracts/card-check.js';
import type { CorrectOrderBody } from '../../shared/contracts/checks.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { orders, passportScans } from '../db/schema.js';
import { readStored } from '../documents/storage.js';
import { conflict, notFound, serviceUnavailable } from '../http/errors.js';
import { correctOrder } from '../orders/corrections.js';
import { setOrderFlag, setOrderFlags } from '../orders/order-checks.js';
import { lockOrders } from '../orders/repository.js';
import { passportPicturesInWorker } from '../pdf/build.js';
import { PdfWorkerError } from '../pdf/worker-pool.js';
import { compareScan } from '../passport-scan/compare.js';
import { MrzBusy, type MrzRead, MrzTimeout, readMrz } from '../passport-scan/mrz.js';

/**
 * The passport scan as a use case (docs/product.md, "Passport scan"; decision 369): a passport image
 * that reaches an order (a staff upload of a passport, a customer's reply or track-page file named as a
 * passport) is decoded on a PDF worker, its bottom band read by OCR on the OCR worker within a time
 * limit, the MRZ parsed with its check digits and compared with the order. A difference is the check
 * passport_scan_mismatch (warn); no MRZ or failing check digits is passport_scan_unreadable (info).
 */

type Ctx = { db: Db; config: Config };

/**
 * Decoding the picture on a PDF worker, counted from when a worker takes it: a scan waiting behind
 * others in the bounded queue (ten staff uploading at once) is never cut short by the wait.
 */
const DECODE_TIMEOUT_MS = 15_000;
/** OCR of the band and, when needed, of the whole picture (counted from when the OCR worker takes it). */
const OCR_TIMEOUT_MS = 20_000;
/** A scan found every queue full: a staff upload is refused (503); a customer's or intake file waits and tries again. */
const BUSY_RETRIES = 5;
const BUSY_RETRY_MS = 2_000;

export const SCAN_BUSY_MESSAGE =
  'Too many passport scans are being read right now. Please try again in a minute.';

export type ScanSource = 'staff' | 'customer' | 'intake';

/** File names that say "this is a passport" (customer files are scanned only when so named or marked). */
export const PASSPORT_NAME = /pass(?:port|eport|aporte|aport|poort)/i;

const settingsOf = (config: Config) => ({ minPassportValidityDays: config.PASSPORT_MIN_VALIDITY_DAYS });

async function readScan(
  config: Config,
  bytes: Uint8Array,
  mimeType: string,
): Promise<MrzRead | 'undecodable' | 'busy'> {
  let pictures: Awaited<ReturnType<typeof passportPicturesInWorker>>;
  try {
    pictures = await passportPicturesInWorker(config, bytes, mimeType, DECODE_TIMEOUT_MS);
  } catch (err) {
    if (!(err instanceof PdfWorkerError)) throw err;
    // A full queue says nothing about the file; too slow or too big to decode on its own does.
    return err.reason === 'busy' ? 'busy' : 'undecodable';
  }
  if (!pictures) return 'undecodable';
  try {
    return await readMrz(pictures, OCR_TIMEOUT_MS);
  } catch (err) {
    if (err instanceof MrzBusy) return 'busy';
    if (err instanceof MrzTimeout) return { ok: false, reason: 'no_mrz', lines: [] };
    throw err;
  }
}

/** The scan's reading; a full queue refuses a staff upload (503) and makes other sources wait their turn. */
async function readScanInTurn(
  config: Config,
  input: { bytes: Uint8Array; mimeType: string; source: ScanSource },
): Promise<MrzRead | 'undecodable'> {
  let read = await readScan(config, input.bytes, input.mimeType);
  for (let attempt = 1; read === 'busy' && input.source !== 'staff' && attempt <= BUSY_RETRIES; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS * attempt));
    read = await readScan(config, input.bytes, input.mimeType);
  }
  if (read === 'busy') throw serviceUnavailable(SCAN_BUSY_MESSAGE);
  return read;
}

const REASONS = {
  undecodable: 'The file could not be decoded as an image.',
  no_mrz: 'No machine-readable zone was found.',
  check_digits: 'The check digits of the machine-readable zone do not hold.',
} as const;

/** Reads a passport image for an order and records the scan with the order's checks. */
export async function scanPassport(
  ctx: Ctx,
  input: { orderId: number; bytes: Uint8Array; mimeType: string; source: ScanSource },
): Promise<PassportScan> {
  const read = await readScanInTurn(ctx.config, input);
  const settings = settingsOf(ctx.config);
  await ctx.db.transaction(async (tx) => {
    const [order] = await lockOrders(tx, [input.orderId], 'Order not found');
    const ok = read !== 'undecodable' && read.ok;
    const fields = read !== 'undecodable' && read.ok ? compareScan(read.values, order!) : [];
    await tx.insert(passportScans).values({
      orderId: input.orderId,
      source: input.source,
      status: ok ? 'read' : 'unreadable',
      reason: read === 'undecodable' ? REASONS.undecodable : read.ok ? null : REASONS[read.reason],
      fields,
    });
    await setOrderFlags(
      tx,
      input.orderId,
      { passport_scan_mismatch: fields.some((f) => f.differs), passport_scan_unreadable: !ok },
      settings,
      now(),
    );
  });
  return (await latestScan(ctx.db, input.orderId))!;
}

/**
 * The scan's comparison again after the order changed (a value taken from the scan): the differences
 * and the order's passport_scan_mismatch check follow the order's values now.
 */
export async function latestScan(db: DbOrTx, orderId: number): Promise<PassportScan | null> {
  const [row] = await db
    .select()
    .from(passportScans)
    .where(eq(passportScans.orderId, orderId))
    .orderBy(desc(passportScans.createdAt), desc(passportScans.id))
    .limit(1);
  if (!row) return null;
  const [order] = await db.select().from(orders).where(eq(orders.orderId, orderId));
  const current = new Map<string, string | null>([
    ['passport_number', order?.passportNumber ?? null],
    ['last_name', order?.lastName ?? null],
    ['first_name', order?.firstName ?? null],
    ['nationality', order?.nationality ?? null],
    ['date_of_birth', order?.dateOfBirth ?? null],
    ['passport_expiration', order?.passportExpiration ?? null],
  ]);
  return {
    id: row.id,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    reason: row.reason,
    fields: row.fields.map((f) => {
      const orderValue = current.get(f.field)?.trim() || null;
      // A value taken from the scan no longer differs.
      return orderValue === f.order
        ? f
        : { ...f, order: orderValue, differs: f.differs && orderValue !== f.scan };
    }),
  };
}

/**
 * The trigger for files an order received from its customer (a reply or the track page): those named as
 * a passport are scanned after they are stored, one after the other, off the request. Failures are
 * logged by the caller's logger and never undo the reply.
 */
export function scanCustomerFiles(
  ctx: Ctx,
  orderId: number,
  files: { key: string; name: string; mimeType: string }[],
  log: { error: (obj: object, msg: string) => void } = {
    error: (obj, msg) => console.error(msg, obj),
  },
): void {
  const passports = files.filter((f) => PASSPORT_NAME.test(f.name));
  if (!passports.length) return;
  void (async () => {
    for (const f of passports) {
      try {
        const bytes = await readStored(ctx.config, f.key);
        if (!bytes) throw notFound('File not found');
        await scanPassport(ctx, { orderId, bytes, mimeType: f.mimeType, source: 'customer' });
      } catch (err) {
        log.error({ err, orderId }, 'passport scan failed');
      }
    }
  })();
}

/**
 * The intake's trigger: the passport picture the application site sent with a new order is read after the
 * order is stored, off the request (the intake answers at once). The picture itself is not kept; the
 * scan's result is, as for every scan. Failures are logged and never undo the order.
 */
export function scanIntakePassport(
  ctx: Ctx,
  orderId: number,
  picture: { bytes: Uint8Array; mimeType: string },
  log: { error: (obj: object, msg: string) => void },
): Promise<void> {
  return scanPassport(ctx, {
    orderId,
    bytes: picture.bytes,
    mimeType: picture.mimeType,
    source: 'intake',
  }).then(
    () => undefined,
    (err) => log.error({ err, orderId }, 'passport scan at intake failed'),
  );
}

export const NOTHING_TO_TAKE = 'The passport scan has no value for this field.';

/**
 * One click on the detail: the scan's value of a field becomes the order's (a correction, with its old
 * and new value, as every correction is); when nothing differs any more the scan check clears.
 */
export async function takeScanValue(
  ctx: Ctx,
  actor: StaffIdentity,
  input: { orderId: number; field: ScanField; expectedVersion: number; ip: string | null },
): Promise<PassportScan> {
  const settings = settingsOf(ctx.config);
  await ctx.db.transaction(async (tx) => {
    await lockOrders(tx, [input.orderId], 'Order not found');
    const scan = await latestScan(tx, input.orderId);
    const value = scan?.status === 'read' ? scan.fields.find((f) => f.field === input.field)?.scan : null;
    if (!value) throw conflict(NOTHING_TO_TAKE);
    await correctOrder(
      tx,
      actor,
      input.orderId,
      { [input.field]: value, expectedVersion: input.expectedVersion } as CorrectOrderBody,
      settings,
      now(),
      input.ip,
    );
    const after = await latestScan(tx, input.orderId);
    await setOrderFlag(
      tx,
      input.orderId,
      'passport_scan_mismatch',
      !!after?.fields.some((f) => f.differs),
      settings,
      now(),
    );
  });
  return (await latestScan(ctx.db, input.orderId))!;
}
