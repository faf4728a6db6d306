import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrder } from '../test/factories.js';
import { readSse } from '../test/sse.js';

/**
 * A password change and a deleted member end the user's streams at once, by the notice the change
 * publishes, not by the periodic re-check (left at its default of 60 s here): the stream hears no
 * order change after the answer (finding 13 of the fourth hardening round).
 */

interface Stream {
  events: { event: string; data: Record<string, unknown> }[];
  ended: boolean;
  /** Resolves when the server ends the stream. */
  done: Promise<void>;
  close(): void;
}

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

beforeAll(async () => {
  t = await createTestApp({});
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** The stream ends within a second and hears no order change made after the answer. */
async function endsAtOnce(s: Stream): Promise<void> {
  await endsWith(s, 'session-ended', 1500);
  const heard = s.events.length;
  await createOrder(t.database);
  await new Promise((r) => setTimeout(r, 300));
  expect(s.events.length).toBe(heard);
}

describe('streams end at once on a password change and a deleted member (no periodic re-check needed)', () => {
  it('a password change ends every stream of the user, its own session’s too', async () => {
    await createStaff('notice.password@example.com', 'Notice-pass-0001');
    const token = await signIn('notice.password@example.com', 'Notice-pass-0001');
    const own = await openStream(token);
    const other = await openStream(await signIn('notice.password@example.com', 'Notice-pass-0001'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/change-password',
      headers: { authorization: token },
      payload: { currentPassword: 'Notice-pass-0001', newPassword: 'Another-notice-pass-9' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await endsAtOnce(own);
    await endsAtOnce(other);
  });

  it('a password an Admin sets for the member ends their streams', async () => {
    const id = await createStaff('notice.reset@example.com', 'Notice-pass-0003');
    const s = await openStream(await signIn('notice.reset@example.com', 'Notice-pass-0003'));
    const res = await t.as('Admin', {
      method: 'POST',
      url: '/api/admin/update-team-member',
      payload: {
        tmId: id,
        name: 'Stream notice.reset@example.com',
        email: 'notice.reset@example.com',
        type: 'Team',
        password: 'Reset-notice-pass-77',
        currentPassword: 'demo-password',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await endsAtOnce(s);
  });

  it('deleting the member ends their streams', async () => {
    const id = await createStaff('notice.deleted@example.com', 'Notice-pass-0002');
    const s = await openStream(await signIn('notice.deleted@example.com', 'Notice-pass-0002'));
    const res = await t.as('Admin', {
      method: 'PUT',
      url: '/api/admin/delete-team-member',
      payload: { teamMemberId: id },
    });
    expect(res.statusCode, res.body).toBe(200);
    await endsAtOnce(s);
  });
});
