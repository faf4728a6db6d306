import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type { OrderChangeEvent, PresenceEvent } from '../../shared/contracts/live.js';
import type { StaffIdentity } from '../context.js';
import type { Database } from '../db/client.js';
import { trackEventStream } from '../metrics/metrics.js';
import { countsFor } from '../orders/counts.js';

/** Channels the database triggers publish on (drizzle/0019_order_change_events.sql). */
export const ORDER_CHANNEL = 'edcard_order';
export const PRESENCE_CHANNEL = 'edcard_presence';

export const HEARTBEAT_MS = 15_000;
/** A viewer without a heartbeat for this long is gone. */
export const PRESENCE_TTL_MS = 30_000;
/** Counts are recomputed at most this often, however many orders change. */
const COUNTS_COALESCE_MS = 300;
const PRESENCE_SWEEP_MS = 5_000;

interface Stream {
  staff: StaffIdentity;
  res: ServerResponse;
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
  private closed = false;

  constructor(private readonly database: Database) {}

  get openStreams(): number {
    return this.streams.size;
  }

  async start(): Promise<void> {
    this.unlisten.push(await this.database.listen(ORDER_CHANNEL, (p) => this.onOrder(p)));
    this.unlisten.push(await this.database.listen(PRESENCE_CHANNEL, (p) => void this.onPresence(p)));
    this.timers.push(setInterval(() => this.heartbeat(), HEARTBEAT_MS).unref());
    this.timers.push(setInterval(() => void this.sweepPresence(), PRESENCE_SWEEP_MS).unref());
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    if (this.countsTimer) clearTimeout(this.countsTimer);
    for (const s of this.streams) s.res.end();
    this.streams.clear();
    await Promise.all(this.unlisten.map((u) => u().catch(() => {})));
  }

  /** Adds an open event stream; the caller has written the SSE headers. */
  add(staff: StaffIdentity, res: ServerResponse): void {
    const stream: Stream = { staff, res, lastCounts: null };
    this.streams.add(stream);
    const untrack = trackEventStream();
    res.on('close', () => {
      this.streams.delete(stream);
      untrack();
    });
    void this.sendCounts([stream]);
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
        counts = await countsFor(this.database, staffId);
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

  private async onPresence(payload: string): Promise<void> {
    const orderId = Number(payload);
    if (!Number.isSafeInteger(orderId)) return;
    let event: PresenceEvent;
    try {
      event = { orderId, viewers: await viewersOf(this.database, orderId) };
    } catch {
      return;
    }
    this.broadcast('presence', event);
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

/** Who is on an order now, by name. */
export async function viewersOf(database: Database, orderId: number): Promise<PresenceEvent['viewers']> {
  const { rows } = await database.db.execute<{ staff_id: number; name: string; editing: boolean }>(sql`
    select p.staff_id, s.name, p.editing from order_presence p join staff_users s on s.id = p.staff_id
    where p.order_id = ${orderId}
      and p.seen_at >= now() - make_interval(secs => ${PRESENCE_TTL_MS / 1000})
    order by s.name, p.staff_id`);
  return rows.map((r) => ({ staffId: Number(r.staff_id), name: r.name, editing: !!r.editing }));
}
