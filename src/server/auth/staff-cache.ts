import type { Role } from '../../shared/constants.js';

/** A staff session as the guard checks it (sessions.ts keeps the rows). */
export interface SessionState {
  id: string;
  userId: number;
  lastSeenAt: Date;
  expiresAt: Date;
  endedAt: Date | null;
  pending: string | null;
}

/** What the guard reads for a token: the staff member and the token's server-side session. */
export interface StaffRow {
  id: number;
  name: string;
  role: Role;
  email: string;
  tokenVersion: number;
  session: SessionState;
}

/** How long a looked-up staff row answers for its session without a database read. */
export const STAFF_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  userId: number;
  row: StaffRow | undefined;
  at: number;
}

/** Every cache of this process: a change written here is forgotten by all of them at once. */
const allCaches = new Set<StaffCache>();

/**
 * The guard's staff lookup, per session id, for STAFF_CACHE_TTL_MS (decision 221). The token version
 * in the cached row is still compared with the token's on every request. Dropped for a user when:
 * this process ends a session or changes the user (forgetStaffUser, called by the session helpers before
 * their transaction commits), and when any instance commits a change to the user or one of their
 * sessions (the triggers of migration cache_notify publish `staff:<id>`; heard by every instance).
 */
export class StaffCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every forget: a lookup that started before it is not kept. */
  private epoch = 0;

  constructor(private readonly ttlMs = STAFF_CACHE_TTL_MS) {
    if (ttlMs > 0) allCaches.add(this);
  }

  close(): void {
    allCaches.delete(this);
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  async get(
    sessionId: string,
    userId: number,
    load: () => Promise<StaffRow | undefined>,
  ): Promise<StaffRow | undefined> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(sessionId);
    if (hit && hit.userId === userId && now - hit.at < this.ttlMs) return hit.row;
    const epoch = this.epoch;
    const row = await load();
    // A change heard while the row was read may not be in it: answer it once, keep it not.
    if (epoch === this.epoch) {
      if (this.entries.size >= MAX_ENTRIES) this.sweep(now);
      this.entries.set(sessionId, { userId, row, at: now });
    }
    return row;
  }

  forgetUser(userId: number): void {
    this.epoch++;
    for (const [sid, e] of this.entries) if (e.userId === userId) this.entries.delete(sid);
  }

  forgetSession(sessionId: string): void {
    this.epoch++;
    this.entries.delete(sessionId);
  }

  private sweep(now: number): void {
    for (const [sid, e] of this.entries) if (now - e.at >= this.ttlMs) this.entries.delete(sid);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}

/** Drops a user's cached lookups in every cache of this process. */
export function forgetStaffUser(userId: number): void {
  for (const c of allCaches) c.forgetUser(userId);
}

/** Drops one session's cached lookup in every cache of this process. */
export function forgetStaffSession(sessionId: string): void {
  for (const c of allCaches) c.forgetSession(sessionId);
}
