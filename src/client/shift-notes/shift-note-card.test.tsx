import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, ok, renderPage, signInAs } from '../test/fixtures';
import { ShiftNoteCard } from './shift-note-card';

afterEach(() => localStorage.clear());

describe('shift note card', () => {
  it('shows the newest note with who wrote it and when, and saves a new one', async () => {
    const user = userEvent.setup();
    signInAs('Night Staff');
    let note = {
      id: 1,
      body: 'Two orders wait on the government.',
      author: 'Demo Night Staff',
      author_type: 'Night Staff',
      created_at: '2026-11-25T06:30:00.000Z',
    };
    const sent = mockApi({
      'GET /api/admin/shift-note': () => ok(note),
      'POST /api/admin/shift-note': (req) => {
        note = { ...note, id: 2, body: (req.body as { body: string }).body };
        return ok(note, 'The note for the next shift has been saved.');
      },
    });
    renderPage('/admin', '/admin', <ShiftNoteCard />);
    expect(await screen.findByTestId('shift-note-body')).toHaveTextContent(
      'Two orders wait on the government.',
    );
    expect(screen.getByTestId('shift-note-by')).toHaveTextContent(
      'Demo Night Staff (Night Staff), 25 Nov 2026 01:30 EST',
    );
    await user.click(screen.getByRole('button', { name: 'Write a note for the next shift' }));
    await user.type(screen.getByLabelText('Note for the next shift'), 'All clear');
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect(await screen.findByText('The note for the next shift has been saved.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('shift-note-body')).toHaveTextContent('All clear'));
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ body: 'All clear' });
  });
});
