import {
  type ColumnDef,
  createRow,
  flexRender,
  type Row,
  type RowData,
  type RowModel,
  type RowSelectionState,
  type Table,
  useReactTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type HTMLAttributes,
  type ReactNode,
  memo,
  type RefObject,
  useMemo,
  useRef,
  useState,
} from 'react';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The server's sort key: the header becomes a sort button. */
    sortKey?: string;
    className?: string;
    headerStyle?: CSSProperties;
    cellStyle?: CSSProperties;
  }
}

export type SortDir = 'asc' | 'desc';

export interface DataTableProps<R> {
  rows: R[];
  /** TanStack Table column definitions; `meta` carries the sort key, classes and styles. */
  columns: ColumnDef<R, unknown>[];
  rowId: (row: R, index: number) => string;
  /** What the body shows when there are no rows (a spinner, an error, "No records found"). */
  empty: ReactNode;
  /** A checkbox column: the selected row ids and what a click asks for. */
  selection?:
    | {
        selected: ReadonlySet<string>;
        onToggle: (id: string) => void;
        onToggleAll: (checked: boolean) => void;
        rowLabel: (row: R) => string;
      }
    | undefined;
  /** Sortable headers (the server sorts): the current sort and what a header click asks for. */
  sort?: { key: string | undefined; dir: SortDir } | undefined;
  onSort?: ((key: string, dir: SortDir) => void) | undefined;
  /** Attributes of each row (data attributes, a click that opens the row). */
  rowProps?: (row: R) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number>;
  className?: string;
  wrapClassName?: string;
  wrapStyle?: CSSProperties;
  headClassName?: string;
  headStyle?: CSSProperties;
  testId?: string;
  busy?: boolean;
  /** From this many rows on only the visible rows are in the page (TanStack Virtual). */
  virtualFrom?: number;
  rowHeight?: number;
}

/**
 * TanStack's core row model, built incrementally: when the new data only appends to the previous
 * array (the same row objects first, as 'All' does while it streams in), the rows already made are
 * kept and only the new ones are created. Any other change builds the model again, as
 * `getCoreRowModel` does. Rebuilding ~100,000 rows for every appended chunk was the long task.
 */
function incrementalCoreRowModel<R>(): (table: Table<R>) => () => RowModel<R> {
  return (table) => {
    let prev: { data: R[]; model: RowModel<R> } | null = null;
    return () => {
      const data = table.options.data;
      if (prev?.data === data) return prev.model;
      let from = 0;
      let rows: Row<R>[] = [];
      let rowsById: Record<string, Row<R>> = {};
      if (prev && data.length >= prev.data.length) {
        const old = prev.data;
        let same = true;
        for (let i = 0; i < old.length; i++) {
          if (old[i] !== data[i]) {
            same = false;
            break;
          }
        }
        if (same) {
          from = old.length;
          rows = prev.model.rows.slice();
          // Only added to: the previous model's map stays right for its own rows.
          rowsById = prev.model.rowsById;
        }
      }
      for (let i = from; i < data.length; i++) {
        const row = createRow(table, table._getRowId(data[i]!, i), data[i]!, i, 0, undefined, undefined);
        rows.push(row);
        rowsById[row.id] = row;
      }
      const model: RowModel<R> = { rows, flatRows: rows, rowsById };
      prev = { data, model };
      return model;
    };
  };
}

/**
 * The one list table: headless TanStack Table for the columns, the selection and the sort headers,
 * TanStack Virtual for long lists, Bootstrap markup. The order lists and the reports use it.
 */
