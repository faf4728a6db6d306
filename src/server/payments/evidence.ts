import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DefencePackDetails } from '../../shared/contracts/defence-pack.js';
import type { Config } from '../config.js';
import type { StaffIdentity } from '../context.js';
import type { Db } from '../db/client.js';
import { orders, paymentDisputes } from '../db/schema.js';
import { conflict, HttpError, notFound } from '../http/errors.js';
import { documentBytes, gatherEvidence } from '../order-detail/evidence.js';
import { recordEvents } from '../orders/events.js';
import { buildDefencePackPdf } from '../pdf/build.js';
import { loadErasure } from '../retention/erasure-record.js';
import type { EvidenceFile } from './gateway.js';
import { paymentRouteOf } from './payment-route.js';

/** The Defence Pack sent as evidence: the full case file (customer-facing facts, docs/product.md). */
export const EVIDENCE_PACK_TYPE = 2;
/** Disputes that still take evidence. */
const OPEN_FOR_EVIDENCE = ['needs_response', 'warning_needs_response'];
/** The provider's limit for all text evidence together is 20,000 characters; the log gets most of it. */
const ACCESS_LOG_MAX = 12_000;

/** The Defence Pack PDF of an order, exactly as the Defence Pack button builds it. */
export async function defencePackBytes(db: Db, config: Config, orderId: number) {
  const evidence = {
    ...(await gatherEvidence(db, config, orderId, EVIDENCE_PACK_TYPE)),
    erasure: await loadErasure(db, orderId),
  };
  const doc = await documentBytes(db, config, evidence.document?.id);
  return { evidence, doc, pdf: await buildDefencePackPdf(config, evidence, doc) };
}

/** The text evidence fields we know, by Stripe's names (nothing internal: no remarks, no staff, no ids). */
export function evidenceFields(evidence: DefencePackDetails): Record<string, string> {
  const o = evidence.order;
  const fields: Record<string, string> = {
    customer_email_address: o.email,
    customer_name: `${o.first_name} ${o.last_name}`.trim(),
    product_description:
      `Processing of the traveller's Aruba ED card (embarkation/disembarkation card) application, ` +
      `${o.processing_mode} processing, for arrival on ${o.arrival_date ?? 'the date given'}. ` +
      'The approved card is delivered by e-mail and on the order tracking page.',
    service_date: (evidence.document?.create_ts ?? o.processing_date).slice(0, 10),
  };
  const log = evidence.downloads
    .map((d) =>
      [
        `${d.create_ts.slice(0, 19).replace('T', ' ')} UTC`,
        `downloaded ${d.file_name ?? 'the approved card'}`,
        `from IP ${d.ip}`,
        [d.browser, d.os, d.device].filter(Boolean).join(', '),
        d.location ? `(${d.location})` : '',
      ]
        .filter(Boolean)
        .join(' '),
    )
    .join('\n');
  if (log) fields.access_activity_log = log.slice(0, ACCESS_LOG_MAX);
  return fields;
}

const EVIDENCE_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png']);

export interface EvidenceOutcome {
  disputeId: string;
  status: string;
  submitted: boolean;
  at: string;
}

/**
 * Sends the Defence Pack and the evidence fields to the provider for the order's open dispute:
 * `submit` false saves them as a draft there. 409 when there is no dispute waiting for evidence or no
 * integration; a provider failure is 422 (refused) or 502 (no answer), with nothing recorded.
 */
export async function submitEvidence(
  db: Db,
  config: Config,
  actor: StaffIdentity,
  orderId: number,
  submit: boolean,
): Promise<EvidenceOutcome> {
  const [order] = await db
    .select({ merchantName: orders.merchantName, transactionId: orders.transactionId })
    .from(orders)
    .where(eq(orders.orderId, orderId));
  if (!order) throw notFound('Order not found');
  const [dispute] = await db
    .select()
    .from(paymentDisputes)
    .where(and(eq(paymentDisputes.orderId, orderId), isNull(paymentDisputes.closedAt)))
    .orderBy(desc(paymentDisputes.createdAt), desc(paymentDisputes.id))
    .limit(1);
  if (!dispute) throw conflict('This order has no open dispute at the payment provider.');
  if (!OPEN_FOR_EVIDENCE.includes(dispute.status)) {
    throw conflict(`The dispute no longer takes evidence (it is ${dispute.status.replaceAll('_', ' ')}).`);
  }
  const route = paymentRouteOf(config, order);
  if (route.kind !== 'integrated') throw conflict(route.reason);

  const { evidence, doc, pdf } = await defencePackBytes(db, config, orderId);
  const files: EvidenceFile[] = [
    {
      field: 'uncategorized_file',
      data: pdf,
      name: `defence-pack-${orderId}.pdf`,
      type: 'application/pdf',
    },
  ];
  if (doc && EVIDENCE_TYPES.has(doc.mimeType)) {
    const ext = doc.mimeType === 'application/pdf' ? 'pdf' : doc.mimeType === 'image/png' ? 'png' : 'jpg';
    files.push({
      field: 'service_documentation',
      data: doc.bytes,
      name: `approved-card-${orderId}.${ext}`,
      type: doc.mimeType as EvidenceFile['type'],
    });
  }
  const answer = await route.gateway.submitEvidence({
    orderId,
    disputeId: dispute.disputeId,
    files,
    fields: evidenceFields(evidence),
    submit,
  });
  if (!answer.ok) {
    throw new HttpError(
      answer.kind === 'unreachable' ? 502 : 422,
      `${answer.message}${answer.message.endsWith('.') ? '' : '.'} The evidence was not ${submit ? 'submitted' : 'saved'}.`,
    );
  }
  const at = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(paymentDisputes)
      .set({
        evidenceFileId: answer.value.fileIds[0] ?? null,
        evidenceSavedAt: at,
        ...(submit ? { evidenceSubmittedAt: at } : {}),
        evidenceBy: actor.id,
        status: answer.value.status,
        updatedAt: sql`now()`,
      })
      .where(eq(paymentDisputes.id, dispute.id));
    await recordEvents(tx, [
      {
        orderId,
        actorId: actor.id,
        action: 'payment',
        fromValue: `dispute ${dispute.disputeId} ${dispute.status}`,
        toValue: `dispute ${dispute.disputeId} ${answer.value.status}: evidence ${submit ? 'submitted' : 'saved as a draft'}`,
      },
    ]);
  });
  return {
    disputeId: dispute.disputeId,
    status: answer.value.status,
    submitted: submit,
    at: at.toISOString(),
  };
}
