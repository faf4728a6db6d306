import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIFT_NOTE_REQUIRED } from '../../shared/contracts/shift-notes.js';
import { createTestApp, type DemoRole, type TestApp } from '../test/app.js';

// The shift note: Night Staff hand over to the day on the dashboard, with who wrote it and when (audited).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const read = (role: DemoRole) => t.as(role, { method: 'GET', url: '/api/admin/shift-note' });
const write = (role: DemoRole, payload: unknown) =>
  t.as(role, { method: 'POST', url: '/api/admin/shift-note', payload: payload as object });

async function noteCount() {
  const { rows } = await t.database.sql.query<{ n: string }>('select count(*) n from shift_notes');
  return Number(rows[0]!.n);
}

describe('shift note', () => {
  it('is empty at first, then shows the newest note with its author and time to every role', async () => {
    expect((await read('Team')).json().data).toBeNull();
    const res = await write('Night Staff', {
      body: '  Three orders wait on the government.\nCall 12345 first.  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    const note = res.json().data;
    expect(note).toMatchObject({
      body: 'Three orders wait on the government.\nCall 12345 first.',
      author: 'Demo Night Staff',
      author_type: 'Night Staff',
    });
    expect(Date.now() - Date.parse(note.created_at)).toBeLessThan(60_000);
    await write('Manager', { body: 'Day shift: all clear.' });
    for (const role of ['Admin', 'Manager', 'Team', 'Telecaller', 'Night Staff'] as const) {
      const got = await read(role);
      expect(got.statusCode).toBe(200);
      expect(got.json().data.body).toBe('Day shift: all clear.');
    }
    const { rows } = await t.database.sql.query<{ actor_email: string; body: string }>(
      `select actor_email, to_value->>'body' as body from audit_log where action = 'shift.note' order by id`,
    );
    expect(rows.map((r) => r.body)).toEqual([
      'Three orders wait on the government.\nCall 12345 first.',
      'Day shift: all clear.',
    ]);
    expect(rows[0]!.actor_email).toBe('night@demo.test');
  });

  it('refuses an empty, huge or control-character note and unknown fields with a 400; signed out is 401', async () => {
    const before = await noteCount();
    for (const payload of [
      { body: '   ' },
      {},
      { body: 'x'.repeat(2001) },
      { body: 'bad\u0000note' },
      { body: 'ok', author_id: 1 },
      { body: 42 },
    ]) {
      const res = await write('Night Staff', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.body).not.toContain('    at ');
    }
    expect((await write('Night Staff', { body: '' })).json().message).toContain(SHIFT_NOTE_REQUIRED);
    expect(await noteCount()).toBe(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/shift-note' })).statusCode).toBe(401);
  });
});
