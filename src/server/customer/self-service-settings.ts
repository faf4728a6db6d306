import { eq, sql } from 'drizzle-orm';
import type { AuditAction } from '../../shared/contracts/audit.js';
import {
  type CancellationPolicy,
  DEFAULT_CANCELLATION_POLICY,
  DEFAULT_FEEDBACK_POLICY,
  type FeedbackPolicy,
  type TrackPageAnswers,
} from '../../shared/contracts/self-service.js';
import type { CustomerStage } from '../../shared/customer-stage.js';
import type { CustomerLanguage } from '../../shared/languages.js';
import { recordAudit } from '../audit/audit.js';
import type { StaffIdentity } from '../context.js';
import type { Db, DbOrTx } from '../db/client.js';
import { appSettings } from '../db/schema.js';

/** The Admin's settings of the customers' self-service, each one app_settings row, changes audited. */
const KEYS = {
  cancellation: 'cancellation-policy',
  feedback: 'feedback-policy',
  answers: 'track-page-answers',
} as const;

async function read<T extends object>(db: DbOrTx, key: string, fallback: T): Promise<T> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, key));
  return { ...fallback, ...((row?.value as Partial<T> | undefined) ?? {}) };
}

async function write<T extends object>(
  db: Db,
  actor: StaffIdentity,
  key: string,
  value: T,
  fallback: T,
  audit: { action: AuditAction; target: string },
  ip: string,
): Promise<T> {
  return db.transaction(async (tx) => {
    const before = await read(tx, key, fallback);
    await tx
      .insert(appSettings)
      .values({ key, value, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: appSettings.key,
        set: { value, updatedBy: actor.id, updatedAt: sql`now()` },
      });
    await recordAudit(tx, {
      action: audit.action,
      actorId: actor.id,
      actorEmail: actor.email,
      target: audit.target,
      from: before,
      to: value,
      ip,
    });
    return value;
  });
}

export const getCancellationPolicy = (db: DbOrTx) => read(db, KEYS.cancellation, DEFAULT_CANCELLATION_POLICY);
export const setCancellationPolicy = (db: Db, actor: StaffIdentity, policy: CancellationPolicy, ip: string) =>
  write(
    db,
    actor,
    KEYS.cancellation,
    policy,
    DEFAULT_CANCELLATION_POLICY,
    {
      action: 'cancellation-policy.update',
      target: 'cancellation policy',
    },
    ip,
  );

export const getFeedbackPolicy = (db: DbOrTx) => read(db, KEYS.feedback, DEFAULT_FEEDBACK_POLICY);
export const setFeedbackPolicy = (db: Db, actor: StaffIdentity, policy: FeedbackPolicy, ip: string) =>
  write(
    db,
    actor,
    KEYS.feedback,
    policy,
    DEFAULT_FEEDBACK_POLICY,
    {
      action: 'feedback-policy.update',
      target: 'feedback policy',
    },
    ip,
  );

const NO_ANSWERS: TrackPageAnswers = { answers: [] };
export const getTrackPageAnswers = (db: DbOrTx) => read(db, KEYS.answers, NO_ANSWERS);
export const setTrackPageAnswers = (db: Db, actor: StaffIdentity, answers: TrackPageAnswers, ip: string) =>
  write(
    db,
    actor,
    KEYS.answers,
    answers,
    NO_ANSWERS,
    {
      action: 'track-page-answers.update',
      target: 'track page answers',
    },
    ip,
  );

/** The answers of one stage in a language (English where a translation lacks), at most five. */
export async function stageAnswers(
  db: DbOrTx,
  stage: CustomerStage,
  language: CustomerLanguage,
): Promise<string[]> {
  const { answers } = await getTrackPageAnswers(db);
  return answers
    .filter((a) => a.stage === stage)
    .slice(0, 5)
    .map((a) => a[language] || a.en);
}
