import http from 'node:http';
import { sql } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClockForTests } from '../auth/clock.js';
import { hashPassword } from '../auth/passwords.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { readSse } from '../test/sse.js';

/**
 * An open event stream lives no longer than its session: it ends on logout, an end by an Admin, a
 * password change, a deleted user, an idle or expired session (found by the periodic re-check), at its
 * maximum lifetime, and when its session or user opens more streams than the caps allow.
 */

interface Stream {
  events: { event: string; data: Record<string, unknown> }[];
  ended: boolean;
  /** Resolves when the server ends the stream. */
  done: Promise<void>;
  close(): void;
}

/** The defaults of LIVE_STREAMS_PER_SESSION and LIVE_STREAMS_PER_USER. */
const MAX_STREAMS_PER_SESSION = 5;
const MAX_STREAMS_PER_USER = 20;

let t: TestApp;
let port: number;
let ipCounter = 0;

function openStream(token: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/api/admin/events', headers: { authorization: token } },
      (res) => {
        let finish: () => void = () => {};
        const stream: Stream = {
          events: [],
          ended: false,
          done: new Promise<void>((r) => {
            finish = r;
          }),
          close: () => req.destroy(),
        };
        readSse(res, (e) => stream.events.push(e));
        const end = () => {
          stream.ended = true;
          finish();
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        else resolve(stream);
      },
    );
    req.on('error', reject);
  });
}

/** The stream has ended within the time, with an `end` event saying why. */
async function endsWith(s: Stream, reason: string, withinMs = 3000): Promise<void> {
  await Promise.race([
    s.done,
    new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), withinMs)),
  ]);
  expect(s.events.filter((e) => e.event === 'end').map((e) => e.data.reason)).toEqual([reason]);
}

/** The stream is still open after a while (and still hears order changes). */
async function staysOpen(s: Stream): Promise<void> {
  await new Promise((r) => setTimeout(r, 400));
  expect(s.ended).toBe(false);
}

async function createStaff(email: string, password: string, role = 'Team') {
  const { rows } = await t.database.sql.query<{ id: number }>(
    'insert into staff_users (name, email, password_hash, role) values ($1, $2, $3, $4) returning id',
    [`Stream ${email}`, email, await hashPassword(password), role],
  );
  return rows[0]!.id;
}

