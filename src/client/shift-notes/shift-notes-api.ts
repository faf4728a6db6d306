import type { ShiftNote, ShiftNoteBody } from '../../shared/contracts/shift-notes';
import { type Envelope, api } from '../transport/api';

/** The dashboard's shift note: read the newest, write a new one (which refreshes it). */
export const shiftNotesApi = api.enhanceEndpoints({ addTagTypes: ['ShiftNote'] }).injectEndpoints({
  endpoints: (build) => ({
    getShiftNote: build.query<ShiftNote | null, void>({
      query: () => ({ url: 'admin/shift-note' }),
      providesTags: ['ShiftNote'],
    }),
    writeShiftNote: build.mutation<Envelope<ShiftNote | null>, ShiftNoteBody>({
      query: (body) => ({ url: 'admin/shift-note', method: 'POST', body }),
      invalidatesTags: ['ShiftNote'],
    }),
  }),
});

export const { useGetShiftNoteQuery, useWriteShiftNoteMutation } = shiftNotesApi;
