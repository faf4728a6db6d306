import type { ServerResponse } from 'node:http';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Role } from '../../shared/constants.js';
import type { OrderChangeEvent, PresenceEvent } from '../../shared/contracts/live.js';
import { can } from '../../shared/permissions.js';
import { now } from '../clock.js';
import { sessionProblem } from '../auth/sessions.js';
import type { StaffIdentity } from '../context.js';
import type { Database } from '../db/client.js';
import { staffSessions, staffUsers } from '../db/schema.js';
import { trackEventStream } from '../metrics/metrics.js';
import { type CountsMemory, countsFor } from '../order-lists/counts.js';
import { onCacheEvent } from '../db/cache-events.js';
import { NOTICE_CHANNEL } from './notices.js';

/** Channels the database triggers publish on (drizzle/0019_order_change_events.sql). */
export const ORDER_CHANNEL = 'edcard_order';
export const PRESENCE_CHANNEL = 'edcard_presence';

export const HEARTBEAT_MS = 15_000;
/** A viewer without a heartbeat for this long is gone. */
export const PRESENCE_TTL_MS = 30_000;
/** Counts are recomputed at most this often, however many orders change. */
const COUNTS_COALESCE_MS = 300;
const PRESENCE_SWEEP_MS = 5_000;
/** Presence changes of one order heard within this window go out as one event (the latest state). */
const PRESENCE_COALESCE_MS = 200;
/** A change to a user or their sessions is checked against their open streams after this short wait. */
const SESSION_CHECK_COALESCE_MS = 50;
export interface LiveHubOptions {
  /** A session that has not been used for this long has ended (SESSION_IDLE_HOURS). */
  idleHours: number;
  /** Every open stream's session is read again this often, whatever was heard. */
  recheckMs: number;
  /** A stream is closed after this long; the browser opens a new one (and proves its session again). */
  maxLifetimeMs: number;
  /** Open streams one session may hold (tabs of one browser); the oldest is closed for a new one. */
  perSession: number;
  /** Open streams one user may hold over all their sessions; the oldest is closed for a new one. */
  perUser: number;
  /** The app's in-memory folder and due-time counts (its ListState's). */
  counts: CountsMemory;
}

/** What an open stream's token stood for when it was opened: the stream ends when this no longer holds. */
export interface StreamSession {
  sessionId: string;
  tokenVersion: number;
}

interface Stream {
  staff: StaffIdentity;
  session: StreamSession;
  res: ServerResponse;
  openedAt: number;
  lifetime: NodeJS.Timeout;
  /** The last counts sent, as JSON, so an unchanged recount sends nothing. */
  lastCounts: string | null;
}

/**
 * The live side of the queues: one per server instance. Changes come from PostgreSQL NOTIFY (or PGlite's
 * in-process equivalent), published by the database triggers in the transaction that made them, so every
 * instance on one database delivers every change to its own open streams.
 */
export class LiveHub {
  private readonly streams = new Set<Stream>();
  private unlisten: (() => Promise<void>)[] = [];
  private timers: NodeJS.Timeout[] = [];
  private countsTimer: NodeJS.Timeout | null = null;
  private presenceTimer: NodeJS.Timeout | null = null;
  private readonly presencePending = new Set<number>();
  private sessionTimer: NodeJS.Timeout | null = null;
  private readonly usersToCheck = new Set<number>();
  private closed = false;

  constructor(
    private readonly database: Database,
    private readonly options: LiveHubOptions,
  ) {}

  get openStreams(): number {
    return this.streams.size;
  }

