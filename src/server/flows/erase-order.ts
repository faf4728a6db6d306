import { open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ERASED_FIELDS, type ErasureResult } from '../../shared/contracts/retention.js';
import { recordAudit } from '../audit/audit.js';
import type { Config } from '../config.js';
import type { Database, DbOrTx } from '../db/client.js';
import { orderEvents } from '../db/schema.js';
import { removeStored } from '../documents/storage.js';
import { removeFromMailbox } from '../inbound/mailbox.js';
import { conflict } from '../http/errors.js';
import { outboxDir } from '../mail/transports.js';
import { recordEvents } from '../orders/events.js';
import {
  type Erasure,
  eraseAuditValues,
  eraseConversation,
  eraseDownloadsAndDocuments,
  eraseMailErrors,
  eraseSentMail,
} from '../retention/erase-copies.js';
import { ERASE_ACTION } from '../retention/settings.js';
import { ERASED, ERASURE_TEXT, distinctValues, erasedEmailOf, scrubText } from '../retention/scrub.js';

import { lockOrders } from '../orders/repository.js';

/**
 * Erases the personal data of one order in one transaction with its order event and audit row: passport,
 * birth date, contact, address and accommodation fields and the transaction id go, names become initials;
 * status history and money facts stay. Copies elsewhere go too: remark texts, file names, reasons and
 * transaction values of the history, mail addresses and errors, the last part of download IPs and the
 * devices, and the values wherever the audit log held them (the audit row says only THAT it was erased).
 * Document rows stay (sizes, hashes, mail history refer to them) under a neutral name; their files and the
 * order's mails in the outbox folder are deleted after the commit. Refused (409) for an order under
 * chargeback or one already erased.
 */
export async function eraseOrder(
  db: Database['db'],
  config: Config,
  orderId: number,
  by: { actorId: number | null; actorEmail: string | null; reason: string; ip?: string | null },
): Promise<ErasureResult> {
  const { result, keys, outbox, mailbox } = await db.transaction(async (tx) => {
    const found = await readErasable(tx, orderId);
    const erasure = erasureOf(orderId, found);
    await eraseOrderFields(tx, erasure);
    await eraseHistory(tx, erasure);
    await eraseSentMail(tx, erasure);
    const conversation = await eraseConversation(tx, erasure);
    const shots = await eraseChecksAndAnswers(tx, erasure);
    await eraseMailErrors(tx, erasure);
    const docs = await eraseDownloadsAndDocuments(tx, erasure);
    const target = `order:${orderId}`;
    await eraseAuditValues(tx, erasure, target);
    // The reason is the Admin's words: it may name the customer too.
    const reason = scrubText(by.reason, erasure.own, erasure.erasedEmail);
    await recordEvents(tx, [
      {
        orderId,
        actorId: by.actorId,
        action: ERASE_ACTION,
        toValue: `${ERASURE_TEXT}. Reason: ${reason}`,
      },
    ]);
    await recordAudit(tx, {
      action: 'order.erase',
      actorId: by.actorId,
      actorEmail: by.actorEmail,
      target,
      to: { reason, fields: ERASED_FIELDS, documents: docs.length },
      ip: by.ip ?? null,
    });
    return {
      result: {
        orderId,
        erasedAt: new Date().toISOString(),
        fields: [...ERASED_FIELDS],
        documents: docs.length,
      },
      keys: [...docs.map((d) => d.key), ...conversation.files, ...shots],
      outbox: {
        messageIds: found.sent.map((r) => r.message_id).filter((m): m is string => !!m),
        addresses: erasure.addresses,
      },
      mailbox: conversation.rawIds,
    };
  });
  for (const key of keys) await removeStored(config, key);
  await removeOutboxMails(config, outbox);
  // The raw copies in the watched mailbox go too (the app's own went in the transaction). The
  // erasure stands if the mailbox is away; its log says so.
  if (config.INBOUND_IMAP_URL && mailbox.length)
    await removeFromMailbox(config.INBOUND_IMAP_URL, mailbox).catch((err: Error) => {
      console.warn(`erasure of order ${orderId}: raw messages left in the mailbox (${err.message})`);
    });
  return result;
}

/**
 * Locks the order and reads what names its customer elsewhere (mails sent, documents, disputes, messages
 * received); refused for an order under chargeback or one already erased.
 */
