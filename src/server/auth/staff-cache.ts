import type { Role } from '../../shared/constants.js';
import type { VerifiedStaffToken } from './tokens.js';

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
/** Verified tokens kept per process: the least recently used goes first (decision 341). */
export const MAX_VERIFIED_TOKENS = 10_000;

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
  /** Verified tokens by their text, least recently used first (a Map keeps insertion order). */
  private readonly tokens = new Map<string, VerifiedStaffToken>();
  /** Bumped by every forget: a lookup that started before it is not kept. */
  private epoch = 0;

  constructor(private readonly ttlMs = STAFF_CACHE_TTL_MS) {
    if (ttlMs > 0) allCaches.add(this);
  }

  close(): void {
    allCaches.delete(this);
    this.entries.clear();
    this.tokens.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** How many verified tokens are kept. */
  get tokenCount(): number {
    return this.tokens.size;
  }

  /**
   * A token's verified claims, checked once per token until it expires (decision 341): the signature
   * and audience of a given text never change, so only its expiry is checked again. A token of a user
   * or session forgotten since is verified again; an invalid token is never kept. Whether the session
   * and the user still hold is the staff lookup's question, asked on every request all the same.
   */
  async verify(
    token: string,
    verify: () => Promise<VerifiedStaffToken | null>,
  ): Promise<VerifiedStaffToken | null> {
    if (this.ttlMs <= 0) return verify();
    const hit = this.tokens.get(token);
    if (hit) {
      this.tokens.delete(token);
      if (hit.exp * 1000 > Date.now()) {
        this.tokens.set(token, hit);
        return hit;
      }
    }
    const epoch = this.epoch;
    const claims = await verify();
    if (claims && epoch === this.epoch) {
      if (this.tokens.size >= MAX_VERIFIED_TOKENS) {
        const oldest = this.tokens.keys().next().value;
        if (oldest !== undefined) this.tokens.delete(oldest);
      }
      this.tokens.set(token, claims);
    }
    return claims;
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
    for (const [token, c] of this.tokens) if (c.user.id === userId) this.tokens.delete(token);
  }

  forgetSession(sessionId: string): void {
    this.epoch++;
    this.entries.delete(sessionId);
    for (const [token, c] of this.tokens) if (c.sid === sessionId) this.tokens.delete(token);
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
