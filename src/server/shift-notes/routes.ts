import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ShiftNote, shiftNoteBody, shiftNoteResponse } from '../../shared/contracts/shift-notes.js';
import { recordAudit } from '../audit/audit.js';
import { staffOf } from '../auth/guard.js';
import type { DbOrTx } from '../db/client.js';
import { shiftNotes, staffUsers } from '../db/schema.js';
import { ok } from '../http/envelope.js';

const security = [{ staffToken: [] }];

/** The newest shift note with its author, or null before the first one. */
async function latestNote(db: DbOrTx): Promise<ShiftNote | null> {
  const [row] = await db
    .select({
      id: shiftNotes.id,
      body: shiftNotes.body,
      author: staffUsers.name,
      authorType: staffUsers.role,
      createdAt: shiftNotes.createdAt,
    })
    .from(shiftNotes)
    .innerJoin(staffUsers, eq(staffUsers.id, shiftNotes.authorId))
    .orderBy(desc(shiftNotes.createdAt), desc(shiftNotes.id))
    .limit(1);
  return row
    ? {
        id: row.id,
        body: row.body,
        author: row.author,
        author_type: row.authorType,
        created_at: row.createdAt.toISOString(),
      }
    : null;
}

/** The shift note on the dashboard: one shift (Night Staff to the day) hands over to the next (decision 318). */
export const shiftNoteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/admin/shift-note',
    {
      config: { permission: 'shift.note' },
      schema: {
        tags: ['team'],
        summary: 'The newest shift note: its text, who wrote it and when (null before the first)',
        security,
        response: { 200: shiftNoteResponse },
      },
    },
    async () => ok(await latestNote(db), 'Shift note'),
  );

  app.post(
    '/admin/shift-note',
    {
      config: { permission: 'shift.note' },
      schema: {
        tags: ['team'],
        summary: 'Write the shift note for the next shift (kept with its author and time, and audited)',
        security,
        body: shiftNoteBody,
        response: { 200: shiftNoteResponse },
      },
    },
    async (request) => {
      const staff = staffOf(request);
      const note = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(shiftNotes)
          .values({ authorId: staff.id, body: request.body.body })
          .returning({ id: shiftNotes.id });
        await recordAudit(tx, {
          action: 'shift.note',
          actorId: staff.id,
          actorEmail: staff.email,
          target: `shift-note:${row!.id}`,
          to: { body: request.body.body },
          ip: request.ip,
        });
        return latestNote(tx);
      });
      return ok(note, 'The note for the next shift has been saved.');
    },
  );
};
