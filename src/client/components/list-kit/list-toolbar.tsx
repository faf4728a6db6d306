import { type ReactNode, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';

export interface ToolbarAction {
  key: string;
  label: string;
  variant: string;
  disabled?: boolean;
  onClick: () => void;
}

interface Props {
  /** The search box: its text (the list state's `typed`) and what typing does. */
  search: { value: string; onChange: (text: string) => void; placeholder: string };
  /** Bulk actions over the selected rows, in order. */
  actions?: ToolbarAction[];
  /** Further bulk actions after the standard ones (components that need the selection themselves). */
  extraActions?: ReactNode;
  /** Export of the whole view (CSV). */
  onExport?: (() => void) | undefined;
  exportDisabled?: boolean;
  /** Controls after Export (column chooser, Save view). */
  children?: ReactNode;
  /** The filter bar, under the toolbar: folded behind a Filters button unless a filter is on. */
  filters?: ReactNode;
  /** A filter is on: the filter bar starts open. */
  filtersActive?: boolean;
}

/** The one list toolbar: search, bulk actions, export and the list's own controls, then the filters. */
export function ListToolbar({
  search,
  actions = [],
  extraActions,
  onExport,
  exportDisabled,
  children,
  filters,
  filtersActive = false,
}: Props) {
  const [open, setOpen] = useState(filtersActive);
  const panelId = useId();
  // A filter turned on elsewhere (a saved view, a tile's link) shows the bar it applies to.
  if (filtersActive && !open) setOpen(true);
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <input
          type="search"
          className="form-control form-control-sm"
          style={{ maxWidth: 320 }}
          placeholder={search.placeholder}
          aria-label="Search"
          value={search.value}
          onChange={(e) => search.onChange(e.target.value)}
        />
        {actions.map((a) => (
          <Button key={a.key} size="sm" variant={a.variant} disabled={a.disabled} onClick={a.onClick}>
            {a.label}
          </Button>
        ))}
        {extraActions}
        {filters ? (
          <Button
            size="sm"
            variant={filtersActive ? 'secondary' : 'outline-secondary'}
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((o) => !o)}
          >
            Filters{filtersActive ? ' (on)' : ''}
          </Button>
        ) : null}
        {onExport ? (
          <Button
            size="sm"
            variant="outline-secondary"
            className="ms-auto"
            onClick={onExport}
            disabled={exportDisabled}
          >
            Export CSV
          </Button>
        ) : null}
        {children}
      </div>
      {filters && open ? <div id={panelId}>{filters}</div> : null}
    </>
  );
}
