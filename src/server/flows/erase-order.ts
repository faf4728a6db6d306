import { open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { ERASED_FIELDS, type ErasureResult } from '../../shared/contracts/retention.js';
import { recordAudit } from '../audit/audit.js';
import type { Config } from '../config.js';
import type { Database, DbOrTx } from '../db/client.js';
import { documents, orderEvents } from '../db/schema.js';
import { removeStored } from '../documents/storage.js';
import { removeFromMailbox } from '../inbound/mailbox.js';
import { conflict } from '../http/errors.js';
import { outboxDir } from '../mail/transports.js';
import { recordEvents } from '../orders/events.js';
import { ERASE_ACTION } from '../retention/settings.js';
import {
  ERASED,
  ERASURE_TEXT,
  WHOLE_TEXT_ACTIONS,
  distinctValues,
  erasedEmailOf,
  redactFreeText,
  scrubJson,
  scrubText,
} from '../retention/scrub.js';

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
    const order = (await lockOrders(tx, [orderId], 'Order not found'))[0]!;
    if (order.processStatus === 'ChargeBack') {
      throw conflict('This order is under chargeback: its data is kept until the chargeback is closed.');
    }
    const [done] = await tx
      .select({ at: orderEvents.createdAt })
      .from(orderEvents)
      .where(sql`${orderEvents.orderId} = ${orderId} and ${orderEvents.action} = ${ERASE_ACTION}`)
      .limit(1);
    if (done)
      throw conflict(`The personal data of this order was already erased on ${done.at.toISOString()}.`);
    const erasedEmail = erasedEmailOf(orderId);
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
    // The history: file names, withdrawal reasons and transaction values go; mail lines lose the address.
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
      await tx.execute(
        sql`update order_events set from_value = ${from}, to_value = ${to} where id = ${e.id}`,
      );
    }
    await tx.execute(
      sql`update mail_log set to_email = ${erasedEmail}, template_values = null,
            body_text = case when body_text is null then null else ${ERASED} end
          where order_id = ${orderId}`,
    );
    // What went out and what came back: subjects and bounce reasons keep their words, not the customer's.
    const { rows: mailTexts } = await tx.execute<{
      id: number;
      subject: string | null;
      bounce_reason: string | null;
    }>(
      sql`select id, subject, bounce_reason from mail_log where order_id = ${orderId}
           and (subject is not null or bounce_reason is not null)`,
    );
    for (const m of mailTexts) {
      const subject = m.subject === null ? null : scrubText(m.subject, own, erasedEmail);
      const bounce = m.bounce_reason === null ? null : scrubText(m.bounce_reason, own, erasedEmail);
      if (subject !== m.subject || bounce !== m.bounce_reason)
        await tx.execute(
          sql`update mail_log set subject = ${subject}, bounce_reason = ${bounce} where id = ${m.id}`,
        );
    }
    // The conversation (decision 352): every message that came in for the order (mail, track-page
    // answers, unmatched mail attached to it) keeps only when it came and how; its files go.
    const { rows: rawIds } = await tx.execute<{ message_id: string }>(
      sql`select message_id from inbound_messages where order_id = ${orderId} and source = 'mail'
           and message_id is not null`,
    );
    await eraseRawMessages(tx, orderId);
    const { rows: files } = await tx.execute<{ storage_key: string }>(sql`
      delete from inbound_attachments a using inbound_messages m
       where m.id = a.inbound_id and m.order_id = ${orderId}
      returning a.storage_key`);
    await tx.execute(sql`
      update inbound_messages set
        from_email = case when from_email is null then null else ${erasedEmail} end,
        from_name = null,
        subject = case when subject is null then null else ${ERASED} end,
        body_text = case when body_text = '' then '' else ${ERASED} end,
        quoted_text = '', refused_attachments = '[]'::jsonb, message_id = null
      where order_id = ${orderId}`);
    // A failing mark of the customer's address goes unless another order still uses that address.
    if (addresses.length)
      await tx.execute(sql`
        delete from failing_addresses f
         where f.email in (select lower(v) from json_array_elements_text(${JSON.stringify(addresses)}::json) t(v))
           and not exists (select 1 from orders o where lower(o.email) = f.email and o.order_id <> ${orderId})`);
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
    for (const table of ['mail_log', 'mail_attempts'] as const) {
      const { rows: errors } = await tx.execute<{ id: number; error: string }>(
        table === 'mail_log'
          ? sql`select id, error from mail_log where order_id = ${orderId} and error is not null`
          : sql`select a.id, a.error from mail_attempts a join mail_log m on m.id = a.mail_id
                 where m.order_id = ${orderId} and a.error is not null`,
      );
      for (const r of errors) {
        const error = scrubText(r.error, identifying, erasedEmail);
        if (error !== r.error)
          await tx.execute(sql`update ${sql.identifier(table)} set error = ${error} where id = ${r.id}`);
      }
    }
    // Downloads keep the network of the address (statistics), never the device's own string.
    await tx.execute(sql`
      update download_log set user_agent = null,
        ip = case when ip like '%.%' then regexp_replace(ip, ${'\\.\\d+$'}, '.0')
                  else regexp_replace(ip, ${'(:[0-9a-fA-F]*){1,4}$'}, '::') end
      where order_id = ${orderId}`);
    const docs = await tx
      .update(documents)
      .set({
        originalName: sql`'erased.' || split_part(${documents.storageKey}, '.', 2)`,
        withdrawReason: sql`case when ${documents.withdrawReason} is null then null else ${ERASED} end`,
      })
      .where(eq(documents.orderId, orderId))
      .returning({ key: documents.storageKey });
    // The audit log: rows about this order ('order:N', 'order N', 'order N, document M') and any row that
    // holds one of its identifying values.
    const target = `order:${orderId}`;
    if (own.length) {
      const { rows: audit } = await tx.execute<{
        id: number;
        action: string;
        target: string | null;
        from_value: unknown;
        to_value: unknown;
      }>(sql`
        select id, action, target, from_value, to_value from audit_log a
         where a.target in (${target}, ${`order ${orderId}`}) or a.target like ${`order ${orderId},%`}
            or exists (select 1 from json_array_elements_text(${JSON.stringify(identifying)}::json) v(value)
                        where strpos(lower(coalesce(a.from_value::text, '') || ' ' || coalesce(a.to_value::text, '')),
                                     lower(v.value)) > 0)`);
      for (const r of audit) {
        const about = r.target === target || r.target?.replace(/,.*$/, '') === `order ${orderId}`;
        const values = about ? own : identifying;
        // About this order, free text goes whole (a withdrawal's reason, a correction's values): it
        // may describe the customer in words no list of values can find (decision 352).
        const redact = (v: unknown) =>
          about
            ? redactFreeText(v, WHOLE_TEXT_ACTIONS.has(r.action), own, erasedEmail)
            : scrubJson(v, values, erasedEmail);
        const from = redact(r.from_value);
        const to = redact(r.to_value);
        if (
          JSON.stringify(from) === JSON.stringify(r.from_value) &&
          JSON.stringify(to) === JSON.stringify(r.to_value)
        )
          continue;
        const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
        await tx.execute(sql`update audit_log set from_value = ${json(from)}::jsonb,
                                                  to_value = ${json(to)}::jsonb where id = ${r.id}`);
      }
    }
    // The reason is the Admin's words: it may name the customer too.
    const reason = scrubText(by.reason, own, erasedEmail);
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
      keys: [
        ...docs.map((d) => d.key),
        ...files.map((f) => f.storage_key),
        ...shots.map((f) => f.storage_key),
      ],
      outbox: {
        messageIds: sent.map((r) => r.message_id).filter((m): m is string => !!m),
        addresses,
      },
      mailbox: rawIds.map((r) => r.message_id),
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
 * Deletes the raw source of every message of the order's conversation (mail matched to it and unmatched
 * mail attached to it): the message rows stay with when and how they came, the words go.
 */
async function eraseRawMessages(tx: DbOrTx, orderId: number): Promise<void> {
  await tx.execute(sql`
    delete from inbound_raw_messages r using inbound_messages m
     where m.id = r.inbound_id and m.order_id = ${orderId}`);
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
