import { z } from 'zod';
import { envelope, noControlCharactersExceptLines } from './common.js';

/** The longest shift note (the database checks the same). */
export const SHIFT_NOTE_MAX = 2000;
export const SHIFT_NOTE_REQUIRED = 'Please write the note for the next shift.';

/** POST /api/admin/shift-note: the hand-over text (line breaks allowed, no other control characters). */
export const shiftNoteBody = z.object({
  body: noControlCharactersExceptLines(
    z
      .string({ error: SHIFT_NOTE_REQUIRED })
      .trim()
      .min(1, SHIFT_NOTE_REQUIRED)
      .max(SHIFT_NOTE_MAX, `at most ${SHIFT_NOTE_MAX} characters`),
  ),
});
export type ShiftNoteBody = z.infer<typeof shiftNoteBody>;

/** The newest note: what, who wrote it (their name and role) and when. */
export const shiftNote = z.object({
  id: z.number(),
  body: z.string(),
  author: z.string(),
  author_type: z.string(),
  created_at: z.string(),
});
export type ShiftNote = z.infer<typeof shiftNote>;
export const shiftNoteResponse = envelope(shiftNote.nullable());