async function signIn(email: string, password: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/admin-login',
    payload: { email, password },
    remoteAddress: `10.77.0.${++ipCounter}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().jwtToken as string;
}

const sessionOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;

beforeAll(async () => {
  t = await createTestApp({ LIVE_STREAM_RECHECK_SECONDS: '0.2', LIVE_STREAM_MAX_SECONDS: '4' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterEach(() => setClockForTests(null));
afterAll(() => t.close());

describe('a live stream ends with its session', () => {
  it('logout ends the streams of that session only', async () => {
    await createStaff('stream.logout@example.com', 'Stream-pass-0001');
    const token = await signIn('stream.logout@example.com', 'Stream-pass-0001');
    const other = await signIn('stream.logout@example.com', 'Stream-pass-0001');
    const mine = await openStream(token);
    const theirs = await openStream(other);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { authorization: token },
    });
    expect(res.statusCode).toBe(200);
    await endsWith(mine, 'session-ended');
    await staysOpen(theirs);
    // The browser's reconnect is refused, as every other route is.
    await expect(openStream(token)).rejects.toThrow(/status 401/);
    theirs.close();
  });

  it('an Admin ending the session ends its stream, which then hears no order changes', async () => {
    await createStaff('stream.ended@example.com', 'Stream-pass-0002');
    const token = await signIn('stream.ended@example.com', 'Stream-pass-0002');
    const s = await openStream(token);
    const res = await t.as('Admin', {
      method: 'DELETE',
      url: `/api/admin/sessions/${sessionOf(token)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    await endsWith(s, 'session-ended');
    const before = s.events.length;
    await createOrder(t.database);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.events.length).toBe(before);
  });

  it('a password change ends every stream of the user', async () => {
    await createStaff('stream.password@example.com', 'Stream-pass-0003');
    const token = await signIn('stream.password@example.com', 'Stream-pass-0003');
    const a = await openStream(token);
    const b = await openStream(await signIn('stream.password@example.com', 'Stream-pass-0003'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: token },
      payload: {
        currentPassword: 'Stream-pass-0003',
        newPassword: 'Another-stream-pass-9',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await endsWith(a, 'session-ended');
    await endsWith(b, 'session-ended');
  });

  it('deleting the user ends their streams', async () => {
    const id = await createStaff('stream.deleted@example.com', 'Stream-pass-0004');
    const s = await openStream(await signIn('stream.deleted@example.com', 'Stream-pass-0004'));
    const res = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/delete-team-member',
      payload: { teamMemberId: id },
    });
    expect(res.statusCode, res.body).toBe(200);
    await endsWith(s, 'session-ended');
  });

  it('an idle session is found by the periodic re-check, though nothing was heard', async () => {
    const s = await openStream(await t.tokenFor('Team'));
    await staysOpen(s);
    // Nine hours later, nobody having used the session: idle after eight.
    const shift = 9 * 3_600_000;
    setClockForTests(() => new Date(Date.now() + shift));
    await endsWith(s, 'session-ended');
  });

  it('a session ended without any notice (written straight to the table) is found by the re-check', async () => {
    const token = await t.tokenFor('Telecaller');
    const s = await openStream(token);
    await t.database.db.transaction(async (tx) => {
      // No trigger fires: only the periodic re-check can find it.
      await tx.execute(sql`set local session_replication_role = 'replica'`);
      await tx.execute(sql`update staff_sessions set ended_at = now() where id = ${sessionOf(token)}`);
    });
    await endsWith(s, 'session-ended');
  });

  it('a stream reaches its maximum lifetime and ends; the browser opens a new one', async () => {
    const token = await t.tokenFor('Manager');
    const s = await openStream(token);
    await endsWith(s, 'lifetime', 6000);
    const again = await openStream(token);
    expect(again.ended).toBe(false);
    again.close();
  }, 10_000);
});

describe('open streams are capped', () => {
  it(`per session: the ${MAX_STREAMS_PER_SESSION + 1}th stream ends the oldest`, async () => {
    const token = await t.tokenFor('Night Staff');
    const streams: Stream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION + 2; i++) streams.push(await openStream(token));
    await endsWith(streams[0]!, 'too-many-streams');
    await endsWith(streams[1]!, 'too-many-streams');
    for (const s of streams.slice(2)) expect(s.ended).toBe(false);
    for (const s of streams) s.close();
  });

  it(`per user over all sessions: at most ${MAX_STREAMS_PER_USER}`, async () => {
    await createStaff('stream.many@example.com', 'Stream-pass-0005');
    const streams: Stream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER + 1; i++)
      streams.push(await openStream(await signIn('stream.many@example.com', 'Stream-pass-0005')));
    await endsWith(streams[0]!, 'too-many-streams');
    await new Promise((r) => setTimeout(r, 100));
    expect(streams.filter((s) => !s.ended)).toHaveLength(MAX_STREAMS_PER_USER);
    for (const s of streams) s.close();
  }, 20_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('on every instance', () => {
  it('a logout through one instance ends the stream open on the other', async () => {
    const b = await createTestApp({}, { sameDatabaseAs: t });
    try {
      await b.app.listen({ host: '127.0.0.1', port: 0 });
      const portB = (b.app.server.address() as AddressInfo).port;
      await createStaff('stream.instances@example.com', 'Stream-pass-0006');
      const token = await signIn('stream.instances@example.com', 'Stream-pass-0006');
      const onB = await new Promise<Stream>((resolve, reject) => {
        const saved = port;
        port = portB;
        openStream(token)
          .then(resolve, reject)
          .finally(() => {
            port = saved;
          });
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/logout',
        headers: { authorization: token },
      });
      expect(res.statusCode).toBe(200);
      await endsWith(onB, 'session-ended', 2000);
    } finally {
      await b.close();
    }
  });
});
