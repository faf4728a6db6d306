import { eq, sql } from 'drizzle-orm';
import type { SubmissionPacket } from '../../shared/contracts/submission.js';
import { serviceToday } from '../../shared/dates.js';
import type { Machine } from '../api-keys/keys.js';
import { now } from '../clock.js';
import { BatchLanes, lanesPerDatabase } from '../db/batch-lanes.js';
import type { Db, DbOrTx } from '../db/client.js';
import { orderFiles, submissionJobs } from '../db/schema.js';
import { sqlValue } from '../db/sql-lists.js';
import { removeStored, type StorageTarget, storeBuffer } from '../documents/storage.js';
import type { StoredFile } from '../documents/stored-file.js';
import { conflict, notFound } from '../http/errors.js';
import { publishNotice } from '../live/notices.js';
import { addSystemRemark } from '../orders/remarks.js';
import { holdForMachines, releaseFromMachine } from '../orders/machine-hold.js';
import { fewDueNewOrders, onlyOrders } from '../orders/new-queue.js';
import { type CheckSettings, setOrderFlag } from '../orders/order-checks.js';
import { MANAGER_ROLES } from '../payments/stripe-risk.js';
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
 * holds them), in the caller's transaction. Answers the expired job ids.
 */
async function expireSubmissionJobsIn(tx: DbOrTx): Promise<string[]> {
  const { rows } = await tx.execute<{ id: string; order_id: string; holder: number; name: string }>(sql`
    update submission_jobs j set state = 'expired', finished_at = ${now()}
    from api_keys k
    where j.state = 'open' and j.expires_at <= ${now()} and k.id = j.api_key_id
    returning j.id::text as id, j.order_id::text as order_id, k.machine_user_id as holder,
              k.name || ' (machine)' as name`);
  for (const row of rows) {
    await releaseFromMachine(tx, Number(row.order_id), Number(row.holder));
    await publishNotice(tx, MANAGER_ROLES, {
      kind: 'submission_failed',
      text: `${row.name} did not answer in time: order ${row.order_id} went back to its queue.`,
      orderId: Number(row.order_id),
    });
  }
  return rows.map((r) => r.id);
}

/** Up to this many orders due, a claim reads them by id rather than walking the queue's index. */
const FEW_DUE = 100;
/** At most this many claims written in one transaction (the rest wait for the next). */
const MAX_JOB_CLAIM_BATCH = 50;

/**
 * The next order to submit: New (New or Priority Orders), its processing date come (so its window is
 * open), held by nobody, not on a risk hold, by due time, then the lower order number. `for update skip
 * locked`: concurrent claimers on any instance each get another order. The queue is the index
 * orders_submission_queue_idx (drizzle/0102), walked from the front: a claim reads the first orders it
 * can lock, not the whole queue; with FEW_DUE or fewer due it reads those by id instead. The order by's
 * columns are qualified: unqualified, `order_id` there would be the select list's text cast (order 10
 * before order 9, and no index to walk). Null when there is none.
 *
 * Claims that arrive while an earlier one is being written wait for it and are written together, in one
 * transaction (BatchLanes, decision 440): each claim's commit notifies, and notifying commits queue
 * behind each other's flushes; a batch shares one. The i-th claimer of a batch gets its i-th order.
 */
export async function claimSubmissionJob(
  db: Db,
  machine: Machine,
  settings: CheckSettings,
): Promise<ClaimedJob | null> {
  const claimed = await jobClaimLanes(db).run('submission', machine);
  if (!claimed) return null;
  return { ...claimed, packet: await submissionPacketOf(db, claimed.orderId, settings) };
}

const jobClaimLanes = lanesPerDatabase(
  (db) =>
    new BatchLanes<Machine, { jobId: string; orderId: number } | null>(
      (machines) => (db as Db).transaction((tx) => claimJobs(tx, machines)),
      MAX_JOB_CLAIM_BATCH,
    ),
);

