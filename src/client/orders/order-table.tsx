import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, type RefObject, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ListSortKey, OrderListRow, SortDirection } from '../../shared/contracts/orders';
import { MSG } from '../../shared/messages';
import { encodeOrderId } from '../../shared/order-id';
import { formatIsoInstant } from '../../shared/dates';
import { type Column, type ColumnKey, cellText, SORT_KEY } from './columns';
import { DueBadge, StatusBadge } from './list-controls';

/** Above this many rows only the visible rows are in the page (TanStack Virtual). */
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
}

const TRUNCATE: Partial<Record<ColumnKey, number>> = { name: 160, email: 200, assignTo: 120 };

/** The Action column stays in view on the right however wide the table is. */
const PINNED = { position: 'sticky', right: 0, background: 'var(--bs-body-bg)', zIndex: 1 } as const;

function Cell({ row, columnKey }: { row: OrderListRow; columnKey: ColumnKey }) {
  if (columnKey === 'due') return <DueBadge row={row} />;
  if (columnKey === 'status') return <StatusBadge status={row.process_status} />;
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

function SortHeader({ column, sort, onSort }: { column: Column } & Pick<Props, 'sort' | 'onSort'>) {
  const key = SORT_KEY[column.key];
  if (!key || !onSort || !sort) return <th scope="col">{column.label}</th>;
  const active = sort.key === key;
  const next: SortDirection = active && sort.dir === 'asc' ? 'desc' : 'asc';
  return (
    <th scope="col" aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        className="btn btn-link btn-sm p-0 text-reset fw-semibold text-decoration-none text-nowrap"
        onClick={() => onSort(key, next)}
        title={`Sort by ${column.label}`}
      >
        {column.label}
        <span aria-hidden="true" className={active ? 'ms-1' : 'ms-1 text-muted opacity-50'}>
          {active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** The one order table: every folder, the future month and the chargeback list. */
export function OrderTable(props: Props) {
  const { rows, columns, selectable, selected, onToggleAll, loading, emptyContent } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const allChecked = rows.length > 0 && rows.every((r) => selected.has(r.order_id));
  const span = columns.length + 1 + (selectable ? 1 : 0);
  return (
    <div
      ref={scrollRef}
      className="table-responsive border rounded"
      style={{ height: 550, overflow: 'auto' }}
    >
      <table
        className={`table table-hover align-middle mb-0 text-nowrap${props.compact ? ' table-sm small' : ''}`}
        data-testid="order-table"
      >
        <thead className="table-light" style={{ position: 'sticky', top: 0, zIndex: 1 }}>
          <tr>
            {selectable ? (
              <th scope="col" style={{ width: 36 }}>
                <input
                  type="checkbox"
                  className="form-check-input"
                  aria-label="Select all rows"
                  checked={allChecked}
                  disabled={rows.length === 0}
                  onChange={(e) => onToggleAll(e.target.checked)}
                />
              </th>
            ) : null}
            {columns.map((c) => (
              <SortHeader key={c.key} column={c} sort={props.sort} onSort={props.onSort} />
            ))}
            <th scope="col" style={{ ...PINNED, background: 'var(--bs-tertiary-bg)' }}>
              Action
            </th>
          </tr>
        </thead>
        {rows.length === 0 ? (
          <tbody>
            <tr>
              <td colSpan={span} className="text-center text-muted py-4">
                {loading ? (
                  <span className="spinner-border spinner-border-sm" role="status" aria-label="Loading" />
                ) : emptyContent ? (
                  emptyContent
                ) : (
                  <>
                    <div>{MSG.noRecords}</div>
                    <div className="small">{MSG.noData}</div>
                  </>
                )}
              </td>
            </tr>
          </tbody>
        ) : rows.length >= VIRTUAL_FROM ? (
          <VirtualBody {...props} scrollRef={scrollRef} span={span} />
        ) : (
          <tbody>
            {rows.map((row) => (
              <Row key={row.order_id} row={row} {...props} />
            ))}
          </tbody>
        )}
      </table>
    </div>
  );
}

function VirtualBody(props: Props & { scrollRef: RefObject<HTMLDivElement | null>; span: number }) {
  const { rows, scrollRef, span } = props;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
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
        <Row key={rows[item.index]!.order_id} row={rows[item.index]!} {...props} />
      ))}
      {bottom > 0 ? (
        <tr style={{ height: bottom }}>
          <td colSpan={span} className="p-0 border-0" />
        </tr>
      ) : null}
    </tbody>
  );
}

function Row({ row, columns, selectable, selected, onToggle, rowActions }: Props & { row: OrderListRow }) {
  const assigned = row.assign_to !== '';
  const navigate = useNavigate();
  const to = `/admin/view-order/${encodeOrderId(row.order_id)}`;
  return (
    <tr
      style={{ height: ROW_HEIGHT, cursor: 'pointer' }}
      data-order-id={row.order_id}
      // The row opens the order; its own controls (checkbox, buttons, links) keep their meaning.
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('a, button, input, label, select')) return;
        if (window.getSelection()?.toString()) return;
        navigate(to);
      }}
    >
      {selectable ? (
        <td>
          <input
            type="checkbox"
            className="form-check-input"
            aria-label={`Select order ${row.order_id}`}
            checked={selected.has(row.order_id)}
            onChange={() => onToggle(row.order_id)}
          />
        </td>
      ) : null}
      {columns.map((c) => (
        <td key={c.key}>
          <Cell row={row} columnKey={c.key} />
        </td>
      ))}
      <td style={PINNED}>
        <div className="d-flex gap-1">
          <Link
            to={to}
            className={`btn btn-sm ${assigned ? 'btn-outline-secondary' : 'btn-primary'}`}
            title={assigned ? `Assigned to ${row.assign_to}` : undefined}
          >
            View
          </Link>
          {rowActions?.(row)}
        </div>
      </td>
    </tr>
  );
}
