import { eq, sql } from 'drizzle-orm';
import type { SubmissionPacket } from '../../shared/contracts/submission.js';
import { serviceToday } from '../../shared/dates.js';
import type { Machine } from '../api-keys/keys.js';
import { now } from '../clock.js';
import type { Db } from '../db/client.js';
import { submissionJobs } from '../db/schema.js';
import { sqlValue } from '../db/sql-lists.js';
import { conflict, notFound } from '../http/errors.js';
import { addSystemRemark } from '../orders/remarks.js';
import { holdForMachine, releaseFromMachine } from '../orders/machine-hold.js';
import { type CheckSettings, setOrderFlag } from '../orders/order-checks.js';
import { getSubmissionPolicy } from '../submission/policy.js';
import { markSubmitted, submissionPacketOf } from './submit-order.js';

/**
 * Machines that submit (docs/product.md, "Machines that submit"; decision 366): a machine claims the
 * next order whose submission window is open, submits it in the government portal from the packet and
 * answers the result. The claim holds the order for the key's machine row; a job without a result
 * after the policy's `jobMinutes` returns its order (lazily, before every claim and result).
 */

interface ClaimedJob {
  jobId: string;
  orderId: number;
  packet: SubmissionPacket;
}

/**
 * Returns the orders of open jobs past their time to their queues, unheld (only when the machine still
 * holds them). Answers the expired job ids.
 */
async function expireSubmissionJobs(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: string; order_id: string; holder: number }>(sql`
      update submission_jobs j set state = 'expired', finished_at = ${now()}
      from api_keys k
      where j.state = 'open' and j.expires_at <= ${now()} and k.id = j.api_key_id
      returning j.id::text as id, j.order_id::text as order_id, k.machine_user_id as holder`);
    for (const row of rows) await releaseFromMachine(tx, Number(row.order_id), Number(row.holder));
    return rows.map((r) => r.id);
  });
}

/**
 * The next order to submit: New (New or Priority Orders), its processing date come (so its window is
 * open), held by nobody, not on a risk hold, by due time. `for update skip locked`: concurrent claimers
 * on any instance each get another order. Null when there is none.
 */
export async function claimSubmissionJob(
  db: Db,
  machine: Machine,
  settings: CheckSettings,
): Promise<ClaimedJob | null> {
  await expireSubmissionJobs(db);
  const policy = await getSubmissionPolicy(db);
  const at = now();
  const claimed = await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ order_id: string }>(sql`
      select order_id::text as order_id from orders
      where process_status = ${sqlValue('New')} and assigned_to is null
        and processing_date <= ${serviceToday(at)}::date
        and not ('risk_hold' = any(check_flags))
      order by due_at asc nulls last, order_id
      limit 1
      for update skip locked`);
    const row = rows[0];
    if (!row) return null;
    const orderId = Number(row.order_id);
    await holdForMachine(tx, orderId, machine.identity.id);
    const [job] = await tx
      .insert(submissionJobs)
      .values({
        apiKeyId: machine.keyId,
        orderId,
        claimedAt: at,
        expiresAt: new Date(at.getTime() + policy.jobMinutes * 60_000),
      })
      .returning({ id: submissionJobs.id });
    return { jobId: job!.id, orderId };
  });
  if (!claimed) return null;
  return { ...claimed, packet: await submissionPacketOf(db, claimed.orderId, settings) };
}

type JobResult =
  | { ok: true; governmentReference: string }
  | { ok: false; error: string; screenshot?: Buffer | undefined };

/**
 * The machine's answer for its job. Success: the move to Awaiting Govt with the reference, through the
 * same code as POST …/submitted. Failure: the order back to its queue unheld, the check
 * `submission_failed` and a remark carrying the error. A job already answered or returned: 409; another
 * key's job or an unknown one: 404.
 */
export async function answerSubmissionJob(
  db: Db,
  machine: Machine,
  jobId: string,
  result: JobResult,
  settings: CheckSettings,
): Promise<{ jobId: string; orderId: number; state: 'submitted' | 'failed' }> {
  await expireSubmissionJobs(db);
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ order_id: string; state: string }>(sql`
      select order_id::text as order_id, state from submission_jobs
      where id = ${jobId}::uuid and api_key_id = ${machine.keyId}
      for update`);
    const job = rows[0];
    if (!job) throw notFound('Job not found');
    if (job.state !== 'open') {
      throw conflict(
        job.state === 'expired'
          ? 'This job was not answered in time: its order went back to the queue.'
          : 'This job has already been answered.',
      );
    }
    const orderId = Number(job.order_id);
    const finish = (state: 'submitted' | 'failed', error: string | null) =>
      tx.update(submissionJobs).set({ state, error, finishedAt: now() }).where(eq(submissionJobs.id, jobId));
    if (result.ok) {
      await markSubmitted(tx, machine.identity, orderId, {
        governmentReference: result.governmentReference,
        confirmRecent: true,
      });
      await finish('submitted', null);
      return { jobId, orderId, state: 'submitted' as const };
    }
    await releaseFromMachine(tx, orderId, machine.identity.id);
    await setOrderFlag(tx, orderId, 'submission_failed', true, settings);
    await addSystemRemark(tx, orderId, `Submission by ${machine.identity.name} failed: ${result.error}`);
    await finish('failed', result.error);
    return { jobId, orderId, state: 'failed' as const };
  });
}
