import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { toast } from 'react-toastify';
import { SHIFT_NOTE_MAX } from '../../shared/contracts/shift-notes';
import { formatStaffDateTime } from '../../shared/dates';
import { errorMessage } from '../transport/api';
import { useGetShiftNoteQuery, useWriteShiftNoteMutation } from './shift-notes-api';
import { TextareaField } from '../components/form-kit/form-field';

/** The hand-over between shifts on the dashboard: the newest note, who wrote it and when (decision 318). */
export function ShiftNoteCard() {
  const { data: note, isLoading } = useGetShiftNoteQuery();
  const [write, { isLoading: saving }] = useWriteShiftNoteMutation();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');

  const save = async () => {
    try {
      const res = await write({ body: text }).unwrap();
      toast.success(res.message);
      setEditing(false);
      setText('');
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  return (
    <Card className="mb-3 shadow-sm" as="section" aria-label="Shift note">
      <Card.Body className="py-2">
        <div className="d-flex flex-wrap align-items-baseline gap-2">
          <h2 className="h6 mb-0">Shift note</h2>
          {note ? (
            <span className="small text-body-secondary" data-testid="shift-note-by">
              {note.author} ({note.author_type}), {formatStaffDateTime(note.created_at)}
            </span>
          ) : null}
          {!editing ? (
            <Button size="sm" variant="link" className="ms-auto p-0" onClick={() => setEditing(true)}>
              Write a note for the next shift
            </Button>
          ) : null}
        </div>
        {isLoading ? null : note ? (
          <p className="mb-0 mt-1" style={{ whiteSpace: 'pre-wrap' }} data-testid="shift-note-body">
            {note.body}
          </p>
        ) : (
          <p className="mb-0 mt-1 small text-body-secondary">No note from the last shift.</p>
        )}
        {editing ? (
          <form
            className="mt-2"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <TextareaField
              id="shift-note-text"
              label="Note for the next shift"
              labelClassName="small mb-1"
              rows={3}
              maxLength={SHIFT_NOTE_MAX}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
            <div className="d-flex gap-2 mt-2">
              <Button type="submit" size="sm" disabled={saving || !text.trim()}>
                Save note
              </Button>
              <Button size="sm" variant="secondary" onClick={() => setEditing(false)} disabled={saving}>
                Cancel
              </Button>
            </div>
          </form>
        ) : null}
      </Card.Body>
    </Card>
  );
}