async function readErasable(tx: DbOrTx, orderId: number) {
  const order = (await lockOrders(tx, [orderId], 'Order not found'))[0]!;
  if (order.processStatus === 'ChargeBack') {
    throw conflict('This order is under chargeback: its data is kept until the chargeback is closed.');
  }
  const [done] = await tx
    .select({ at: orderEvents.createdAt })
    .from(orderEvents)
    .where(sql`${orderEvents.orderId} = ${orderId} and ${orderEvents.action} = ${ERASE_ACTION}`)
    .limit(1);
  if (done) throw conflict(`The personal data of this order was already erased on ${done.at.toISOString()}.`);
  const { rows: sent } = await tx.execute<{ to_email: string; message_id: string | null }>(
    sql`select to_email, message_id from mail_log where order_id = ${orderId}`,
  );
  const { rows: docRows } = await tx.execute<{ original_name: string; withdraw_reason: string | null }>(
    sql`select original_name, withdraw_reason from documents where order_id = ${orderId}`,
  );
  const { rows: disputes } = await tx.execute<{
    charge_id: string | null;
    payment_intent_id: string | null;
  }>(sql`select charge_id, payment_intent_id from payment_disputes where order_id = ${orderId}`);
  const { rows: received } = await tx.execute<{ from_email: string | null; from_name: string | null }>(
    sql`select from_email, from_name from inbound_messages where order_id = ${orderId}`,
  );
  return { order, sent, docRows, disputes, received };
}

/** The values the erasure looks for, from the order and the rows about it. */
function erasureOf(orderId: number, found: Awaited<ReturnType<typeof readErasable>>): Erasure {
  const { order, sent, docRows, disputes, received } = found;
  const addresses = distinctValues(
    [order.email, order.reEnterEmail, ...sent.map((r) => r.to_email), ...received.map((r) => r.from_email)],
    3,
  );
  const fullName = `${order.firstName} ${order.lastName}`.trim();
  const phone = order.telephoneNumber ?? null;
  // What is looked for in other people's records (the audit log): values that name this customer.
  const identifying = distinctValues(
    [
      ...addresses,
      fullName.includes(' ') ? fullName : null,
      order.passportNumber,
      phone && phone.length >= 5 ? phone : null,
      order.phoneCode && phone ? `${order.phoneCode}${phone}` : null,
      order.transactionId,
      order.address,
      order.localAddress,
      ...disputes.flatMap((d) => [d.charge_id, d.payment_intent_id]),
      ...received.map((r) => (r.from_name?.includes(' ') ? r.from_name : null)),
    ],
    4,
  );
  // In the rows about this order (and the Admin's reason) single names and file names go too; mail
  // lines and errors are left their template keys and hosts.
  const own = distinctValues(
    [...identifying, order.firstName, order.lastName, ...docRows.map((d) => d.original_name)],
    2,
  );
  return { orderId, erasedEmail: erasedEmailOf(orderId), addresses, identifying, own };
}

/** The order's personal fields, names to initials, and the free text staff wrote about the customer. */
async function eraseOrderFields(tx: DbOrTx, { orderId, erasedEmail }: Erasure): Promise<void> {
  await tx.execute(sql`
    update orders set
      passport_number = null, passport_expiration = null, date_of_birth = null,
      first_name = case when first_name = '' then '' else upper(left(first_name, 1)) || '.' end,
      last_name = case when last_name = '' then '' else upper(left(last_name, 1)) || '.' end,
      email = ${erasedEmail}, re_enter_email = null,
      phone_code = null, telephone_number = null,
      address = null, residence_number = null, zip_code = null, city = null, state = null,
      local_address = null, house_number = null, occupation = null,
      flight_number = null, vessel_name = null,
      name_of_place_of_stay = null, other_hotel_name = null, transaction_id = null,
      merchant_name = null, updated_at = now()
    where order_id = ${orderId}`);
  // Free text written by staff about the customer: the text goes, when and by whom stay.
  await tx.execute(sql`update order_remarks set remark = ${ERASED} where order_id = ${orderId}`);
  await tx.execute(
    sql`update order_contacts set note = ${ERASED} where order_id = ${orderId} and note <> ''`,
  );
}

