import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { NavLink } from 'react-router';
import { toast } from 'react-toastify';
import { PAGE_SIZES } from '../../shared/constants';
import type { SavedView } from '../../shared/contracts/views';
import { FOLDER_ROUTES } from './nav';
import { errorMessage } from '../transport/api';
import { useDeleteViewMutation, useGetViewsQuery, useSaveViewMutation } from './list-api';
import { TextField } from '../components/form-kit/form-field';

/** The list URL a view stands for: its folder's route and its query (page size and columns included). */
export function viewHref(view: SavedView): string | null {
  const route = FOLDER_ROUTES.find((r) => r.folder === view.folder);
  if (!route) return null;
  const { limit, columns, ...rest } = view.query;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== '') qs.set(k, String(v));
  if (limit && (PAGE_SIZES as readonly number[]).includes(limit)) qs.set('size', String(limit));
  if (columns?.length) qs.set('columns', columns.join(','));
  return `/admin/${route.path}?${qs}`;
}

/** Own and shared views under the sidebar's folders, each with its live count. */
export function SidebarViews() {
  const { data: views } = useGetViewsQuery(undefined, { pollingInterval: 60_000 });
  const [remove] = useDeleteViewMutation();
  const [renaming, setRenaming] = useState<SavedView | null>(null);
  const drop = async (v: SavedView) => {
    if (!window.confirm(`Delete the view "${v.name}"?`)) return;
    try {
      toast.success((await remove(v.id).unwrap()).message);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  const links = (views ?? [])
    .map((v) => ({ v, href: viewHref(v) }))
    .filter((x): x is { v: SavedView; href: string } => x.href !== null);
  if (!links.length) return null;
  return (
    <>
      <div className="staff-nav-heading px-3 pt-3 pb-1 small text-uppercase opacity-75" id="views-heading">
        Views
      </div>
      <ul className="staff-nav" aria-labelledby="views-heading">
        {links.map(({ v, href }) => (
          <li key={v.id} className="d-flex align-items-center">
            <NavLink
              to={href}
              className={() =>
                `staff-nav-link flex-grow-1${`${window.location.pathname}${window.location.search}` === href ? ' active' : ''}`
              }
              title={v.shared ? `Shared by ${v.ownerName}` : undefined}
              data-testid={`view-link-${v.id}`}
            >
              <span>
                {v.name}
                {v.shared ? <span className="visually-hidden"> (shared)</span> : null}
              </span>
              <span className="badge rounded-pill staff-count">{v.count}</span>
            </NavLink>
            {v.mine ? (
              <>
                <button
                  type="button"
                  className="btn btn-sm btn-link text-reset opacity-75 px-1"
                  aria-label={`Rename the view ${v.name}`}
                  title="Rename"
                  onClick={() => setRenaming(v)}
                >
                  ✎
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-link text-reset opacity-75 px-1"
                  aria-label={`Delete the view ${v.name}`}
                  title="Delete"
                  onClick={() => void drop(v)}
                >
                  ×
                </button>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      {renaming ? <RenameViewDialog view={renaming} onClose={() => setRenaming(null)} /> : null}
    </>
  );
}

/** Renames one's own view; folder, query and sharing stay as they are (PUT takes the whole view). */
function RenameViewDialog({ view, onClose }: { view: SavedView; onClose: () => void }) {
  const [name, setName] = useState(view.name);
  const [save, { isLoading }] = useSaveViewMutation();
  const trimmed = name.trim();
  const submit = async () => {
    try {
      const res = await save({
        id: view.id,
        name: trimmed,
        folder: view.folder,
        query: view.query,
        shared: view.shared,
      }).unwrap();
      toast.success(res.message);
      onClose();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };
  return (
    <Modal show onHide={onClose} aria-labelledby="rename-view-title">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Modal.Header closeButton>
          <Modal.Title id="rename-view-title" className="h5">
            Rename the view
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <TextField
            id="rename-view-name"
            label="Name"
            value={name}
            maxLength={80}
            required
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={isLoading || !trimmed || trimmed === view.name}>
            Rename
          </Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
