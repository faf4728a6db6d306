import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, type RefObject, useRef } from 'react';
import { Link } from 'react-router';
import type { OrderListRow } from '../../shared/contracts/orders';
import { MSG } from '../../shared/messages';
import { encodeOrderId } from '../../shared/order-id';
import { type Column, cellText } from './columns';

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
}

/** The one order table: every folder, the future month and the chargeback list (spec §2, §3). */
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
      <table className="table table-sm table-hover align-middle mb-0 text-nowrap" data-testid="order-table">
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
              <th key={c.key} scope="col">
                {c.label}
              </th>
            ))}
            <th scope="col">Action</th>
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
  return (
    <tr style={{ height: ROW_HEIGHT }} data-order-id={row.order_id}>
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
        <td key={c.key}>{cellText(row, c.key)}</td>
      ))}
      <td className="d-flex gap-1">
        <Link
          to={`/admin/view-order/${encodeOrderId(row.order_id)}`}
          className={`btn btn-sm ${assigned ? 'btn-outline-secondary' : 'btn-primary'}`}
          title={assigned ? `Assigned to ${row.assign_to}` : undefined}
        >
          View
        </Link>
        {rowActions?.(row)}
      </td>
    </tr>
  );
}
