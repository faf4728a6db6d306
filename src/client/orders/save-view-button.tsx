import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { toast } from 'react-toastify';
import type { Folder, Role } from '../../shared/constants';
import type { ListColumn, ViewQuery } from '../../shared/contracts/views';
import { can } from '../../shared/permissions';
import { errorMessage } from '../transport/api';
import { CheckboxField, TextField } from '../components/form-kit/form-field';
import { type ColumnKey, VIEW_COLUMN } from './columns';
import { type ListQuery, useSaveViewMutation } from './list-api';

interface SaveViewProps {
  folder: Folder;
  query: ListQuery;
  month?: string | undefined;
  limit: number;
  columns: ColumnKey[];
  role: Role | null;
}

/** Saves the list as it is (folder, sort, filters, page size, columns) under a name. */
export function SaveViewButton({ folder, query, month, limit, columns, role }: SaveViewProps) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const [save, { isLoading }] = useSaveViewMutation();
  const submit = async () => {
    const viewQuery: ViewQuery = {
      ...(query as ViewQuery),
      ...(month ? { month: month as ViewQuery['month'] } : {}),
      limit,
      columns: columns.map((k) => VIEW_COLUMN[k]).filter((c): c is ListColumn => !!c),
    };
    try {
      const res = await save({ name: name.trim(), folder, query: viewQuery, shared }).unwrap();
      toast.success(res.message);
      setOpen(false);
      setName('');
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <>
      <Button size="sm" variant="outline-primary" onClick={() => setOpen(true)}>
        Save view
      </Button>
      <Modal show={open} onHide={() => setOpen(false)}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Modal.Header closeButton>
            <Modal.Title className="h5">Save this view</Modal.Title>
          </Modal.Header>
          <Modal.Body>
            <TextField
              id="view-name"
              className="mb-2"
              label="Name"
              value={name}
              maxLength={80}
              required
              onChange={(e) => setName(e.target.value)}
            />
            {can(role, 'views.share') ? (
              <CheckboxField
                id="view-shared"
                label="Share with everyone"
                checked={shared}
                onChange={(e) => setShared(e.target.checked)}
              />
            ) : null}
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isLoading || !name.trim()}>
              Save
            </Button>
          </Modal.Footer>
        </form>
      </Modal>
    </>
  );
}