/** One batch of job claims in the caller's transaction: an order (or null) per machine, in their order. */
async function claimJobs(
  tx: DbOrTx,
  machines: readonly Machine[],
): Promise<({ jobId: string; orderId: number } | null)[]> {
  await expireSubmissionJobsIn(tx);
  const policy = await getSubmissionPolicy(tx);
  const at = now();
  const today = serviceToday(at);
  // Few due: those, read by id (the walk would pass every Future order to find them).
  const few = await fewDueNewOrders(tx, today, FEW_DUE);
  if (few && !few.length) return machines.map(() => null);
  const { rows } = await tx.execute<{ order_id: string }>(sql`
    select o.order_id::text as order_id from orders o
    where o.process_status = ${sqlValue('New')} and o.assigned_to is null
      and o.processing_date <= ${today}::date ${onlyOrders('o.order_id', few)}
      and (o.submission_opens_at is null or o.submission_opens_at <= ${at})
      and not ('risk_hold' = any(o.check_flags))
    order by o.due_at asc nulls last, o.order_id
    limit ${machines.length}
    for update of o skip locked`);
  if (!rows.length) return machines.map(() => null);
  const taken = rows.map((r, i) => ({ orderId: Number(r.order_id), machine: machines[i]! }));
  await holdForMachines(
    tx,
    taken.map((t) => ({ orderId: t.orderId, machineUserId: t.machine.identity.id })),
  );
  for (const t of taken) {
    await publishNotice(tx, MANAGER_ROLES, {
      kind: 'submission_claimed',
      text: `${t.machine.identity.name} claimed order ${t.orderId} to submit it.`,
      orderId: t.orderId,
    });
  }
  const jobs = await tx
    .insert(submissionJobs)
    .values(
      taken.map((t) => ({
        apiKeyId: t.machine.keyId,
        orderId: t.orderId,
        claimedAt: at,
        expiresAt: new Date(at.getTime() + policy.jobMinutes * 60_000),
      })),
    )
    .returning({ id: submissionJobs.id, orderId: submissionJobs.orderId });
  const jobOf = new Map(jobs.map((j) => [Number(j.orderId), j.id]));
  return machines.map((_, i) => {
    const t = taken[i];
    return t ? { jobId: jobOf.get(t.orderId)!, orderId: t.orderId } : null;
  });
}

type JobResult =
  | { ok: true; governmentReference: string }
  | { ok: false; error: string; screenshot?: Buffer | undefined };

/**
 * The machine's answer for its job. Success: the move to Awaiting Govt with the reference, through the
 * same code as POST …/submitted. Failure: the order back to its queue unheld, the check
 * `submission_failed` carrying the error, a remark with it, and the screenshot (when sent) kept with the
 * order's files. A job already answered or returned: 409 (a screenshot stored for it is removed again);
 * another key's job or an unknown one: 404. Managers hear of the result live.
 */
export async function answerSubmissionJob(
  db: Db,
  storage: StorageTarget,
  machine: Machine,
  jobId: string,
  result: JobResult,
  settings: CheckSettings,
): Promise<{ jobId: string; orderId: number; state: 'submitted' | 'failed'; screenshotId: number | null }> {
  await db.transaction((tx) => expireSubmissionJobsIn(tx));
  // The file is written before the transaction (storage is not the database) and removed if it fails.
  const stored =
    !result.ok && result.screenshot ? await storeBuffer(storage, result.screenshot, 'png') : null;
  try {
    return await answerInTransaction(db, machine, jobId, result, settings, stored);
  } catch (err) {
    if (stored) await removeStored(storage, stored.key).catch(() => undefined);
    throw err;
  }
}

async function answerInTransaction(
  db: Db,
  machine: Machine,
  jobId: string,
  result: JobResult,
  settings: CheckSettings,
  stored: StoredFile | null,
): Promise<{ jobId: string; orderId: number; state: 'submitted' | 'failed'; screenshotId: number | null }> {
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
      await publishNotice(tx, MANAGER_ROLES, {
        kind: 'submission_submitted',
        text: `${machine.identity.name} submitted order ${orderId} (reference ${result.governmentReference}).`,
        orderId,
      });
      return { jobId, orderId, state: 'submitted' as const, screenshotId: null };
    }
    // The error first: the check's message reads it from the failed job.
    await finish('failed', result.error);
    await releaseFromMachine(tx, orderId, machine.identity.id);
    let screenshotId: number | null = null;
    if (stored) {
      const [file] = await tx
        .insert(orderFiles)
        .values({
          orderId,
          kind: 'submission_screenshot',
          jobId,
          storageKey: stored.key,
          originalName: `submission-${orderId}-${jobId.slice(0, 8)}.png`,
          mimeType: 'image/png',
          sizeBytes: stored.size,
          sha256: stored.sha256,
          note: result.error,
          createdBy: machine.identity.id,
        })
        .returning({ id: orderFiles.id });
      screenshotId = file!.id;
    }
    await setOrderFlag(tx, orderId, 'submission_failed', true, settings, now());
    await addSystemRemark(
      tx,
      orderId,
      `Submission by ${machine.identity.name} failed: ${result.error}${stored ? " (screenshot with the order's files)" : ''}`,
    );
    await publishNotice(tx, MANAGER_ROLES, {
      kind: 'submission_failed',
      text: `${machine.identity.name} could not submit order ${orderId}: ${result.error.slice(0, 200)}`,
      orderId,
    });
    return { jobId, orderId, state: 'failed' as const, screenshotId };
  });
}
