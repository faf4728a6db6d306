import {
  type ColumnDef,
  createRow,
  flexRender,
  getCoreRowModel,
  type Row,
  type RowData,
  type RowSelectionState,
  type Table,
  useReactTable,
} from '@tanstack/react-table';
import {
  type CSSProperties,
  type HTMLAttributes,
  type ReactNode,
  memo,
  type RefObject,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { DataTableHead, type SortDir } from './data-table-head';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The server's sort key: the header becomes a sort button. */
    sortKey?: string;
    className?: string;
    headerStyle?: CSSProperties;
    /** Data attributes of the header cell (what a caller measures or finds it by). */
    headerProps?: Record<`data-${string}`, string>;
    cellStyle?: CSSProperties;
    /** The column names its row: its cells are `<th scope="row">`. */
    rowHeader?: boolean;
  }
}

/** A column shown as it is: its header text and what a row shows in it (the id is the header's). */
export function column<R>(
  header: string,
  cell: (row: R, index: number) => ReactNode,
  options: { id?: string; meta?: ColumnDef<R, unknown>['meta'] } = {},
): ColumnDef<R, unknown> {
  const { id = header, meta } = options;
  return { id, header, cell: ({ row }) => cell(row.original, row.index), ...(meta ? { meta } : {}) };
}

export interface DataTableProps<R> {
  rows: R[];
  /** TanStack Table column definitions; `meta` carries the sort key, classes and styles. */
  columns: ColumnDef<R, unknown>[];
  rowId: (row: R, index: number) => string;
  /** The table's accessible name. */
  label?: string;
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
  /** Rows of the screen's own under each row (a full-width text, details that unfold); not with `virtualFrom`. */
  rowAfter?: ((row: R) => ReactNode) | undefined;
  className?: string;
  wrapClassName?: string;
  wrapStyle?: CSSProperties;
  headClassName?: string;
  headStyle?: CSSProperties;
  testId?: string;
  busy?: boolean;
  /** From this many rows on only the visible rows are in the page (`useRowWindow`). */
  virtualFrom?: number;
  rowHeight?: number;
}

/**
 * The table's rows, made on demand: a TanStack row (its cells, its selection state) is created the
 * first time the body shows it and kept. When the new data only appends to the previous array (the
 * same row objects first, as 'All' does while it streams in), the rows already made are kept too; any
 * other change starts afresh. Building TanStack's row model over ~100,000 rows for every appended
 * chunk (tens of closures per row) was the long task, and the heap it left made every scroll frame
 * pay for garbage collection.
 */
class LazyRows<R> {
  readonly length: number;
  private readonly made: (Row<R> | undefined)[];

  constructor(
    private readonly table: Table<R>,
    private readonly rowId: (row: R, index: number) => string,
    readonly data: R[],
    prev: LazyRows<R> | undefined,
  ) {
    this.length = data.length;
    let made: (Row<R> | undefined)[] = [];
    if (prev && prev.table === table && data.length >= prev.data.length) {
      const old = prev.data;
      let i = 0;
      while (i < old.length && old[i] === data[i]) i++;
      // The rows made so far are the same rows at the same places: shared (only ever added to).
      if (i === old.length) made = prev.made;
    }
    this.made = made;
  }

  at(index: number): Row<R> {
    let row = this.made[index];
    if (!row) {
      const original = this.data[index]!;
      // The id from the table's own `getRowId` option (the same function), never TanStack's internals.
      row = createRow(this.table, this.rowId(original, index), original, index, 0, undefined, undefined);
      this.made[index] = row;
    }
    return row;
  }
}