  async start(): Promise<void> {
    this.unlisten.push(await this.database.listen(ORDER_CHANNEL, (p) => this.onOrder(p)));
    this.unlisten.push(await this.database.listen(PRESENCE_CHANNEL, (p) => this.onPresence(p)));
    this.unlisten.push(await this.database.listen(NOTICE_CHANNEL, (p) => this.onNotice(p)));
    // Logout, an end by an Admin, a password change, a deleted user: every instance hears it here.
    this.unlisten.push(await onCacheEvent(this.database, (p) => this.onStaffChange(p)));
    this.timers.push(setInterval(() => this.heartbeat(), HEARTBEAT_MS).unref());
    this.timers.push(setInterval(() => void this.sweepPresence(), PRESENCE_SWEEP_MS).unref());
    this.timers.push(
      setInterval(() => void this.checkSessions([...this.streams]), this.options.recheckMs).unref(),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    for (const t of [this.countsTimer, this.presenceTimer, this.sessionTimer]) if (t) clearTimeout(t);
    for (const s of this.streams) this.end(s);
    this.streams.clear();
    await Promise.all(this.unlisten.map((u) => u().catch(() => {})));
  }

  /** Adds an open event stream; the caller has written the SSE headers. */
  add(staff: StaffIdentity, session: StreamSession, res: ServerResponse): void {
    // Over a cap, the oldest streams go first: a browser that reconnects is never the one refused.
    const ofSession = [...this.streams].filter((s) => s.session.sessionId === session.sessionId);
    for (const s of ofSession.slice(0, Math.max(0, ofSession.length - this.options.perSession + 1)))
      this.end(s, 'too-many-streams');
    const ofUser = [...this.streams].filter((s) => s.staff.id === staff.id);
    for (const s of ofUser.slice(0, Math.max(0, ofUser.length - this.options.perUser + 1)))
      this.end(s, 'too-many-streams');
    const stream: Stream = {
      staff,
      session,
      res,
      openedAt: Date.now(),
      lifetime: setTimeout(() => this.end(stream, 'lifetime'), this.options.maxLifetimeMs).unref(),
      lastCounts: null,
    };
    this.streams.add(stream);
    const untrack = trackEventStream();
    res.on('close', () => {
      clearTimeout(stream.lifetime);
      this.streams.delete(stream);
      untrack();
    });
    void this.sendCounts([stream]);
  }

  /** Closes a stream, saying why first (the browser reconnects, and hears 401 if its session is gone). */
  private end(stream: Stream, reason?: 'session-ended' | 'lifetime' | 'too-many-streams'): void {
    clearTimeout(stream.lifetime);
    this.streams.delete(stream);
    if (stream.res.writableEnded) return;
    if (reason) stream.res.write(frame('end', { reason }));
    stream.res.end();
  }

  private onStaffChange(payload: string): void {
    if (!payload.startsWith('staff:')) return;
    const userId = Number(payload.slice(6));
    if (!Number.isSafeInteger(userId)) return;
    this.usersToCheck.add(userId);
    if (this.sessionTimer || this.closed) return;
    this.sessionTimer = setTimeout(() => {
      this.sessionTimer = null;
      const users = new Set(this.usersToCheck);
      this.usersToCheck.clear();
      void this.checkSessions([...this.streams].filter((s) => users.has(s.staff.id)));
    }, SESSION_CHECK_COALESCE_MS);
  }

  /**
   * Reads the sessions of these streams and closes every stream whose session no longer answers as
   * it did when the stream opened: ended, expired, idle, user deleted, token version or type changed.
   * Reading does not count as use: a stream alone never keeps a session from going idle.
   */
  private async checkSessions(targets: Stream[]): Promise<void> {
    if (!targets.length) return;
    const ids = [...new Set(targets.map((s) => s.session.sessionId))];
    let rows: {
      id: string;
      userId: number;
      lastSeenAt: Date;
      expiresAt: Date;
      endedAt: Date | null;
      pending: string | null;
      tokenVersion: number;
      role: Role;
      deletedAt: Date | null;
    }[];
    try {
      rows = await this.database.db
        .select({
          id: staffSessions.id,
          userId: staffSessions.userId,
          lastSeenAt: staffSessions.lastSeenAt,
          expiresAt: staffSessions.expiresAt,
          endedAt: staffSessions.endedAt,
          pending: staffSessions.pending,
          tokenVersion: staffUsers.tokenVersion,
          role: staffUsers.role,
          deletedAt: staffUsers.deletedAt,
        })
        .from(staffSessions)
        .innerJoin(staffUsers, eq(staffUsers.id, staffSessions.userId))
        .where(inArray(staffSessions.id, ids));
    } catch {
      return; // The database is away; the next check closes what has ended meanwhile.
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    const at = now();
    for (const s of targets) {
      const r = byId.get(s.session.sessionId);
      const live =
        !!r &&
        !r.deletedAt &&
        !r.pending &&
        r.userId === s.staff.id &&
        r.tokenVersion === s.session.tokenVersion &&
        r.role === s.staff.type &&
        can(r.role, 'orders.read') &&
        sessionProblem(r, this.options.idleHours, at) === null;
      if (!live) this.end(s, 'session-ended');
    }
  }

  private write(stream: Stream, event: string, data: unknown): void {
    this.writeFrame(stream, frame(event, data));
  }

  private writeFrame(stream: Stream, text: string): void {
    if (!stream.res.writableEnded) stream.res.write(text);
  }

  /** One event to every stream, serialised once. */
  private broadcast(event: string, data: unknown): void {
    const text = frame(event, data);
    for (const s of this.streams) this.writeFrame(s, text);
  }

  private heartbeat(): void {
    for (const s of this.streams) if (!s.res.writableEnded) s.res.write(': heartbeat\n\n');
  }

  private onOrder(payload: string): void {
    let event: OrderChangeEvent & { assignedToId?: number | null; byId?: number | null };
    try {
      event = JSON.parse(payload);
    } catch {
      return;
    }
    const { assignedToId: _a, byId: _b, ...data } = event;
    this.broadcast('order', data);
    this.scheduleCounts();
  }

  /** A staff notice (live/notices.ts) to the streams of the roles it names. */
  private onNotice(payload: string): void {
    let parsed: { roles?: unknown; notice?: unknown };
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const roles = Array.isArray(parsed.roles) ? (parsed.roles as string[]) : [];
    const text = frame('notice', parsed.notice);
    for (const s of this.streams) if (roles.includes(s.staff.type)) this.writeFrame(s, text);
  }

  private scheduleCounts(): void {
    if (this.countsTimer || this.closed) return;
    this.countsTimer = setTimeout(() => {
      this.countsTimer = null;
      void this.sendCounts([...this.streams]);
    }, COUNTS_COALESCE_MS);
  }

  /** Counts depend on the user only through My Orders: one query per distinct staff member. */
  private async sendCounts(targets: Stream[]): Promise<void> {
    const byStaff = new Map<number, Stream[]>();
    for (const s of targets) byStaff.set(s.staff.id, [...(byStaff.get(s.staff.id) ?? []), s]);
    for (const [staffId, streams] of byStaff) {
      let counts: Awaited<ReturnType<typeof countsFor>>;
      try {
        counts = await countsFor(this.options.counts, this.database.db, staffId);
      } catch {
        continue; // The database is away; the next change or reconnect brings fresh counts.
      }
      const json = JSON.stringify(counts);
      for (const s of streams) {
        if (s.lastCounts === json) continue;
        s.lastCounts = json;
        this.write(s, 'counts', counts);
      }
    }
  }

  /** Presence changes are gathered per order for a moment: a burst of them costs one event. */
  private onPresence(payload: string): void {
    const orderId = Number(payload);
    if (!Number.isSafeInteger(orderId)) return;
    this.presencePending.add(orderId);
    if (this.presenceTimer || this.closed) return;
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = null;
      void this.sendPresence();
    }, PRESENCE_COALESCE_MS);
  }

