import { eq, sql } from 'drizzle-orm';
import type { PaymentPolicy, PaymentPolicyBody } from '../../shared/contracts/payment-risk.js';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { DbOrTx } from '../db/client.js';
import { paymentPolicy } from '../db/schema.js';
import { badRequest } from '../http/errors.js';

/** The policy before anyone changed it (decision 372): refund on a warning; bands at 0.5 % and 0.75 %. */
export const DEFAULT_PAYMENT_POLICY: PaymentPolicy = {
  autoRefundFraudWarnings: true,
  disputeWatchPercent: 0.5,
  disputeExcessivePercent: 0.75,
};

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** The payment policy now (the defaults until an Admin changes it). */
export async function readPaymentPolicy(db: DbOrTx): Promise<PaymentPolicy> {
  const [row] = await db.select().from(paymentPolicy).where(eq(paymentPolicy.id, 1));
  if (!row) return { ...DEFAULT_PAYMENT_POLICY };
  return {
    autoRefundFraudWarnings: row.autoRefundFraudWarnings,
    disputeWatchPercent: Number(row.disputeWatchPercent),
    disputeExcessivePercent: Number(row.disputeExcessivePercent),
  };
}

/** Changes the policy with its audit entry, in one transaction; the watch band stays below the excessive. */
export async function savePaymentPolicy(
  tx: DbOrTx,
  actor: StaffIdentity,
  patch: PaymentPolicyBody,
  ip: string | null,
): Promise<PaymentPolicy> {
  // One writer at a time: the row is created locked, or locked as it is read.
  await tx.insert(paymentPolicy).values({ id: 1 }).onConflictDoNothing();
  await tx.execute(sql`select 1 from payment_policy where id = 1 for update`);
  const before = await readPaymentPolicy(tx);
  const after: PaymentPolicy = {
    autoRefundFraudWarnings: patch.autoRefundFraudWarnings ?? before.autoRefundFraudWarnings,
    disputeWatchPercent: round3(patch.disputeWatchPercent ?? before.disputeWatchPercent),
    disputeExcessivePercent: round3(patch.disputeExcessivePercent ?? before.disputeExcessivePercent),
  };
  if (after.disputeWatchPercent >= after.disputeExcessivePercent) {
    throw badRequest('disputeWatchPercent: must be below disputeExcessivePercent');
  }
  await tx
    .update(paymentPolicy)
    .set({
      autoRefundFraudWarnings: after.autoRefundFraudWarnings,
      disputeWatchPercent: String(after.disputeWatchPercent),
      disputeExcessivePercent: String(after.disputeExcessivePercent),
      updatedBy: actor.id,
      updatedAt: sql`now()`,
    })
    .where(eq(paymentPolicy.id, 1));
  await recordAudit(tx, {
    action: 'payment-policy.update',
    actorId: actor.id,
    target: 'payment policy',
    from: before,
    to: after,
    ip,
  });
  return after;
}
