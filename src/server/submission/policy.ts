import { eq } from 'drizzle-orm';
import {
  DEFAULT_SUBMISSION_POLICY,
  type SubmissionPolicy,
  submissionPolicy,
} from '../../shared/contracts/submission.js';
import { now } from '../auth/clock.js';
import type { DbOrTx } from '../db/client.js';
import { appSettings, staffUsers } from '../db/schema.js';
import { SUBMISSION_POLICY_KEY } from '../orders/submission-window.js';

/** The submission policy as stored (app_settings 'submissionPolicy'), the default when none is. */
export async function getSubmissionPolicy(
  db: DbOrTx,
): Promise<SubmissionPolicy & { updatedAt: string | null; updatedBy: string | null }> {
  const [row] = await db
    .select({ value: appSettings.value, updatedAt: appSettings.updatedAt, by: staffUsers.name })
    .from(appSettings)
    .leftJoin(staffUsers, eq(staffUsers.id, appSettings.updatedBy))
    .where(eq(appSettings.key, SUBMISSION_POLICY_KEY));
  const parsed = submissionPolicy.safeParse(row?.value);
  return {
    ...(parsed.success ? parsed.data : DEFAULT_SUBMISSION_POLICY),
    updatedAt: row ? row.updatedAt.toISOString() : null,
    updatedBy: row?.by ?? null,
  };
}

export async function saveSubmissionPolicy(db: DbOrTx, value: SubmissionPolicy, by: number): Promise<void> {
  const at = now();
  await db
    .insert(appSettings)
    .values({ key: SUBMISSION_POLICY_KEY, value, updatedBy: by, updatedAt: at })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedBy: by, updatedAt: at } });
}