export function DataTable<R>(props: DataTableProps<R>) {
  const { rows, columns, rowId, selection, empty } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  // From the selected ids alone (not a pass over every row on each render): an id that is not a row
  // changes nothing TanStack answers here (a row's own state, "all rows selected").
  const selected = selection?.selected;
  const rowSelection = useMemo<RowSelectionState>(() => {
    const out: RowSelectionState = {};
    if (selected) for (const id of selected) out[id] = true;
    return out;
  }, [selected]);
  const [coreRowModel] = useState(incrementalCoreRowModel<R>);
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: rowId,
    getCoreRowModel: coreRowModel,
    manualSorting: true,
    enableRowSelection: !!selection,
    state: { rowSelection },
  });
  const modelRows = table.getRowModel().rows;
  const span = columns.length + (selection ? 1 : 0);
  const virtual = modelRows.length >= (props.virtualFrom ?? Number.POSITIVE_INFINITY);

  return (
    <div ref={scrollRef} className={props.wrapClassName} style={props.wrapStyle}>
      <table className={props.className} data-testid={props.testId} aria-busy={props.busy}>
        <thead className={props.headClassName} style={props.headStyle}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {selection ? (
                <th scope="col" style={{ width: 36 }}>
                  <input
                    type="checkbox"
                    className="form-check-input"
                    aria-label="Select all rows"
                    checked={modelRows.length > 0 && table.getIsAllRowsSelected()}
                    disabled={modelRows.length === 0}
                    onChange={(e) => selection.onToggleAll(e.target.checked)}
                  />
                </th>
              ) : null}
              {group.headers.map((header) => {
                const meta = header.column.columnDef.meta;
                const label = flexRender(header.column.columnDef.header, header.getContext());
                const sortKey = meta?.sortKey;
                if (!sortKey || !props.onSort || !props.sort) {
                  return (
                    <th key={header.id} scope="col" className={meta?.className} style={meta?.headerStyle}>
                      {label}
                    </th>
                  );
                }
                const { sort, onSort } = props;
                const active = sort.key === sortKey;
                const next: SortDir = active && sort.dir === 'asc' ? 'desc' : 'asc';
                const title =
                  typeof header.column.columnDef.header === 'string' ? header.column.columnDef.header : '';
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={meta?.className}
                    style={meta?.headerStyle}
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
              })}
            </tr>
          ))}
        </thead>
        {modelRows.length === 0 ? (
          <tbody>
            <tr>
              <td colSpan={span} className="text-center text-muted py-4">
                {empty}
              </td>
            </tr>
          </tbody>
        ) : virtual ? (
          <VirtualBody {...props} rows={modelRows} scrollRef={scrollRef} span={span} />
        ) : (
          <tbody>
            {modelRows.map((row) => (
              <BodyRow key={row.id} row={row} {...props} />
            ))}
          </tbody>
        )}
      </table>
    </div>
  );
}

type BodyProps<R> = Omit<DataTableProps<R>, 'rows'>;

function VirtualBody<R>(
  props: BodyProps<R> & { rows: Row<R>[]; scrollRef: RefObject<HTMLDivElement | null>; span: number },
) {
  const { rows, scrollRef, span, rowHeight = 37 } = props;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <tbody>
      {top > 0 ? (
        <tr style={{ height: top }}>
          <td colSpan={span} className="p-0 border-0" />
        </tr>
      ) : null}
      {items.map((item) => (
        <BodyRow key={rows[item.index]!.id} {...props} row={rows[item.index]!} />
      ))}
      {bottom > 0 ? (
        <tr style={{ height: bottom }}>
          <td colSpan={span} className="p-0 border-0" />
        </tr>
      ) : null}
    </tbody>
  );
}

/**
 * One row. Memoised: while the list scrolls only the body re-renders, and the rows that stay in view
 * (the same props) are not rendered again; a change of the table (rows, selection) renders them anew.
 */
const BodyRow = memo(BodyRowImpl) as typeof BodyRowImpl;

function BodyRowImpl<R>({ row, selection, rowProps }: BodyProps<R> & { row: Row<R> }) {
  return (
    <tr {...rowProps?.(row.original)}>
      {selection ? (
        <td>
          <input
            type="checkbox"
            className="form-check-input"
            aria-label={selection.rowLabel(row.original)}
            checked={row.getIsSelected()}
            onChange={() => selection.onToggle(row.id)}
          />
        </td>
      ) : null}
      {row.getVisibleCells().map((cell) => {
        const meta = cell.column.columnDef.meta;
        return (
          <td key={cell.id} className={meta?.className} style={meta?.cellStyle}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </td>
        );
      })}
    </tr>
  );
}
