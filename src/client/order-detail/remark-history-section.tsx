import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { OrderDetails, RemarkItem } from '../../shared/contracts/order-detail';
import { MSG } from '../../shared/messages';
import { DateTime } from '../components/date-time';
import { column, DataTable } from '../components/list-kit/data-table';
import { Section } from './section';

const FLAGS: [label: string, key: keyof RemarkItem][] = [
  ['Whatsapp', 'whatsapp'],
  ['Telephone', 'telephone'],
  ['Refund', 'status_refund'],
  ['Voided', 'voided'],
  ['Chargeback', 'chargeback'],
  ['ReportError', 'report_error'],
];

const byId = (remark: RemarkItem) => String(remark.id);

/** A remark longer than this folds to its first characters, with a "more" toggle. */
export const REMARK_FOLD_CHARS = 240;

/** The remark's text, always visible; a long one folds with a more/less toggle. */
function RemarkText({ remark }: { remark: RemarkItem }) {
  const [unfolded, setUnfolded] = useState(false);
  const text = remark.remark;
  const long = text.length > REMARK_FOLD_CHARS;
  return (
    <p
      className="mb-0"
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      data-testid="remark-text"
    >
      {long && !unfolded ? `${text.slice(0, REMARK_FOLD_CHARS).trimEnd()}…` : text}
      {long && (
        <Button
          variant="link"
          size="sm"
          className="p-0 ms-1 align-baseline"
          aria-expanded={unfolded}
          onClick={() => setUnfolded((v) => !v)}
        >
          {unfolded ? 'less' : 'more'}
        </Button>
      )}
    </p>
  );
}

/**
 * Remarks with their text shown on a row of its own (long ones fold), and a Show/Hide toggle revealing
 * the six flags (N when empty).
 */
export function RemarkHistorySection({ order }: { order: OrderDetails }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns = [
    column<RemarkItem>('#', (_, i) => i + 1),
    column<RemarkItem>('Order ID', (remark) => remark.order_id),
    column<RemarkItem>('Date & Time', (remark) => <DateTime value={remark.create_ts} />),
    column<RemarkItem>('Team', (remark) => remark.remark_name),
    column<RemarkItem>('Action', (remark) => (
      <Button
        size="sm"
        variant="outline-secondary"
        aria-expanded={open.has(remark.id)}
        aria-controls={`remark-${remark.id}`}
        onClick={() => toggle(remark.id)}
      >
        {open.has(remark.id) ? 'Hide' : 'Show'}
      </Button>
    )),
  ];
  // Under each remark: its text on a row of its own, then its flags while unfolded.
  const rowAfter = (remark: RemarkItem) => (
    <>
      <tr>
        <td colSpan={columns.length}>
          <RemarkText remark={remark} />
        </td>
      </tr>
      {open.has(remark.id) && (
        <tr id={`remark-${remark.id}`}>
          <td colSpan={columns.length}>
            <ul className="list-inline small mb-0">
              {FLAGS.map(([label, key]) => (
                <li key={key} className="list-inline-item me-3">
                  {label}: <strong>{remark[key] || 'N'}</strong>
                </li>
              ))}
            </ul>
          </td>
        </tr>
      )}
    </>
  );

  return (
    <Section title="Comment History">
      <DataTable
        rows={order.remarks}
        columns={columns}
        rowId={byId}
        rowAfter={rowAfter}
        className="table table-sm table-bordered align-middle mb-0"
        wrapClassName="table-responsive"
        empty={MSG.noRecord}
      />
    </Section>
  );
}