/**
 * The one list table: headless TanStack Table for the columns, the selection and the sort headers,
 * a fixed-height row window for long lists, Bootstrap markup. Every list and table of the staff area
 * uses it.
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
  const table = useReactTable({
    data: rows,
    columns,
    getRowId: rowId,
    // Built only if something asks for the whole model; the body reads its rows through `LazyRows`.
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    enableRowSelection: !!selection,
    state: { rowSelection },
  });
  const prevRows = useRef<LazyRows<R>>(undefined);
  const modelRows = useMemo(() => new LazyRows(table, rowId, rows, prevRows.current), [table, rowId, rows]);
  prevRows.current = modelRows;
  // TanStack's getIsAllRowsSelected over the rows (every row may be selected), without its row model.
  const allSelected = useMemo(() => {
    if (!selected?.size || rows.length === 0) return false;
    for (let i = 0; i < rows.length; i++) if (!selected.has(rowId(rows[i]!, i))) return false;
    return true;
  }, [rows, rowId, selected]);
  const span = columns.length + (selection ? 1 : 0);
  const virtual = modelRows.length >= (props.virtualFrom ?? Number.POSITIVE_INFINITY);

  return (
    <div
      ref={scrollRef}
      className={props.wrapClassName}
      // A virtual list scrolls in a box of its own (fixed) size: its rows' layout and paint stay inside.
      style={
        virtual && props.wrapStyle?.height !== undefined
          ? { ...props.wrapStyle, contain: 'strict' }
          : props.wrapStyle
      }
    >
      <table
        className={props.className}
        aria-label={props.label}
        data-testid={props.testId}
        aria-busy={props.busy}
      >
        <DataTableHead
          table={table}
          selectAll={
            selection
              ? { checked: allSelected, disabled: modelRows.length === 0, onToggleAll: selection.onToggleAll }
              : undefined
          }
          sort={props.sort}
          onSort={props.onSort}
          className={props.headClassName}
          style={props.headStyle}
        />
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
            {Array.from({ length: modelRows.length }, (_, i) => {
              const row = modelRows.at(i);
              return <BodyRow key={row.id} row={row} {...props} />;
            })}
          </tbody>
        )}
      </table>
    </div>
  );
}

type BodyProps<R> = Omit<DataTableProps<R>, 'rows'>;

/**
 * The rows in view of a scroll box whose rows are all `rowHeight` high, and `overscan` more either
 * side: arithmetic on the scroll offset, nothing per row. (TanStack Virtual kept a measurement object
 * per row and built them all again whenever the count grew: ~100,000 of them for every chunk 'All'
 * appended.) The range is set from the scroll event and rendered by React in its own task.
 */
function useRowWindow(
  scrollRef: RefObject<HTMLDivElement | null>,
  count: number,
  rowHeight: number,
  overscan: number,
) {
  const [range, setRange] = useState({ start: 0, end: 0 });
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const update = () => {
      const top = el.scrollTop;
      const start = Math.max(0, Math.min(count, Math.floor(top / rowHeight)) - overscan);
      const end = Math.min(count, Math.ceil((top + el.clientHeight) / rowHeight) + overscan);
      setRange((r) => (r.start === start && r.end === end ? r : { start, end }));
    };
    update();
    el.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    resize?.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, [scrollRef, count, rowHeight, overscan]);
  return { start: Math.min(range.start, count), end: Math.min(range.end, count) };
}

function VirtualBody<R>(
  props: BodyProps<R> & { rows: LazyRows<R>; scrollRef: RefObject<HTMLDivElement | null>; span: number },
) {
  const { rows, scrollRef, span, rowHeight = 37 } = props;
  const { start, end } = useRowWindow(scrollRef, rows.length, rowHeight, 12);
  const top = start * rowHeight;
  const bottom = (rows.length - end) * rowHeight;
  const shown: ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const row = rows.at(i);
    shown.push(<BodyRow key={row.id} {...props} row={row} />);
  }
  return (
    <tbody>
      {top > 0 ? (
        <tr style={{ height: top }}>
          <td colSpan={span} className="p-0 border-0" />
        </tr>
      ) : null}
      {shown}
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

function BodyRowImpl<R>({ row, selection, rowProps, rowAfter }: BodyProps<R> & { row: Row<R> }) {
  const tr = (
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
        const Cell = meta?.rowHeader ? 'th' : 'td';
        return (
          <Cell
            key={cell.id}
            scope={meta?.rowHeader ? 'row' : undefined}
            className={meta?.className}
            style={meta?.cellStyle}
          >
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </Cell>
        );
      })}
    </tr>
  );
  if (!rowAfter) return tr;
  return (
    <>
      {tr}
      {rowAfter(row.original)}
    </>
  );
}
