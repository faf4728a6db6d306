import type { ColumnDef } from '@tanstack/react-table';
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ListSortKey, OrderListRow, SortDirection } from '../../shared/contracts/orders';
import { MSG } from '../../shared/messages';
import { encodeOrderId } from '../../shared/order-id';
import { formatIsoInstant } from '../../shared/dates';
import { DataTable } from '../components/list-kit/data-table';
import { type Column, type ColumnKey, cellText, SORT_KEY } from './columns';
import { CheckBadge, DueBadge, EditedBadge, RepliedBadge, StatusBadge } from './list-controls';

/** Above this many rows only the visible rows are in the page (the list kit's row window). */
const VIRTUAL_FROM = 200;
const ROW_HEIGHT = 37;

interface Props {
  rows: OrderListRow[];
  columns: Column[];
  loading: boolean;
  selectable: boolean;
  selected: ReadonlySet<number>;
  onToggle: (id: number) => void;
  onToggleAll: (checked: boolean) => void;
  /** Extra buttons in the Action column (Delete, Refund), after View. */
  rowActions?: (row: OrderListRow) => ReactNode;
  /** Shown instead of "No records found" when there are no rows for another reason (an error, no access). */
  emptyContent?: ReactNode;
  /** Sortable headers: the current sort and what a header click asks for. */
  sort?: { key: ListSortKey | undefined; dir: SortDirection } | undefined;
  onSort?: ((key: ListSortKey, dir: SortDirection) => void) | undefined;
  compact?: boolean | undefined;
  /** Show only the columns that are whole in the table's width (the rest behind "+N"). */
  fit?: boolean | undefined;
}

const TRUNCATE: Partial<Record<ColumnKey, number>> = { name: 150, email: 170, assignTo: 120 };

/** The Action column stays in view on the right however wide the table is. */
const PINNED = { position: 'sticky', right: 0, background: 'var(--bs-body-bg)', zIndex: 1 } as const;

function Cell({ row, columnKey }: { row: OrderListRow; columnKey: ColumnKey }) {
  if (columnKey === 'due') return <DueBadge row={row} />;
  if (columnKey === 'status')
    return (
      <>
        <StatusBadge status={row.process_status} />
        <CheckBadge row={row} />
        <RepliedBadge row={row} />
        <EditedBadge row={row} />
      </>
    );
  const text = cellText(row, columnKey);
  // Moments keep the list's fixed form; the full ISO instant shows on hover, as everywhere in the staff UI.
  const instant = columnKey === 'datetime' ? row.created_at : columnKey === 'refund' ? row.refund_date : null;
  if (instant) return <span title={formatIsoInstant(instant)}>{text}</span>;
  // Long names and e-mails are cut with an ellipsis (whole text on hover) so the default columns fit.
  const max = TRUNCATE[columnKey];
  if (max)
    return (
      <span className="d-inline-block text-truncate align-bottom" style={{ maxWidth: max }} title={text}>
        {text}
      </span>
    );
  return <>{text}</>;
}

/** The Action column: View (highlighted while unassigned), then the folder's row actions. */
function ActionCell({ row, rowActions }: { row: OrderListRow; rowActions: Props['rowActions'] }) {
  const assigned = row.assign_to !== '';
  return (
    <div className="d-flex gap-1">
      <Link
        to={viewPath(row)}
        className={`btn btn-sm ${assigned ? 'btn-outline-secondary' : 'btn-primary'}`}
        title={assigned ? `Assigned to ${row.assign_to}` : undefined}
      >
        View
      </Link>
      {rowActions?.(row)}
    </div>
  );
}

const viewPath = (row: OrderListRow) => `/admin/view-order/${encodeOrderId(row.order_id)}`;
const rowId = (row: OrderListRow) => String(row.order_id);

/**
 * How many of the leading columns are whole inside the table's box, left of the pinned Action column
 * (measured on the table as rendered with every column); at least one.
 */
function columnsThatFit(box: HTMLElement): number {
  const heads = [...box.querySelectorAll<HTMLElement>('thead th[data-fit-col]')];
  const action = box.querySelector<HTMLElement>('thead th[data-fit-action]');
  const inner = box.getBoundingClientRect().left + box.clientLeft + box.clientWidth;
  const limit = Math.min(inner, action?.getBoundingClientRect().left ?? inner) + 0.5;
  let n = 0;
  for (const th of heads) {
    if (th.getBoundingClientRect().right > limit) break;
    n += 1;
  }
  return Math.max(n, 1);
}

/**
 * Only the columns that are whole in the table's width are shown (none is cut under the pinned Action
 * column or at the box's edge); the Action header offers the rest ("+N"), and the table then scrolls
 * sideways inside its box. Measured before paint.
 */
