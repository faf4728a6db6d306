import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { staffSessions } from '../db/schema.js';
import { now } from './clock.js';
import { forgetStaffSession, forgetStaffUser, type SessionState } from './staff-cache.js';

/** Absolute lifetime of a session and its token: one shift. */
export const SESSION_ABSOLUTE_HOURS = 12;
/** last_seen_at is written at most this often per session (not on every request). */
const TOUCH_EVERY_MS = 60_000;

/** What a session may still do before it is a full session. */
export type SessionPending = 'password' | 'two-factor-setup';

export interface NewSession {
  userId: number;
  ip: string | null;
  userAgent: string | null;
  pending?: SessionPending | null;
}

export async function createSession(db: DbOrTx, input: NewSession): Promise<{ id: string; expiresAt: Date }> {
  const at = now();
  const id = randomBytes(18).toString('base64url');
  const expiresAt = new Date(at.getTime() + SESSION_ABSOLUTE_HOURS * 3_600_000);
  const userAgent = input.userAgent?.slice(0, 512) ?? null;
  await db.insert(staffSessions).values({
    id,
    userId: input.userId,
    createdAt: at,
    lastSeenAt: at,
    expiresAt,
    ip: input.ip?.slice(0, 64) ?? null,
    userAgent,
    device: deviceLabel(userAgent),
    pending: input.pending ?? null,
  });
  return { id, expiresAt };
}

/** Why a session no longer counts, or null when it is live. */
export function sessionProblem(s: SessionState, idleHours: number, at = now()): string | null {
  if (s.endedAt) return 'ended';
  if (s.expiresAt.getTime() <= at.getTime()) return 'expired';
  if (at.getTime() - s.lastSeenAt.getTime() > idleHours * 3_600_000) return 'idle';
  return null;
}

/** Marks a live session as seen now, at most once a minute. */
export async function touchSession(db: DbOrTx, s: SessionState): Promise<void> {
  const at = now();
  if (at.getTime() - s.lastSeenAt.getTime() < TOUCH_EVERY_MS) return;
  // The guard's cached row is this object: it holds the new time, so the next minute writes nothing.
  s.lastSeenAt = at;
  await db.update(staffSessions).set({ lastSeenAt: at }).where(eq(staffSessions.id, s.id));
}

/** Ends one session (idempotent); answers whether a live one was ended. */
export async function endSession(db: DbOrTx, id: string, reason: string): Promise<boolean> {
  forgetStaffSession(id);
  const rows = await db
    .update(staffSessions)
    .set({ endedAt: now(), endReason: reason })
    .where(and(eq(staffSessions.id, id), isNull(staffSessions.endedAt)))
    .returning({ id: staffSessions.id });
  return rows.length > 0;
}

/** Ends every live session of a user (but one, when given). */
export async function endUserSessions(db: DbOrTx, userId: number, reason: string, exceptId?: string) {
  forgetStaffUser(userId);
  await db
    .update(staffSessions)
    .set({ endedAt: now(), endReason: reason })
    .where(
      and(
        eq(staffSessions.userId, userId),
        isNull(staffSessions.endedAt),
        exceptId ? ne(staffSessions.id, exceptId) : undefined,
      ),
    );
}

/** Clears the pending step of a session (the required step is done). */
export async function clearPending(db: DbOrTx, id: string, step: SessionPending): Promise<void> {
  forgetStaffSession(id);
  await db
    .update(staffSessions)
    .set({ pending: null })
    .where(and(eq(staffSessions.id, id), eq(staffSessions.pending, step)));
}

/** A user's live sessions, newest first (ended, expired and idle ones are left out). */
export async function listLiveSessions(db: DbOrTx, userId: number, idleHours: number) {
  const at = now();
  return db
    .select({
      id: staffSessions.id,
      createdAt: staffSessions.createdAt,
      lastSeenAt: staffSessions.lastSeenAt,
      ip: staffSessions.ip,
      device: staffSessions.device,
    })
    .from(staffSessions)
    .where(
      and(
        eq(staffSessions.userId, userId),
        isNull(staffSessions.endedAt),
        gt(staffSessions.expiresAt, at),
        gt(staffSessions.lastSeenAt, new Date(at.getTime() - idleHours * 3_600_000)),
      ),
    )
    .orderBy(desc(staffSessions.lastSeenAt))
    .limit(100);
}

export async function findSession(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ id: staffSessions.id, userId: staffSessions.userId, endedAt: staffSessions.endedAt })
    .from(staffSessions)
    .where(eq(staffSessions.id, id))
    .limit(1);
  return row ?? null;
}

/** Has the user signed in from this browser before (any earlier session with the same user agent)? */
export async function knownDevice(db: DbOrTx, userId: number, userAgent: string | null): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(staffSessions)
    .where(
      and(
        eq(staffSessions.userId, userId),
        userAgent ? eq(staffSessions.userAgent, userAgent.slice(0, 512)) : isNull(staffSessions.userAgent),
      ),
    )
    .limit(1);
  return !!row;
}

/** "Chrome on Windows" from a User-Agent: enough to recognise one's own devices in the list. */
export function deviceLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : /curl\//i.test(ua)
              ? 'curl'
              : 'Browser';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iPod/.test(ua)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux|X11/.test(ua)
            ? 'Linux'
            : 'an unknown system';
  return `${browser} on ${os}`;
}
