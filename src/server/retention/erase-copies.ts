// The copies of an erased order's personal data outside its own rows (flows/erase-order.ts): sent mail,
// the conversation, delivery errors, downloads, documents and the audit log.
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { documents } from '../db/schema.js';
import { ERASED, WHOLE_TEXT_ACTIONS, redactFreeText, scrubJson, scrubText } from './scrub.js';

/** What an erasure looks for, worked out once from the order and the rows about it. */
export interface Erasure {
  orderId: number;
  /** The placeholder address the order keeps. */
  erasedEmail: string;
  /** The customer's mail addresses. */
  addresses: string[];
  /** Values that name this customer, looked for in other people's records (the audit log). */
  identifying: string[];
  /** The identifying values plus single names and file names, looked for in the rows about this order. */
  own: string[];
}

/** The mails sent: address, stored values and text go; subjects and bounce reasons lose the customer's words. */
export async function eraseSentMail(tx: DbOrTx, { orderId, erasedEmail, own }: Erasure): Promise<void> {
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
}

/**
 * The conversation (decision 352): every message that came in for the order (mail, track-page answers,
 * unmatched mail attached to it) keeps only when it came and how; its files go. Returns the storage keys of
 * those files and the message ids of the raw mails, to delete after the commit.
 */
export async function eraseConversation(
  tx: DbOrTx,
  { orderId, erasedEmail, addresses }: Erasure,
): Promise<{ files: string[]; rawIds: string[] }> {
  const { rows: rawIds } = await tx.execute<{ message_id: string }>(
    sql`select message_id from inbound_messages where order_id = ${orderId} and source = 'mail'
         and message_id is not null`,
  );
  // The raw source of every message of the conversation (the message rows keep when and how they came).
  await tx.execute(sql`
    delete from inbound_raw_messages r using inbound_messages m
     where m.id = r.inbound_id and m.order_id = ${orderId}`);
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
  return { files: files.map((f) => f.storage_key), rawIds: rawIds.map((r) => r.message_id) };
}

/** Delivery errors of the order's mails lose the customer's values. */
export async function eraseMailErrors(
  tx: DbOrTx,
  { orderId, erasedEmail, identifying }: Erasure,
): Promise<void> {
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
}

/** Downloads keep only the network of the address; documents keep their rows under a neutral name. */
export async function eraseDownloadsAndDocuments(
  tx: DbOrTx,
  { orderId }: Erasure,
): Promise<{ key: string }[]> {
  // Downloads keep the network of the address (statistics), never the device's own string.
  await tx.execute(sql`
    update download_log set user_agent = null,
      ip = case when ip like '%.%' then regexp_replace(ip, ${'\\.\\d+$'}, '.0')
                else regexp_replace(ip, ${'(:[0-9a-fA-F]*){1,4}$'}, '::') end
    where order_id = ${orderId}`);
  return tx
    .update(documents)
    .set({
      originalName: sql`'erased.' || split_part(${documents.storageKey}, '.', 2)`,
      withdrawReason: sql`case when ${documents.withdrawReason} is null then null else ${ERASED} end`,
    })
    .where(eq(documents.orderId, orderId))
    .returning({ key: documents.storageKey });
}

/**
 * The audit log: rows about this order ('order:N', 'order N', 'order N, document M') and any row that holds
 * one of its identifying values.
 */
export async function eraseAuditValues(
  tx: DbOrTx,
  { orderId, erasedEmail, identifying, own }: Erasure,
  target: string,
): Promise<void> {
  if (!own.length) return;
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
