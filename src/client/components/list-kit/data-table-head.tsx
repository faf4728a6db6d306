import { flexRender, type Header, type Table } from '@tanstack/react-table';
import type { CSSProperties } from 'react';

export type SortDir = 'asc' | 'desc';

interface Sorting {
  /** Sortable headers (the server sorts): the current sort and what a header click asks for. */
  sort?: { key: string | undefined; dir: SortDir } | undefined;
  onSort?: ((key: string, dir: SortDir) => void) | undefined;
}

/** The head of the list table: the select-all box when rows can be selected, then each column's header. */
export function DataTableHead<R>({
  table,
  selectAll,
  className,
  style,
  ...sorting
}: Sorting & {
  table: Table<R>;
  /** The select-all checkbox: ticked when every row is selected, off without rows. */
  selectAll: { checked: boolean; disabled: boolean; onToggleAll: (checked: boolean) => void } | undefined;
  className?: string | undefined;
  style?: CSSProperties | undefined;
}) {
  return (
    <thead className={className} style={style}>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {selectAll ? (
            <th scope="col" style={{ width: 36 }}>
              <input
                type="checkbox"
                className="form-check-input"
                aria-label="Select all rows"
                checked={selectAll.checked}
                disabled={selectAll.disabled}
                onChange={(e) => selectAll.onToggleAll(e.target.checked)}
              />
            </th>
          ) : null}
          {group.headers.map((header) => (
            <HeaderCell key={header.id} header={header} {...sorting} />
          ))}
        </tr>
      ))}
    </thead>
  );
}

/** A column's header; with a sort key (and a sort to change) it is a button that turns the sort. */
function HeaderCell<R>({ header, sort, onSort }: Sorting & { header: Header<R, unknown> }) {
  const meta = header.column.columnDef.meta;
  const label = flexRender(header.column.columnDef.header, header.getContext());
  const sortKey = meta?.sortKey;
  if (!sortKey || !onSort || !sort) {
    return (
      <th scope="col" className={meta?.className} style={meta?.headerStyle} {...meta?.headerProps}>
        {label}
      </th>
    );
  }
  const active = sort.key === sortKey;
  const next: SortDir = active && sort.dir === 'asc' ? 'desc' : 'asc';
  const title = typeof header.column.columnDef.header === 'string' ? header.column.columnDef.header : '';
  return (
    <th
      scope="col"
      className={meta?.className}
      style={meta?.headerStyle}
      {...meta?.headerProps}
      aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button
        type="button"
        className="btn btn-link btn-sm p-0 text-reset fw-semibold text-decoration-none text-nowrap"
        onClick={() => onSort(sortKey, next)}
        title={`Sort by ${title}`}
      >
        {label}
        <span aria-hidden="true" className={active ? 'ms-1' : 'ms-1 text-muted opacity-50'}>
          {active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