/** The history: file names, withdrawal reasons and transaction values go; mail lines lose the address. */
async function eraseHistory(tx: DbOrTx, { orderId, erasedEmail, identifying, own }: Erasure): Promise<void> {
  await tx.execute(sql`
    update order_events set
      from_value = case when from_value is null then null else ${ERASED} end,
      to_value = case when to_value is null then null else ${ERASED} end
    where order_id = ${orderId} and action in ('upload', 'withdraw', 'transaction', 'correction')`);
  const { rows: events } = await tx.execute<{
    id: number;
    action: string;
    from_value: string | null;
    to_value: string | null;
  }>(
    sql`select id, action, from_value, to_value from order_events where order_id = ${orderId}
         and action in ('mail', 'customer_download', 'customer_reply', 'bounce', 'payment', 'contact', 'duplicate')`,
  );
  for (const e of events) {
    // What came from outside (answers, reports, provider events) may carry any of the order's words.
    const values = e.action === 'mail' || e.action === 'customer_download' ? identifying : own;
    const from = e.from_value === null ? null : scrubText(e.from_value, values, erasedEmail);
    const to = e.to_value === null ? null : scrubText(e.to_value, values, erasedEmail);
    if (from === e.from_value && to === e.to_value) continue;
    await tx.execute(sql`update order_events set from_value = ${from}, to_value = ${to} where id = ${e.id}`);
  }
}

/**
 * Disputes, checks, scans, submissions and the customer's own words keep their outcome, not the values.
 * Returns the storage keys of the screenshots deleted.
 */
async function eraseChecksAndAnswers(tx: DbOrTx, { orderId }: Erasure): Promise<string[]> {
  // A closed dispute keeps its amounts and dates, not the payment's references.
  await tx.execute(
    sql`update payment_disputes set charge_id = null, payment_intent_id = null where order_id = ${orderId}`,
  );
  // The card check and the passport scan keep their outcome, not the values read or expected; the
  // customer's words (a cancellation's reason, a rating's comment) go whole.
  await tx.execute(sql`update card_checks set fields = '[]'::jsonb, qr = '[]'::jsonb,
                         release_reason = case when release_reason is null then null else ${ERASED} end
                        where order_id = ${orderId}`);
  await tx.execute(sql`update passport_scans set fields = '[]'::jsonb,
                         reason = case when reason is null then null else ${ERASED} end
                        where order_id = ${orderId}`);
  // A machine's screenshot of a failed submission shows the traveller's data: it goes, with the error.
  const { rows: shots } = await tx.execute<{ storage_key: string }>(
    sql`delete from order_files where order_id = ${orderId} returning storage_key`,
  );
  await tx.execute(
    sql`update submission_jobs set error = ${ERASED} where order_id = ${orderId} and error is not null`,
  );
  // The check submission_failed carries that error in its stored message values.
  await tx.execute(sql`
    update orders set checks = (
      select coalesce(jsonb_agg(case when c->>'code' = 'submission_failed'
                                     then jsonb_set(c, '{params}', jsonb_build_object('error', ${ERASED}::text))
                                     else c end), '[]'::jsonb)
        from jsonb_array_elements(checks) c)
    where order_id = ${orderId} and checks @> '[{"code": "submission_failed"}]'::jsonb`);
  await tx.execute(sql`update customer_cancellations set reason = ${ERASED} where order_id = ${orderId}`);
  await tx.execute(sql`update order_ratings set comment = '' where order_id = ${orderId}`);
  return shots.map((f) => f.storage_key);
}

/**
 * Deletes the order's mails from the outbox folder (where mail goes when no SMTP server is set): each
 * .eml whose headers carry one of its message ids or addresses. Only the headers are read.
 */
async function removeOutboxMails(
  config: Config,
  mails: { messageIds: string[]; addresses: string[] },
): Promise<void> {
  const dir = outboxDir(config.DATA_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const needles = [...mails.messageIds, ...mails.addresses].map((v) => v.toLowerCase());
  if (!needles.length) return;
  for (const name of names) {
    if (!name.endsWith('.eml')) continue;
    const file = path.join(dir, name);
    const handle = await open(file, 'r').catch(() => null);
    if (!handle) continue;
    let head: string;
    try {
      const buffer = Buffer.alloc(HEADER_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
    const end = head.search(/\r?\n\r?\n/);
    const headers = (end === -1 ? head : head.slice(0, end)).toLowerCase();
    if (needles.some((n) => headers.includes(n))) await rm(file, { force: true });
  }
}
const HEADER_BYTES = 16 * 1024;