function useFittingColumns(count: number, hasRows: boolean, enabled: boolean) {
  const outer = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [fit, setFit] = useState<number | null>(null);
  const [all, setAll] = useState(false);
  useEffect(() => {
    const el = outer.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry?.contentRect.width ?? 0)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // Measured again for a new width or column set, and once the first rows are in (not on every page or
  // search: the columns stay where they are while one pages through).
  // biome-ignore lint/correctness/useExhaustiveDependencies: these are the triggers
  useLayoutEffect(() => setFit(null), [width, count, hasRows]);
  useLayoutEffect(() => {
    const box = outer.current?.querySelector<HTMLElement>('.table-responsive');
    if (all || !enabled || !box) return;
    // With fewer columns the Action header gains its "+N": measured again until what is shown fits.
    const n = columnsThatFit(box);
    if (fit === null || n < Math.min(fit, count)) setFit(n);
    // Layout is read only when the measure is due (not on every render of the table).
  }, [fit, all, enabled, count]);
  const shown = all || !enabled || fit === null ? count : Math.min(fit, count);
  return { outer, shown, hidden: count - shown, all, setAll };
}

/** The one order table: every folder, the future month and the chargeback list (on the list kit). */
export function OrderTable(props: Props) {
  const { rows, selectable, selected, onToggle, onToggleAll, loading, emptyContent, rowActions } = props;
  const navigate = useNavigate();
  const fitting = useFittingColumns(props.columns.length, rows.length > 0, props.fit ?? false);
  const { hidden, all, setAll } = fitting;
  const columns = useMemo(() => props.columns.slice(0, fitting.shown), [props.columns, fitting.shown]);
  const defs = useMemo<ColumnDef<OrderListRow, unknown>[]>(
    () => [
      ...columns.map(
        (c): ColumnDef<OrderListRow, unknown> => ({
          id: c.key,
          header: c.label,
          cell: ({ row }) => <Cell row={row.original} columnKey={c.key} />,
          meta: {
            ...(SORT_KEY[c.key] ? { sortKey: SORT_KEY[c.key] } : {}),
            headerProps: { 'data-fit-col': c.key },
          },
        }),
      ),
      {
        id: 'action',
        header: () => (
          <span className="d-inline-flex align-items-center gap-1">
            Action
            {hidden > 0 || all ? (
              <button
                type="button"
                className="btn btn-link btn-sm p-0 fw-normal text-nowrap"
                onClick={() => setAll(!all)}
                title={all ? 'Only the columns that fit the width' : `${hidden} more columns`}
                data-testid="more-columns"
              >
                {/* Its name starts with what it shows ("+3 more: widen the table"); not "Show" nor "Columns",
                    so the page's "Show" (page size) and "Columns" (chooser) stay unique. */}
                {all ? '−' : `+${hidden}`}
                <span className="visually-hidden">
                  {all ? ' narrow the table' : ' more: widen the table'}
                </span>
              </button>
            ) : null}
          </span>
        ),
        cell: ({ row }) => <ActionCell row={row.original} rowActions={rowActions} />,
        meta: {
          // As narrow as its buttons: the width the table has to spare goes to the data columns.
          headerStyle: { ...PINNED, background: 'var(--bs-tertiary-bg)', width: '1%' },
          cellStyle: PINNED,
          headerProps: { 'data-fit-action': '' },
        },
      },
    ],
    [columns, rowActions, hidden, all, setAll],
  );
  const selectedIds = useMemo(() => new Set([...selected].map(String)), [selected]);
  return (
    <div ref={fitting.outer}>
      <DataTable
        rows={rows}
        columns={defs}
        rowId={rowId}
        testId="order-table"
        className={`table table-hover align-middle mb-0 text-nowrap order-table${props.compact ? ' table-sm small' : ''}`}
        wrapClassName="table-responsive border rounded"
        wrapStyle={{ height: 550, overflow: 'auto' }}
        headClassName="table-light"
        headStyle={{ position: 'sticky', top: 0, zIndex: 1 }}
        virtualFrom={VIRTUAL_FROM}
        rowHeight={ROW_HEIGHT}
        selection={
          selectable
            ? {
                selected: selectedIds,
                onToggle: (id) => onToggle(Number(id)),
                onToggleAll,
                rowLabel: (row) => `Select order ${row.order_id}`,
              }
            : undefined
        }
        sort={props.sort}
        onSort={props.onSort as ((key: string, dir: SortDirection) => void) | undefined}
        rowProps={(row) => ({
          style: { height: ROW_HEIGHT, cursor: 'pointer' },
          'data-order-id': row.order_id,
          // The row opens the order; its own controls (checkbox, buttons, links) keep their meaning.
          onClick: (e) => {
            if ((e.target as HTMLElement).closest('a, button, input, label, select')) return;
            if (window.getSelection()?.toString()) return;
            navigate(viewPath(row));
          },
        })}
        empty={
          loading ? (
            <span className="spinner-border spinner-border-sm" role="status" aria-label="Loading" />
          ) : emptyContent ? (
            emptyContent
          ) : (
            <>
              <div>{MSG.noRecords}</div>
              <div className="small">{MSG.noData}</div>
            </>
          )
        }
      />
    </div>
  );
}
