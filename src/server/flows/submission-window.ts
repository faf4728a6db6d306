import type { SubmissionPolicy } from '../../shared/contracts/submission.js';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { Db } from '../db/client.js';
import { applySubmissionWindow } from '../orders/submission-window.js';
import { getSubmissionPolicy, saveSubmissionPolicy } from '../submission/policy.js';

/**
 * A change of the submission policy (docs/product.md, "Submitting to the government"): the policy, the
 * New orders moved into or out of Future Orders at once, and the audit entry, in one transaction. The
 * counters follow the orders (their trigger), so every instance's counts and lists hear of it.
 */
export async function changeSubmissionPolicy(
  db: Db,
  actor: StaffIdentity,
  next: SubmissionPolicy,
  ip: string | null,
): Promise<number> {
  return db.transaction(async (tx) => {
    const { updatedAt: _a, updatedBy: _b, ...before } = await getSubmissionPolicy(tx);
    await saveSubmissionPolicy(tx, next, actor.id);
    const moved = before.windowHours === next.windowHours ? [] : await applySubmissionWindow(tx, 'all');
    await recordAudit(tx, {
      action: 'submission-policy.update',
      actorId: actor.id,
      actorEmail: actor.email,
      target: 'settings:submissionPolicy',
      from: before,
      to: { ...next, movedOrders: moved.length },
      ip,
    });
    return moved.length;
  });
}