  /**
   * Presence is shown only on the order's own page, so it goes only to the streams of the staff members
   * on that page (those with a presence row), never to every stream. (No list shows presence.)
   */
  private async sendPresence(): Promise<void> {
    const orderIds = [...this.presencePending];
    this.presencePending.clear();
    let viewers: Map<number, PresenceEvent['viewers']>;
    try {
      viewers = await viewersOfOrders(this.database, orderIds);
    } catch {
      return;
    }
    for (const orderId of orderIds) {
      const list = viewers.get(orderId) ?? [];
      if (!list.length) continue;
      const on = new Set(list.map((v) => v.staffId));
      const text = frame('presence', { orderId, viewers: list } satisfies PresenceEvent);
      for (const s of this.streams) if (on.has(s.staff.id)) this.writeFrame(s, text);
    }
  }

  /** Any instance may sweep: the delete is idempotent and its trigger tells every instance. */
  private async sweepPresence(): Promise<void> {
    try {
      await this.database.db.execute(
        sql`delete from order_presence where seen_at < now() - make_interval(secs => ${PRESENCE_TTL_MS / 1000})`,
      );
    } catch {
      // The database is away; the next sweep catches up.
    }
  }
}

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Who is on each of these orders now, by name (one query). */
async function viewersOfOrders(
  database: Database,
  orderIds: number[],
): Promise<Map<number, PresenceEvent['viewers']>> {
  const out = new Map<number, PresenceEvent['viewers']>();
  if (!orderIds.length) return out;
  const { rows } = await database.db.execute<{
    order_id: number;
    staff_id: number;
    name: string;
    editing: boolean;
  }>(sql`
    select p.order_id, p.staff_id, s.name, p.editing from order_presence p join staff_users s on s.id = p.staff_id
    where p.order_id in (${sql.join(
      orderIds.map((id) => sql`${id}`),
      sql`, `,
    )})
      and p.seen_at >= now() - make_interval(secs => ${PRESENCE_TTL_MS / 1000})
    order by s.name, p.staff_id`);
  for (const r of rows) {
    const id = Number(r.order_id);
    out.set(id, [
      ...(out.get(id) ?? []),
      { staffId: Number(r.staff_id), name: r.name, editing: !!r.editing },
    ]);
  }
  return out;
}

/** Who is on an order now, by name. */
export async function viewersOf(database: Database, orderId: number): Promise<PresenceEvent['viewers']> {
  const { rows } = await database.db.execute<{ staff_id: number; name: string; editing: boolean }>(sql`
    select p.staff_id, s.name, p.editing from order_presence p join staff_users s on s.id = p.staff_id
    where p.order_id = ${orderId}
      and p.seen_at >= now() - make_interval(secs => ${PRESENCE_TTL_MS / 1000})
    order by s.name, p.staff_id`);
  return rows.map((r) => ({ staffId: Number(r.staff_id), name: r.name, editing: !!r.editing }));
}
